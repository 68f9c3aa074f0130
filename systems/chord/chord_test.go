package chord_test

import (
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/chord"
	"github.com/ravelmc/ravel/systems/systemstest"
)

func build(t *testing.T, fixed bool, n int, harness string) model.System {
	t.Helper()
	newSys := chord.New
	if fixed {
		newSys = chord.NewFixed
	}
	sys, err := newSys(n, harness)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestRing: the harness's keys and nodes sit where the package documentation says, so
// that k1 moves to the joining n1 and k2 stays with n0.
func TestRing(t *testing.T) {
	for name, want := range map[string]int{"k1": 193, "k2": 8, "n0": 147, "n1": 0, "n2": 185} {
		if got := chord.Position(name); got != want {
			t.Errorf("Position(%q) = %d, want %d", name, got, want)
		}
	}
}

// TestSearch: every search of the table completes with the schedule count, canonical
// histories and violations given. Exhaustive search (plain, or with state caching) and
// DPOR with the history relation (sound for linearizability) agree on the canonical
// histories and on the violations. Plain exhaustive search of 2r2w explores 644,720
// schedules (chord-fixed) and 331,280 (chord), in 2–5 s; it is left to the command line.
func TestSearch(t *testing.T) {
	ex, cached, dp := explorer.Options{Strategy: dpor.Exhaustive()}, explorer.Options{Strategy: dpor.Exhaustive(), StateCaching: true}, explorer.Options{Strategy: dpor.DPOR(dpor.History())}
	tests := []struct {
		fixed      bool
		nodes      int
		harness    string
		name       string
		opts       explorer.Options
		schedules  int64
		histories  int // canonical
		violations int // canonical
	}{
		{true, 2, "2r1w", "exhaustive", ex, 5_256, 33, 0},
		{true, 2, "2r1w", "exhaustive with state caching", cached, 102, 33, 0},
		{true, 2, "2r1w", "dpor·history", dp, 1_080, 33, 0},
		{false, 2, "2r1w", "exhaustive", ex, 11_544, 40, 10},
		{false, 2, "2r1w", "exhaustive with state caching", cached, 74, 40, 10},
		{false, 2, "2r1w", "dpor·history", dp, 1_688, 40, 10},
		{true, 2, "2r2w", "exhaustive with state caching", cached, 2_146, 307, 0},
		{true, 2, "2r2w", "dpor·history", dp, 45_164, 307, 0},
		{false, 2, "2r2w", "exhaustive with state caching", cached, 1_809, 339, 51},
		{false, 2, "2r2w", "dpor·history", dp, 36_820, 339, 51},
		// Three nodes: n2 joins through n1, its FindSuccessor travels on to n0, and n0
		// Notifies n1, n2's successor.
		{true, 3, "2r1w", "exhaustive with state caching", cached, 97, 31, 0},
		{true, 3, "2r1w", "dpor·history", dp, 15_254, 31, 0},
		{false, 3, "2r1w", "exhaustive with state caching", cached, 101, 46, 16},
		{false, 3, "2r1w", "dpor·history", dp, 14_600, 46, 16},
	}
	type config struct {
		fixed   bool
		nodes   int
		harness string
	}
	seen := map[config][2][]uint64{}
	for _, tt := range tests {
		sys := build(t, tt.fixed, tt.nodes, tt.harness)
		t.Run(sys.Name+" "+tt.harness+" "+string(rune('0'+tt.nodes))+" nodes "+tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.MaxSchedules = explorer.Unlimited
			res := systemstest.Run(t, sys, opts)
			if !res.Complete || res.Stats.Schedules != tt.schedules {
				t.Errorf("schedules = %d (complete %v), want %d, complete", res.Stats.Schedules, res.Complete, tt.schedules)
			}
			if res.Stats.Incomplete != 0 || res.Stats.Panics != 0 {
				t.Errorf("%d incomplete histories, %d panics; every operation must be answered", res.Stats.Incomplete, res.Stats.Panics)
			}
			all, bad := systemstest.Canonical(res)
			if len(all) != tt.histories || len(bad) != tt.violations {
				t.Errorf("%d canonical histories, %d violations; want %d, %d", len(all), len(bad), tt.histories, tt.violations)
			}
			if (res.First != nil) != (tt.violations > 0) {
				t.Errorf("first violation %+v, want one: %v", res.First, tt.violations > 0)
			}
			if res.First != nil && (res.First.Kind != "nonlinearizable" || !res.First.Replayed) {
				t.Errorf("first finding is a %s (replayed %v), want a non-linearizable history that replays", res.First.Kind, res.First.Replayed)
			}
			c := config{tt.fixed, tt.nodes, tt.harness}
			if prev, ok := seen[c]; !ok {
				seen[c] = [2][]uint64{all, bad}
			} else if !slices.Equal(prev[0], all) || !slices.Equal(prev[1], bad) {
				t.Errorf("canonical histories or violations differ from the other strategy's")
			}
		})
	}
}

// TestStaleRead: the first violation exhaustive search finds on chord 2r1w is the stale
// read of the paper's Figure 7 — a Get of k1 that begins after the Put of k1 completed
// and returns "", answered by n1 before its join completed — and its schedule is the
// counterpart of the paper's Listing 1.
func TestStaleRead(t *testing.T) {
	sys := build(t, false, 2, "2r1w")
	res := systemstest.Run(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
	v := res.First
	if v == nil {
		t.Fatal("no violation found")
	}
	t.Logf("the stale read (cf. DS2, Figure 7 and Listing 1):\n%s%s", histories.Timeline(&sys, v.Events), explorer.DescribeSchedule(&sys, v.Steps))

	ops := histories.Operations(sys.Harness, v.Events)
	var stale *histories.Operation[any, any]
	for i := range ops {
		w := ops[i]
		if w.Open || w.Input.(specs.KVInput) != specs.Put("k1", "1") {
			continue
		}
		for j := range ops {
			r := ops[j]
			if !r.Open && r.Input.(specs.KVInput) == specs.Get("k1") && r.Output.(specs.KVOutput).Value == "" && w.Return < r.Call {
				stale = &ops[j]
			}
		}
	}
	if stale == nil {
		t.Fatal("the violation has no Get(k1) returning \"\" after Put(k1, \"1\") completed")
	}
	// The stale Get was delivered to n1 and answered before n1 had both halves of its join.
	joined, asked := -1, -1
	halves := 0
	for i, d := range v.Steps {
		switch m := d.Msg.(type) {
		case chord.SuccessorFound, chord.UpdatePredecessor:
			if d.To == 1 {
				if halves++; halves == 2 {
					joined = i
				}
			}
		case chord.Req:
			if c, _ := m.ID.Client.Client(); c == stale.Client {
				asked = i
			}
		}
	}
	if asked < 0 || v.Steps[asked].To != 1 {
		t.Fatalf("the stale Get was not asked of n1")
	}
	if joined >= 0 && joined < asked {
		t.Errorf("n1 had joined (step %d) before it was asked (step %d)", joined+1, asked+1)
	}
}

// TestDeterministic: two runs give the same statistics and the same canonical histories,
// in the same order.
func TestDeterministic(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		for _, harness := range chord.HarnessNames {
			sys := build(t, fixed, 2, harness)
			t.Run(sys.Name+" "+harness, func(t *testing.T) {
				systemstest.Deterministic(t, sys, explorer.Options{Strategy: dpor.DPOR(dpor.History()), MaxSchedules: explorer.Unlimited})
			})
		}
	}
}

// TestSnapshotIsolation: every schedule DPOR explores, replayed from the initial state,
// ends where the stateful run did — the Clone methods share nothing between branches.
func TestSnapshotIsolation(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		systemstest.SnapshotIsolation(t, build(t, fixed, 2, "2r1w"))
	}
}

// TestFastPathsAgreeWithReflection: with state caching, the Clone/HashState fast paths and
// the reflective fallbacks explore as much and find the same canonical histories.
func TestFastPathsAgreeWithReflection(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		systemstest.FastPathsAgree(t, build(t, fixed, 2, "2r1w"))
	}
}

func TestBadParameters(t *testing.T) {
	if _, err := chord.New(0, "2r1w"); err == nil {
		t.Errorf("0 nodes accepted")
	}
	if _, err := chord.NewFixed(2, "3r3w"); err == nil {
		t.Errorf("unknown harness accepted")
	}
}

// TestFixedSurvivesDuplication: a duplicated FindSuccessor does not re-run the join, so
// chord-fixed stays clean with a duplication budget, search complete (before the fix a
// second copy made n0 Notify n1 about itself, and n1 moved k1 out of its own store).
func TestFixedSurvivesDuplication(t *testing.T) {
	for _, harness := range chord.HarnessNames {
		sys := build(t, true, 2, harness)
		sys.Faults = model.Faults{Duplicate: 1}
		res := systemstest.Run(t, sys, explorer.Options{StateCaching: true, MaxSchedules: explorer.Unlimited})
		if res.First != nil || !res.Complete {
			t.Errorf("%s --duplicate 1: violation %v, complete %v; want clean and complete", harness, res.First != nil, res.Complete)
		}
	}
}
