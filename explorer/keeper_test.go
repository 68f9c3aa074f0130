package explorer

import (
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/leader"
	"github.com/ravelmc/ravel/systems/register"
)

// hiddenKeeper is stateful DPOR without its StateKeeper methods: the engine keeps its own
// visited set beside it. It keeps the order stateful DPOR takes a node's events in
// (dpor.Orderer), which is not what the comparison is about.
type hiddenKeeper struct{ dpor.Revisiter }

func (h hiddenKeeper) Order(p dpor.Path) (int, bool) { return h.Revisiter.(dpor.Orderer).Order(p) }

// TestStateKeeperActsAsTheVisitedSet is the oracle for dpor.StateKeeper: stateful DPOR
// answering the engine's "was this state visited?" from its graph explores exactly what
// it explores beside the engine's own visited set — the same states, revisits, steps and
// schedules — on an acyclic and a cyclic system. Without sleep sets: with them, stateful
// DPOR explores some visited states again (dpor.StateKeeper.ExploredAgain), which only
// its own record can tell the engine, and beside the engine's visited set it would stop
// there.
func TestStateKeeperActsAsTheVisitedSet(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func() (model.System, error)
	}{
		{"register/2r1w", func() (model.System, error) { return register.New(2, "2r1w") }},
		{"leader/1rw", func() (model.System, error) { return leader.New(3, "1rw") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := tc.build()
			if err != nil {
				t.Fatal(err)
			}
			run := func(s dpor.Strategy) Stats {
				res, err := Run(t.Context(), sys, Options{Strategy: s, StateCaching: true, MaxSchedules: Unlimited})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Complete {
					t.Fatalf("%s: incomplete", tc.name)
				}
				return res.Stats
			}
			keeper := dpor.StatefulDPORWithoutSleep(dpor.History())
			if _, ok := keeper.(dpor.StateKeeper); !ok {
				t.Fatal("stateful DPOR is not a StateKeeper")
			}
			got := run(keeper)
			want := run(hiddenKeeper{dpor.StatefulDPORWithoutSleep(dpor.History())})
			if got.States != want.States || got.Revisits != want.Revisits || got.Steps != want.Steps || got.Schedules != want.Schedules {
				t.Errorf("with the graph as the visited set: %d states, %d revisits, %d steps, %d schedules; with the engine's: %d, %d, %d, %d",
					got.States, got.Revisits, got.Steps, got.Schedules, want.States, want.Revisits, want.Steps, want.Schedules)
			}
			if got.States == 0 || got.Revisits == 0 {
				t.Errorf("%d states, %d revisits: the comparison says nothing", got.States, got.Revisits)
			}
			if got.Visited.MemBytes <= 0 || got.Visited.Spilled != 0 {
				t.Errorf("graph's visited figures: %+v, want its memory and nothing spilled", got.Visited)
			}
		})
	}
}
