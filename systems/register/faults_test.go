package register_test

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/register"
)

// TestFaultSensitiveRegisters: register-volatile is clean without faults (search
// complete), and a crash budget of 1 exposes the lost write to exhaustive search, DPOR and
// the random sampler; its durable twin (the correct register) stays clean with the same
// budget, search complete. Likewise the correct register with 3 agents needs one
// duplication to fail, and its idempotent twin survives it. The minimized counterexample
// holds the fault.
func TestFaultSensitiveRegisters(t *testing.T) {
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
			name   string
			build  func(int, string) (model.System, error)
			faults model.Faults
			bad    bool
			needs  dpor.EventKind // a fault the minimized counterexample must hold
		}{
			{"volatile, no faults", register.NewVolatile, model.Faults{}, false, 0},
			{"volatile, crash 1", register.NewVolatile, model.Faults{Crash: 1}, true, dpor.Crash},
			{"durable twin, crash 1", register.New, model.Faults{Crash: 1}, false, 0},
			{"register, no faults", register.New, model.Faults{}, false, 0},
			{"register, duplicate 1", register.New, model.Faults{Duplicate: 1}, true, dpor.Duplicate},
			{"idempotent twin, duplicate 1", register.NewIdempotent, model.Faults{Duplicate: 1}, false, 0},
		} {
			t.Run(s.name+"/"+tt.name, func(t *testing.T) {
				if s.name == "dpor" && tt.faults.Duplicate > 0 && testing.Short() {
					t.Skip("about 165,000 schedules; skipped with -short")
				}
				sys, err := tt.build(3, "1r1w")
				if err != nil {
					t.Fatal(err)
				}
				sys.Faults = tt.faults
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
				held := false
				for _, st := range v.Steps {
					held = held || st.Kind == tt.needs
				}
				if !held || v.OriginalSteps < len(v.Steps) {
					t.Errorf("minimized schedule of %d steps (from %d) without a %s", len(v.Steps), v.OriginalSteps, tt.needs)
				}
			})
		}
	}
}

// TestTimeoutsAreDuplicates: a client's retry brings its request to the leader a second
// time, and the correct register with 3 agents counts both rounds of replies (as it counts
// a duplicated reply), so --timeouts 1 breaks it; register-idempotent stays clean, search
// complete (docs/faults.md, "Which faults the correct systems tolerate").
func TestTimeoutsAreDuplicates(t *testing.T) {
	for _, tt := range []struct {
		name  string
		build func(int, string) (model.System, error)
		bad   bool
	}{
		{"register", register.New, true},
		{"register-volatile", register.NewVolatile, true},
		{"register-idempotent", register.NewIdempotent, false},
	} {
		sys, err := tt.build(3, "1r1w")
		if err != nil {
			t.Fatal(err)
		}
		sys.Harness.Retrying(1)
		res, err := explorer.Run(context.Background(), sys, explorer.Options{MaxSchedules: explorer.Unlimited, StateCaching: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.First != nil; got != tt.bad || !res.Complete {
			t.Errorf("%s --timeouts 1: violation %v (want %v), complete %v", tt.name, got, tt.bad, res.Complete)
		}
	}
}

// TestIdempotentSetsHoldEveryAgent: register-idempotent's sets of agents are 64 bits
// wide, and it accepts every number of agents a system may have.
func TestIdempotentSetsHoldEveryAgent(t *testing.T) {
	if explorer.MaxActors > 64 {
		t.Fatalf("explorer.MaxActors %d no longer fits register-idempotent's 64-bit sets", explorer.MaxActors)
	}
	if _, err := register.NewIdempotent(explorer.MaxActors, "1r1w"); err != nil {
		t.Error(err)
	}
}

// TestBuggyIgnoresVersions: the erroneous register's third deviation, replicas that
// take replications in arrival order, is a flag of its own, set by NewBuggy only.
func TestBuggyIgnoresVersions(t *testing.T) {
	for _, tt := range []struct {
		build func(int, string) (model.System, error)
		want  bool
	}{{register.NewBuggy, true}, {register.New, false}, {register.NewVolatile, false}, {register.NewIdempotent, false}} {
		sys, err := tt.build(3, "2r1w")
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range sys.Actors {
			if got := a.(*register.Replica).Variant.IgnoreVersions; got != tt.want {
				t.Errorf("%s: IgnoreVersions %v, want %v", sys.Name, got, tt.want)
			}
		}
	}
}
