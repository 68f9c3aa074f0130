package register_test

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/register"
)

// TestVolatileNeedsACrash: register-volatile is clean without faults (search complete),
// and a crash budget of 1 exposes the lost write to exhaustive search, DPOR and the
// random sampler; its durable twin (the correct register) stays clean with the same
// budget, search complete. The minimized counterexample holds the crash and the restart.
func TestVolatileNeedsACrash(t *testing.T) {
	strategies := []struct {
		name string
		opts explorer.Options
	}{
		// Exhaustive with state caching: it explores what exhaustive search explores
		// (the caching oracle), in hundreds of schedules rather than 680,860.
		{"exhaustive", explorer.Options{MaxSchedules: explorer.Unlimited, StateCaching: true}},
		{"dpor", explorer.Options{Strategy: dpor.DPOR(dpor.History()), MaxSchedules: explorer.Unlimited}},
		{"random", explorer.Options{Strategy: dpor.Random(1), MaxSchedules: 20_000, FaultProbability: 0.1}},
	}
	for _, s := range strategies {
		for _, tt := range []struct {
			name  string
			build func(int, string) (model.System, error)
			crash int
			bad   bool
		}{
			{"volatile, no faults", register.NewVolatile, 0, false},
			{"volatile, crash 1", register.NewVolatile, 1, true},
			{"durable twin, crash 1", register.New, 1, false},
		} {
			t.Run(s.name+"/"+tt.name, func(t *testing.T) {
				sys, err := tt.build(3, "1r1w")
				if err != nil {
					t.Fatal(err)
				}
				sys.Faults.Crash = tt.crash
				opts := s.opts
				opts.Minimize = true
				res, err := explorer.Run(context.Background(), sys, opts)
				if err != nil {
					t.Fatal(err)
				}
				if got := res.First != nil; got != tt.bad {
					t.Fatalf("violation = %v, want %v", got, tt.bad)
				}
				if !tt.bad && s.name != "random" && !res.Complete {
					t.Errorf("search not complete")
				}
				if !tt.bad {
					return
				}
				v := res.First
				var crash, restart bool
				for _, st := range v.Steps {
					crash = crash || st.Kind == dpor.Crash
					restart = restart || st.Kind == dpor.Restart
				}
				if !crash || !restart || v.OriginalSteps < len(v.Steps) {
					t.Errorf("minimized schedule of %d steps (from %d): crash %v, restart %v", len(v.Steps), v.OriginalSteps, crash, restart)
				}
			})
		}
	}
}
