package explorer

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
)

// TestCommuteMemoChangesNothing: CommutesAt's memo answers only what its three steps
// would; stateful DPOR with and without the memo explores exactly the same search.
func TestCommuteMemoChangesNothing(t *testing.T) {
	for _, name := range []string{"register/2r2w", "abd/1w2r-seq", "leader/1rw", "paxos/2r1w", "chord/2r1w", "abd-buggy/1w2r"} {
		t.Run(name, func(t *testing.T) {
			sysName, harness, _ := strings.Cut(name, "/")
			sys := shippedWith(t, sysName, harness, model.Faults{})
			run := func(memo bool) Stats {
				noCommuteMemo = !memo
				defer func() { noCommuteMemo = false }()
				res, err := Run(t.Context(), sys, Options{Strategy: dpor.StatefulDPOR(dpor.History()), StateCaching: true, MaxSchedules: Unlimited})
				if err != nil || !res.Complete {
					t.Fatalf("err %v, complete %v", err, res != nil && res.Complete)
				}
				return res.Stats
			}
			a, b := run(true), run(false)
			if a.States != b.States || a.ExploredAgain != b.ExploredAgain || a.Revisits != b.Revisits || a.Steps != b.Steps || a.Schedules != b.Schedules || a.Canonical != b.Canonical {
				t.Errorf("with the memo %d states, %d again, %d revisits, %d steps, %d schedules, %d canonical; without %d, %d, %d, %d, %d, %d",
					a.States, a.ExploredAgain, a.Revisits, a.Steps, a.Schedules, a.Canonical, b.States, b.ExploredAgain, b.Revisits, b.Steps, b.Schedules, b.Canonical)
			}
		})
	}
}
