package explorer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
)

// sameAsExhaustiveWithFaults checks that stateful DPOR (dpor with caching) on sys, which
// has fault budgets, completes and finds exactly the canonical histories, violations and
// final states of exhaustive search with caching.
func sameAsExhaustiveWithFaults(t *testing.T, sys model.System) (ex, dp *Result) {
	t.Helper()
	want, ex := finalStates(t, sys, dpor.Exhaustive(), Unlimited)
	got, dp := finalStates(t, sys, dpor.DPOR(dpor.History()), Unlimited)
	if !ex.Complete || !dp.Complete {
		t.Fatalf("complete: exhaustive %v, dpor %v", ex.Complete, dp.Complete)
	}
	if len(want) == 0 {
		t.Fatal("exhaustive search reached no final state")
	}
	sameFinals(t, want, got)
	if w, g := canonicalLines(t, sys, ex), canonicalLines(t, sys, dp); !slices.Equal(w, g) {
		t.Errorf("dpor with caching: %d canonical histories (%d violations); exhaustive search %d (%d)", len(g), countViolations(g), len(w), countViolations(w))
	}
	return ex, dp
}

// countViolations counts the violations among canonicalLines' lines.
func countViolations(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "violation ") {
			n++
		}
	}
	return n
}

// TestStatefulDPORWithFaults: with fault budgets of every kind, dpor with caching
// (stateful DPOR with the rules of dpor/statefulfaults.go) finds exactly the canonical
// histories and violations of exhaustive search with caching, and reaches exactly its
// final states, on shipped configurations (those built for faults among them, where the
// faults make the violation) and on random protocols.
func TestStatefulDPORWithFaults(t *testing.T) {
	for _, c := range []struct {
		name, sys, harness string
		faults             model.Faults
		timeouts           int
	}{
		{"register/2r1w+drop", "register", "2r1w", model.Faults{Drop: 1}, 0},
		{"register/2r1w+crash", "register", "2r1w", model.Faults{Crash: 1}, 0},
		{"register/2r1w+duplicate", "register", "2r1w", model.Faults{Duplicate: 1}, 0},
		{"register/2r1w+partition", "register", "2r1w", model.Faults{Partition: 1}, 0},
		{"register/2r1w+partition-hold", "register", "2r1w", model.Faults{Partition: 1, Hold: true}, 0},
		{"register-buggy/2r1w+timeout", "register-buggy", "2r1w", model.Faults{}, 1},
		{"register/2r1w+drop2", "register", "2r1w", model.Faults{Drop: 2}, 0},
		{"register-buggy/2r1w+drop", "register-buggy", "2r1w", model.Faults{Drop: 1}, 0},
		{"register-volatile/1r1w+crash", "register-volatile", "1r1w", model.Faults{Crash: 1}, 0},
		{"register-volatile/2r1w+crash", "register-volatile", "2r1w", model.Faults{Crash: 1}, 0},
		{"register-volatile/1r1w+crash-stop", "register-volatile", "1r1w", model.Faults{Crash: 1, CrashStop: true}, 0},
		{"register-idempotent/1r1w+duplicate", "register-idempotent", "1r1w", model.Faults{Duplicate: 1}, 0},
		{"adr/2r1w+drop", "adr", "2r1w", model.Faults{Drop: 1}, 0},
		{"paxos/2r1w+crash", "paxos", "2r1w", model.Faults{Crash: 1}, 0},
		{"abd/1w1r+drop", "abd", "1w1r", model.Faults{Drop: 1}, 0},
		{"abd/1w1r+crash+drop", "abd", "1w1r", model.Faults{Crash: 1, Drop: 1}, 0},
		{"abd-buggy/1w1r+partition", "abd-buggy", "1w1r", model.Faults{Partition: 1}, 0},
		{"gossip/rw+partition", "gossip", "rw", model.Faults{Partition: 1}, 0},
		{"gossip/writes+duplicate", "gossip", "writes", model.Faults{Duplicate: 1}, 0},
		{"leader/1rw+drop", "leader", "1rw", model.Faults{Drop: 1}, 0},
		{"chord/2r1w+crash", "chord", "2r1w", model.Faults{Crash: 1}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys := shippedWith(t, c.sys, c.harness, c.faults)
			if c.timeouts > 0 {
				sys.Harness.Retrying(c.timeouts)
			}
			ex, dp := sameAsExhaustiveWithFaults(t, sys)
			t.Logf("states: exhaustive %d, dpor %d (%.2f)", ex.Stats.States, dp.Stats.States, float64(dp.Stats.States)/float64(ex.Stats.States))
		})
	}
	compared := 0
	for seed := uint64(0); seed < 40; seed++ {
		sys := randsys.New(seed)
		// Faults multiply the states by tens: only the systems small without them.
		free, err := Run(t.Context(), sys, Options{Strategy: dpor.Exhaustive(), StateCaching: true, MaxSchedules: 2_000})
		if err != nil {
			t.Fatal(err)
		}
		if !free.Complete || free.Stats.States > 400 {
			continue
		}
		for _, f := range []model.Faults{{Drop: 1}, {Crash: 1}, {Duplicate: 1}, {Partition: 1}} {
			sys.Faults = f
			t.Run(fmt.Sprintf("%s/%+v", sys.Name, f), func(t *testing.T) {
				sameAsExhaustiveWithFaults(t, sys)
				compared++
			})
		}
	}
	if compared < 60 {
		t.Errorf("compared %d random configurations, want at least 60", compared)
	}
}
