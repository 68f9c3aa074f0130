package explorer_test

import (
	"slices"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/systems/register"
	"github.com/ravelmc/ravel/systems/systemstest"
)

// TestSnapshotIsolation: every schedule the stateful engine explores, replayed from the
// initial state with nothing shared, ends in the fingerprint and the history the stateful
// run reached. A snapshot that leaked between branches would show as a difference.
func TestSnapshotIsolation(t *testing.T) {
	for _, reflective := range []bool{false, true} {
		for _, sysName := range []string{"register", "register-buggy"} {
			name := sysName
			if reflective {
				name += "/reflective"
			}
			t.Run(name, func(t *testing.T) {
				sys, err := register.New(2, "2r1w")
				if sysName == "register-buggy" {
					sys, err = register.NewBuggy(3, "2r1w")
				}
				if err != nil {
					t.Fatal(err)
				}
				type end struct {
					ids    []uint64
					fp     uint64
					events []histories.Event
				}
				var ends []end
				res := mustRun(t, sys, explorer.Options{Reflective: reflective, MaxSchedules: explorer.Unlimited, OnSchedule: func(e *explorer.ScheduleEnd) {
					ids := make([]uint64, len(e.Steps))
					for i, s := range e.Steps {
						ids[i] = s.ID
					}
					ends = append(ends, end{ids: ids, fp: e.Fingerprint, events: append([]histories.Event(nil), e.Events...)})
				}})
				if int64(len(ends)) != res.Stats.Schedules {
					t.Fatalf("OnSchedule saw %d schedules, stats say %d", len(ends), res.Stats.Schedules)
				}
				for i, e := range ends {
					ex, err := explorer.Replay(sys, e.ids, reflective)
					if err != nil {
						t.Fatalf("schedule %d: %v", i+1, err)
					}
					if ex.Fingerprint != e.fp {
						t.Fatalf("schedule %d: replay ends in %016x, the stateful run in %016x", i+1, ex.Fingerprint, e.fp)
					}
					if len(ex.Events) != len(e.events) {
						t.Fatalf("schedule %d: replay has %d events, the stateful run %d", i+1, len(ex.Events), len(e.events))
					}
					for k := range ex.Events {
						if ex.Events[k] != e.events[k] {
							t.Fatalf("schedule %d: event %d differs: %+v vs %+v", i+1, k, ex.Events[k], e.events[k])
						}
					}
				}
			})
		}
	}
}

// TestFastPathsAgreeWithReflection: the Clone/HashState fast paths and the reflective
// fallbacks explore the same schedules and find the same histories — the same canonical
// histories and the same violations, not only as many — on the erroneous register's
// 2r1w (complete, with violations) and the first 20,000 schedules of its 2r2w.
func TestFastPathsAgreeWithReflection(t *testing.T) {
	violations := 0
	for _, harness := range []string{"2r1w", "2r2w"} {
		t.Run(harness, func(t *testing.T) {
			sys, err := register.NewBuggy(3, harness)
			if err != nil {
				t.Fatal(err)
			}
			fast := mustRun(t, sys, explorer.Options{MaxSchedules: 20_000})
			slow := mustRun(t, sys, explorer.Options{MaxSchedules: 20_000, Reflective: true})
			f, s := fast.Stats, slow.Stats
			if f.Schedules != s.Schedules || f.Steps != s.Steps || f.Unique != s.Unique || f.Canonical != s.Canonical || f.Nonlinearizable != s.Nonlinearizable {
				t.Errorf("fast paths: %d schedules, %d steps, %d/%d histories, %d NL; reflective: %d, %d, %d/%d, %d",
					f.Schedules, f.Steps, f.Unique, f.Canonical, f.Nonlinearizable, s.Schedules, s.Steps, s.Unique, s.Canonical, s.Nonlinearizable)
			}
			fa, fb := systemstest.Canonical(fast)
			sa, sb := systemstest.Canonical(slow)
			if len(fa) == 0 {
				t.Fatal("no canonical history: the comparison would show nothing")
			}
			if !slices.Equal(fa, sa) || !slices.Equal(fb, sb) {
				t.Errorf("fast paths and reflective fallbacks found different histories: %d/%d canonical, %d/%d violations", len(fa), len(sa), len(fb), len(sb))
			}
			violations += len(fb)
		})
	}
	if violations == 0 {
		t.Error("no violation found: the comparison of violations would show nothing")
	}
}
