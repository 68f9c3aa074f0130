package explorer

import (
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/systems"
)

// TestDPORReachesEveryFinalStatePastFailures: on the sampler micro-benchmark, whose actor
// N fails (ctx.Fail) when the bug's order happens, the DPOR family without caching reaches
// every final state that exhaustive search with caching reaches, and no other: the races
// of a failing step are reversed like any step's (dpor.FailureAware). Without Failed,
// optimal dpor reaches 32 of bug2-L4's 36 (source-set DPOR reaches all 36 here either way).
func TestDPORReachesEveryFinalStatePastFailures(t *testing.T) {
	for _, harness := range []string{"bug1-L2", "bug1-L3", "bug2-L4"} {
		entry, err := systems.Lookup("microbench")
		if err != nil {
			t.Fatal(err)
		}
		sys, err := entry.New(systems.Config{Harness: harness, Retries: -1})
		if err != nil {
			t.Fatal(err)
		}
		want, exr := finalStates(t, sys, dpor.Exhaustive(), Unlimited)
		if !exr.Complete || exr.Stats.Panics == 0 {
			t.Fatalf("%s: exhaustive search with caching: complete %v, %d failing schedules", harness, exr.Complete, exr.Stats.Panics)
		}
		for _, name := range []string{"dpor", "dpor-source"} {
			t.Run(harness+"/"+name, func(t *testing.T) {
				strat, err := dpor.New(name, dpor.Config{})
				if err != nil {
					t.Fatal(err)
				}
				got := map[uint64]bool{}
				endHook = func(e *engine, s *state, cut bool) {
					if d := len(e.nodes) - 1; !cut && len(e.nodes[d].Enabled) == 0 {
						got[traceKey(s, e.log[:s.events])] = true
					}
				}
				defer func() { endHook = nil }()
				res, err := Run(t.Context(), sys, Options{Strategy: strat, MaxSchedules: Unlimited})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Complete {
					t.Fatal("did not complete")
				}
				missing := 0
				for k := range want {
					if !got[k] {
						missing++
					}
				}
				if missing > 0 {
					t.Errorf("reached %d of exhaustive search's %d final states", len(want)-missing, len(want))
				}
				for k := range got {
					if !want[k] {
						t.Errorf("reached final state %#x, which exhaustive search did not", k)
					}
				}
			})
		}
	}
}
