package adr_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/adr"
)

func build(t *testing.T, buggy bool, n, retries int, harness string) model.System {
	t.Helper()
	newSys := adr.New
	if buggy {
		newSys = adr.NewBuggy
	}
	sys, err := newSys(n, retries, harness)
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

// TestNoViolation: the register has no violation. On 2r1w, plain exhaustive search
// explores every schedule with one retry (18,113); with the default three retries it
// explores 2,550,320 schedules in 10–16 s on the project's machine, so that row runs with
// RAVEL_LONG=1, and the default configuration is covered in CI by exhaustive search with
// state caching (sound for exhaustive search) and by DPOR with the history relation
// (sound for linearizability). All of them find the same 44 canonical histories. On
// 2r2w, exhaustive search with state caching covers the 793 canonical histories in about
// 2 s (DPOR needs 43,048,200 schedules, about 11 minutes, to find the same 793).
func TestNoViolation(t *testing.T) {
	tests := []struct {
		name      string
		harness   string
		retries   int
		opts      explorer.Options
		schedules int64
		histories int // canonical
		long      bool
	}{
		{"exhaustive, 1 retry", "2r1w", 1, explorer.Options{Strategy: dpor.Exhaustive()}, 18_113, 44, false},
		{"exhaustive with state caching, 3 retries", "2r1w", 3, explorer.Options{Strategy: dpor.Exhaustive(), StateCaching: true}, 201, 44, false},
		{"dpor·history, 3 retries", "2r1w", 3, explorer.Options{Strategy: dpor.DPOR(dpor.History())}, 46_445, 44, false},
		{"exhaustive, 3 retries", "2r1w", 3, explorer.Options{Strategy: dpor.Exhaustive()}, 2_550_320, 44, true},
		{"exhaustive with state caching, 3 retries", "2r2w", 3, explorer.Options{Strategy: dpor.Exhaustive(), StateCaching: true}, 8_700, 793, false},
	}
	want := map[string][]uint64{}
	for _, tt := range tests {
		t.Run(tt.harness+" "+tt.name, func(t *testing.T) {
			if tt.long && os.Getenv("RAVEL_LONG") == "" {
				t.Skip("2.5 million schedules: set RAVEL_LONG=1")
			}
			sys := build(t, false, 2, tt.retries, tt.harness)
			retried := 0 // complete schedules in which a read ran a second round
			opts := tt.opts
			opts.MaxSchedules = explorer.Unlimited
			opts.OnSchedule = func(e *explorer.ScheduleEnd) {
				if !histories.Complete(sys.Harness, e.Events) {
					return
				}
				for _, s := range e.Steps {
					if q, ok := s.Msg.(adr.Query); ok && q.Round > 0 {
						retried++
						return
					}
				}
			}
			res := run(t, sys, opts)
			if !res.Complete || res.Stats.Schedules != tt.schedules {
				t.Errorf("schedules = %d (complete %v), want %d, complete", res.Stats.Schedules, res.Complete, tt.schedules)
			}
			if res.First != nil {
				t.Fatalf("violation: %s\n%s%s", res.First.Kind, histories.Timeline(&sys, res.First.Events), explorer.DescribeSchedule(&sys, res.First.Steps))
			}
			if retried == 0 {
				t.Errorf("no read completed after a retry: a disagreeing read must retry and finish (DS2's inverted condition)")
			}
			all, _ := canonical(res)
			if len(all) != tt.histories {
				t.Errorf("%d canonical histories, want %d", len(all), tt.histories)
			}
			if prev, ok := want[tt.harness]; !ok {
				want[tt.harness] = all
			} else if !slices.Equal(all, prev) {
				t.Errorf("canonical histories differ from the first row's")
			}
		})
	}
}

// TestBugFound: adr-buggy's stale read is caught on 2r1w by exhaustive search (1,680
// schedules, DS2's EX figure for ADR 2r1w, Table A6) and by DPOR with the history
// relation, which find the same violation; it is a new value read, then the old one.
// (2r2w cannot show it: both its reads go to n1, whose own copy only moves forward — its
// 624 canonical histories are all linearizable.)
func TestBugFound(t *testing.T) {
	tests := []struct {
		name      string
		strategy  dpor.Strategy
		schedules int64
	}{
		{"exhaustive", dpor.Exhaustive(), 1_680},
		{"dpor·history", dpor.DPOR(dpor.History()), 298},
	}
	var want []uint64
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := build(t, true, 2, adr.DefaultRetries, "2r1w")
			res := run(t, sys, explorer.Options{Strategy: tt.strategy, MaxSchedules: explorer.Unlimited})
			if !res.Complete || res.Stats.Schedules != tt.schedules {
				t.Errorf("schedules = %d (complete %v), want %d, complete", res.Stats.Schedules, res.Complete, tt.schedules)
			}
			v := res.First
			if v == nil || v.Kind != "nonlinearizable" || !v.Replayed {
				t.Fatalf("first finding = %+v, want a non-linearizable history that replays", v)
			}
			t.Logf("\n%s%s", histories.Timeline(&sys, v.Events), explorer.DescribeSchedule(&sys, v.Steps))
			if !newThenOld(sys.Harness, v.Events) {
				t.Errorf("the violation is not a read of 1 followed by a read of 0")
			}
			_, bad := canonical(res)
			if want == nil {
				want = bad
			} else if !slices.Equal(bad, want) {
				t.Errorf("violations %x, want %x (exhaustive search's)", bad, want)
			}
		})
	}
}

// newThenOld reports whether a read returned 1 and a read invoked after it returned
// returned 0.
func newThenOld(h *model.Harness, events []histories.Event) bool {
	for _, a := range histories.Operations(h, events) {
		if a.Open || a.Input.(specs.RegisterInput).Write || a.Output.(specs.RegisterOutput).Value != 1 {
			continue
		}
		for _, b := range histories.Operations(h, events) {
			if !b.Open && !b.Input.(specs.RegisterInput).Write && b.Output.(specs.RegisterOutput).Value == 0 && a.Return < b.Call {
				return true
			}
		}
	}
	return false
}

// TestDeterministic: two runs give the same statistics and the same canonical histories,
// in the same order.
func TestDeterministic(t *testing.T) {
	for _, buggy := range []bool{false, true} {
		for _, harness := range adr.HarnessNames {
			name := harness
			if buggy {
				name += "/buggy"
			}
			t.Run(name, func(t *testing.T) {
				sys := build(t, buggy, 2, adr.DefaultRetries, harness)
				opts := explorer.Options{Strategy: dpor.DPOR(dpor.History()), MaxSchedules: 20_000}
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
	for _, buggy := range []bool{false, true} {
		sys := build(t, buggy, 2, adr.DefaultRetries, "2r1w")
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
// visit as many states and find the same canonical histories.
func TestFastPathsAgreeWithReflection(t *testing.T) {
	for _, buggy := range []bool{false, true} {
		sys := build(t, buggy, 2, adr.DefaultRetries, "2r1w")
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
	if _, err := adr.New(0, 3, "2r1w"); err == nil {
		t.Errorf("0 agents accepted")
	}
	if _, err := adr.New(2, -1, "2r1w"); err == nil {
		t.Errorf("a negative retry limit accepted")
	}
	if _, err := adr.NewBuggy(2, 3, "3r3w"); err == nil {
		t.Errorf("unknown harness accepted")
	}
}
