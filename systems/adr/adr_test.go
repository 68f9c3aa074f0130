package adr_test

import (
	"os"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/adr"
	"github.com/ravelmc/ravel/systems/systemstest"
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
			res := systemstest.Run(t, sys, opts)
			if !res.Complete || res.Stats.Schedules != tt.schedules {
				t.Errorf("schedules = %d (complete %v), want %d, complete", res.Stats.Schedules, res.Complete, tt.schedules)
			}
			if res.First != nil {
				t.Fatalf("violation: %s\n%s%s", res.First.Kind, histories.Timeline(&sys, res.First.Events), explorer.DescribeSchedule(&sys, res.First.Steps))
			}
			if retried == 0 {
				t.Errorf("no read completed after a retry: a disagreeing read must retry and finish (DS2's inverted condition)")
			}
			all, _ := systemstest.Canonical(res)
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
			res := systemstest.Run(t, sys, explorer.Options{Strategy: tt.strategy, MaxSchedules: explorer.Unlimited})
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
			_, bad := systemstest.Canonical(res)
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
			sys := build(t, buggy, 2, adr.DefaultRetries, harness)
			t.Run(sys.Name+" "+harness, func(t *testing.T) {
				systemstest.Deterministic(t, sys, explorer.Options{Strategy: dpor.DPOR(dpor.History()), MaxSchedules: 20_000})
			})
		}
	}
}

// TestSnapshotIsolation: every schedule DPOR explores, replayed from the initial state,
// ends where the stateful run did — the Clone methods share nothing between branches.
func TestSnapshotIsolation(t *testing.T) {
	for _, buggy := range []bool{false, true} {
		systemstest.SnapshotIsolation(t, build(t, buggy, 2, adr.DefaultRetries, "2r1w"))
	}
}

// TestFastPathsAgreeWithReflection: with state caching, the Clone/HashState fast paths and
// the reflective fallbacks explore as much and find the same canonical histories.
func TestFastPathsAgreeWithReflection(t *testing.T) {
	for _, buggy := range []bool{false, true} {
		systemstest.FastPathsAgree(t, build(t, buggy, 2, adr.DefaultRetries, "2r1w"))
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

// TestStampString: a stamp names its counter and coordinator; the initial value's, which
// no coordinator made, says so instead of naming n0.
func TestStampString(t *testing.T) {
	for _, tc := range []struct {
		stamp adr.Stamp
		want  string
	}{
		{adr.Stamp{}, "initial"},
		{adr.Stamp{N: 1, Node: 0}, "1.n0"},
		{adr.Stamp{N: 2, Node: 1}, "2.n1"},
	} {
		if got := tc.stamp.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.stamp, got, tc.want)
		}
	}
}
