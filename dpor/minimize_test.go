package dpor_test

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/wgl"
)

// violates replays ids on sys from the initial state and reports whether the history is
// not linearizable; an invalid schedule does not violate.
func violates(sys model.System, ids []uint64) bool {
	ex, err := explorer.Replay(sys, ids, false)
	if err != nil || ex.Failure != "" {
		return false
	}
	return wgl.Check(sys.Harness.Spec().Spec, histories.Operations(sys.Harness, ex.Events)).Verdict == wgl.NotLinearizable
}

// TestMinimizedSchedulesAreLocalMinima is the property test of minimization over random
// buggy protocols, with and without faults: the minimized schedule replays to a
// violation, is no longer than the one found, and removing any one of its events loses
// the violation or makes the schedule invalid.
func TestMinimizedSchedulesAreLocalMinima(t *testing.T) {
	found, shrunk := 0, 0
	for seed := uint64(0); seed < 60; seed++ {
		c := faultConfigs[seed%uint64(len(faultConfigs))]
		sys := randomSystem(seed)
		if seed%2 == 1 {
			sys = withFaults(sys, c.f, c.restart, c.retries)
		}
		res, err := explorer.Run(context.Background(), sys, explorer.Options{Strategy: dpor.Random(int64(seed)), MaxSchedules: 300, Minimize: true})
		if err != nil {
			t.Fatal(err)
		}
		v := res.First
		if v == nil || v.Kind != "nonlinearizable" {
			continue
		}
		found++
		ids := make([]uint64, len(v.Steps))
		for i, s := range v.Steps {
			ids[i] = s.ID
		}
		if !v.Minimized || v.OriginalSteps < len(ids) {
			t.Errorf("%s: minimized %v, %d steps from %d", sys.Name, v.Minimized, len(ids), v.OriginalSteps)
		}
		if len(ids) < v.OriginalSteps {
			shrunk++
		}
		if !violates(sys, ids) {
			t.Errorf("%s: the minimized schedule does not replay to a violation", sys.Name)
			continue
		}
		for i := range ids {
			c := append(append([]uint64(nil), ids[:i]...), ids[i+1:]...)
			if violates(sys, c) {
				t.Errorf("%s: removing step %d of %d (%s) keeps the violation: not a local minimum", sys.Name, i+1, len(ids), v.Steps[i].Kind)
			}
		}
	}
	if found < 10 || shrunk == 0 {
		t.Errorf("%d violations found, %d shrunk: too few to test minimization", found, shrunk)
	}
	t.Logf("%d violations found, %d shrunk", found, shrunk)
}
