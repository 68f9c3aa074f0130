package explorer_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/register"
	"github.com/ravelmc/ravel/wgl"
)

// withoutFault is the schedule steps without its fault at step i: a duplicate becomes
// the plain delivery of its message, at the same step, and a later delivery of that
// message (the copy the duplicate left) goes; another fault is left out.
func withoutFault(steps []explorer.Delivery, i int) []uint64 {
	var ids []uint64
	for j, s := range steps {
		switch {
		case j == i && s.Kind == dpor.Duplicate:
			ids = append(ids, s.Target)
		case j == i:
		case j > i && steps[i].Kind == dpor.Duplicate && s.ID == steps[i].Target:
		default:
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// nonlinearizable reports whether ids replay on sys to a history that is not
// linearizable.
func nonlinearizable(sys model.System, ids []uint64) bool {
	ex, err := explorer.Replay(sys, ids, false)
	if err != nil || ex.Failure != "" {
		return false
	}
	return wgl.Check(sys.Harness.Spec().Spec, histories.Operations(sys.Harness, ex.Events)).Verdict == wgl.NotLinearizable
}

// TestMinimizeDropsFaultsNotNeeded: register-buggy with one duplicate, random walks
// injecting faults half the time (probe M2, seeds 1 to 6): the minimized counterexample
// keeps no fault that the violation does not need — with the fault left out (a
// duplicate delivered once), the schedule no longer replays to a violation.
func TestMinimizeDropsFaultsNotNeeded(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			sys, err := register.NewBuggy(3, "2r1w")
			if err != nil {
				t.Fatal(err)
			}
			sys.Faults = model.Faults{Duplicate: 1}
			found := mustFind(t, sys, explorer.Options{Strategy: dpor.Random(seed), FaultProbability: 0.5})
			v, err := explorer.Minimize(context.Background(), sys, found)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range v.Steps {
				if !s.Kind.IsFault() {
					continue
				}
				if nonlinearizable(sys, withoutFault(v.Steps, i)) {
					t.Errorf("step %d, a %v the violation does not need, is still in the minimized schedule of %d steps", i+1, s.Kind, len(v.Steps))
				}
			}
		})
	}
}
