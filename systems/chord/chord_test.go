package chord_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/chord"
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

func run(t *testing.T, sys model.System, opts explorer.Options) *explorer.Result {
	t.Helper()
	res, err := explorer.Run(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// canonical returns the hashes of the canonical histories a run found, and of those
// that are not linearizable, sorted.
func canonical(res *explorer.Result) (all, bad []uint64) {
	for _, c := range res.Canonical {
		h := c.History.Hash()
		all = append(all, h)
		if !c.Linearizable {
			bad = append(bad, h)
		}
	}
	slices.Sort(all)
	slices.Sort(bad)
	return all, bad
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
		{true, 3, "2r1w", "dpor·history", dp, 15_254, 31, 0},
		{false, 3, "2r1w", "dpor·history", dp, 13_586, 46, 16},
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
			res := run(t, sys, opts)
			if !res.Complete || res.Stats.Schedules != tt.schedules {
				t.Errorf("schedules = %d (complete %v), want %d, complete", res.Stats.Schedules, res.Complete, tt.schedules)
			}
			if res.Stats.Incomplete != 0 || res.Stats.Panics != 0 {
				t.Errorf("%d incomplete histories, %d panics; every operation must be answered", res.Stats.Incomplete, res.Stats.Panics)
			}
			all, bad := canonical(res)
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
	res := run(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
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
				opts := explorer.Options{Strategy: dpor.DPOR(dpor.History()), MaxSchedules: explorer.Unlimited}
				a, b := run(t, sys, opts), run(t, sys, opts)
				sa, sb := a.Stats, b.Stats
				sa.Explore, sa.Check, sa.Total, sa.ToFirst = 0, 0, 0, 0
				sb.Explore, sb.Check, sb.Total, sb.ToFirst = 0, 0, 0, 0
				if sa != sb {
					t.Errorf("statistics differ:\n%+v\n%+v", sa, sb)
				}
				if len(a.Canonical) != len(b.Canonical) {
					t.Fatalf("%d canonical histories, then %d", len(a.Canonical), len(b.Canonical))
				}
				for i := range a.Canonical {
					if !a.Canonical[i].History.Equal(&b.Canonical[i].History) || a.Canonical[i].Linearizable != b.Canonical[i].Linearizable {
						t.Fatalf("canonical history %d differs", i)
					}
				}
			})
		}
	}
}

// TestSnapshotIsolation: every schedule DPOR explores, replayed from the initial state,
// ends in the fingerprint and the history the stateful run reached — the Clone methods
// share nothing between branches.
func TestSnapshotIsolation(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		sys := build(t, fixed, 2, "2r1w")
		type end struct {
			ids    []uint64
			fp     uint64
			events []histories.Event
		}
		var ends []end
		run(t, sys, explorer.Options{Strategy: dpor.DPOR(dpor.History()), MaxSchedules: explorer.Unlimited, OnSchedule: func(e *explorer.ScheduleEnd) {
			ids := make([]uint64, len(e.Steps))
			for i, s := range e.Steps {
				ids[i] = s.ID
			}
			ends = append(ends, end{ids, e.Fingerprint, slices.Clone(e.Events)})
		}})
		for i, e := range ends {
			ex, err := explorer.Replay(sys, e.ids, false)
			if err != nil {
				t.Fatalf("%s schedule %d: %v", sys.Name, i+1, err)
			}
			if ex.Fingerprint != e.fp || !slices.Equal(ex.Events, e.events) {
				t.Fatalf("%s schedule %d: the replay ends elsewhere than the stateful run", sys.Name, i+1)
			}
		}
	}
}

// TestFastPathsAgreeWithReflection: with state caching, whose pruning depends on every
// field being fingerprinted, the Clone/HashState fast paths and the reflective fallbacks
// explore as much and find the same canonical histories.
func TestFastPathsAgreeWithReflection(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		sys := build(t, fixed, 2, "2r1w")
		opts := explorer.Options{StateCaching: true, MaxSchedules: explorer.Unlimited}
		fast := run(t, sys, opts)
		opts.Reflective = true
		slow := run(t, sys, opts)
		fa, fb := canonical(fast)
		sa, sb := canonical(slow)
		if fast.Stats.Schedules != slow.Stats.Schedules || fast.Stats.Steps != slow.Stats.Steps || !slices.Equal(fa, sa) || !slices.Equal(fb, sb) {
			t.Errorf("%s: fast paths %d schedules, %d steps, %d histories; reflective %d, %d, %d",
				sys.Name, fast.Stats.Schedules, fast.Stats.Steps, len(fa), slow.Stats.Schedules, slow.Stats.Steps, len(sa))
		}
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
