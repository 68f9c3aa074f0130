package explorer_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/register"
)

// budgetMode is a strategy, with or without state caching, whose checkpoints a budget
// may stop and a larger one resume.
type budgetMode struct {
	name      string
	strat     func() dpor.Strategy
	caching   bool
	canonical bool
	stateless bool
}

func budgetModes(t *testing.T) []budgetMode {
	named := func(name string) func() dpor.Strategy {
		return func() dpor.Strategy {
			s, err := dpor.New(name, dpor.Config{Delays: 2})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	return []budgetMode{
		{"exhaustive", dpor.Exhaustive, false, false, false},
		{"exhaustive-stateless", dpor.Exhaustive, false, false, true},
		{"exhaustive-cached", dpor.Exhaustive, true, false, false},
		{"exhaustive-canonical", dpor.Exhaustive, true, true, false},
		{"delay-bounded", named("delay-bounded"), false, false, false},
		{"delay-bounded-cached", named("delay-bounded"), true, false, false},
		{"dpor-source", named("dpor-source"), false, false, false},
		{"transdpor", named("transdpor"), false, false, false},
		{"ired", named("ired"), false, false, false},
		{"liviola", named("liviola"), false, false, false},
		// Stateful DPOR: its graph of the visited states is saved when a budget stops it.
		{"dpor-cached", named("dpor"), true, false, false},
	}
}

// TestCheckpointResumeRaisesBudget is the oracle for raising a budget on resume: a search
// stopped by its budget at a third of its schedules (or states), with a checkpoint, and
// resumed with two thirds, then with no limit, ends each time exactly as an uninterrupted
// run given that budget from the start — the same statistics, complete flag, canonical
// histories in the order found and first violation — for every strategy that
// checkpoints, with and without state caching, and stateless exhaustive search.
func TestCheckpointResumeRaisesBudget(t *testing.T) {
	systems := []struct {
		name string
		// cachedOnly: a cyclic system; only the cached modes complete on it.
		cachedOnly bool
		sys        func() (model.System, error)
	}{
		{"register-buggy/2r1w", false, func() (model.System, error) { return register.NewBuggy(3, "2r1w") }},
		{"register/2r1w", false, func() (model.System, error) { return register.New(2, "2r1w") }},
		{"random-3", false, func() (model.System, error) { return randsys.New(3), nil }},
		{"random-cyclic-7", true, func() (model.System, error) { return randsys.NewCyclic(7), nil }},
		{"register-buggy/2r1w+drop", false, func() (model.System, error) {
			return withFaults(register.NewBuggy(3, "2r1w"))(model.Faults{Drop: 1})
		}},
	}
	for _, sc := range systems {
		for _, m := range budgetModes(t) {
			if sc.cachedOnly && (!m.caching || strings.HasPrefix(m.name, "delay")) {
				continue // only the cached modes complete on it; delay-bounded runs 2 schedules
			}
			if sc.name == "random-3" && !m.caching && m.name != "dpor-source" && m.name != "delay-bounded" {
				continue // the largest system: the others run on the registers, to keep the test short
			}
			if m.name == "dpor-cached" && strings.Contains(sc.name, "+") {
				continue // stateful DPOR refuses fault events
			}
			// The schedule budget, and with caching the state budget too.
			budgets := []string{"schedules"}
			if m.caching {
				budgets = append(budgets, "states")
			}
			for _, budget := range budgets {
				t.Run(sc.name+"/"+m.name+"/"+budget, func(t *testing.T) {
					sys, err := sc.sys()
					if err != nil {
						t.Fatal(err)
					}
					run := func(limit int64, ck explorer.Checkpointing) *explorer.Result {
						t.Helper()
						o := explorer.Options{Strategy: m.strat(), MaxSchedules: explorer.Unlimited, StateCaching: m.caching,
							CanonicalStates: m.canonical, Stateless: m.stateless, VisitedDir: t.TempDir(), Checkpoint: ck}
						if budget == "schedules" {
							o.MaxSchedules = limit
						} else {
							o.MaxStates = limit
						}
						res, err := explorer.Run(context.Background(), sys, o)
						if err != nil {
							t.Fatal(err)
						}
						return res
					}
					unlimited, total := int64(explorer.Unlimited), func(r *explorer.Result) int64 { return r.Stats.Schedules }
					if budget == "states" {
						unlimited, total = 0, func(r *explorer.Result) int64 { return r.Stats.States }
					}
					full := run(unlimited, explorer.Checkpointing{})
					if total(full) < 3 {
						t.Fatalf("%d %s in all: too few to stop the search twice", total(full), budget)
					}
					ck := explorer.Checkpointing{Dir: filepath.Join(t.TempDir(), "ckpt"), Identity: []string{"system=" + sc.name, "mode=" + m.name}}
					for round, limit := range []int64{total(full) / 3, total(full) * 2 / 3, unlimited} {
						want := full
						if limit != unlimited {
							want = run(limit, explorer.Checkpointing{})
							if want.Complete {
								t.Fatalf("round %d: the uninterrupted run with budget %d completes: the test stops nothing", round, limit)
							}
						}
						ck.Resume = round > 0
						got := run(limit, ck)
						if round > 0 && (got.Resumed == nil || got.Resumed.Spent || got.Resumed.Ended) {
							t.Errorf("round %d: Resumed = %+v, want a resume that went on", round, got.Resumed)
						}
						sameAsUninterrupted(t, sys, got, want)
					}
				})
			}
		}
	}
}

// TestCheckpointResumeSpentBudget: a checkpoint stopped by its budget, resumed with a
// budget no larger than what it spent, stops at once with the checkpoint's result and
// says so (Resumed.Spent), leaving the checkpoint as it was: a larger budget then goes on
// to the uninterrupted run's end. A checkpoint of a search that ended stays ended.
func TestCheckpointResumeSpentBudget(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	run := func(limit int64, ck explorer.Checkpointing) *explorer.Result {
		t.Helper()
		res, err := explorer.Run(context.Background(), sys, explorer.Options{MaxSchedules: limit, Checkpoint: ck})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	full := run(explorer.Unlimited, explorer.Checkpointing{})
	half := full.Stats.Schedules / 2
	ck := explorer.Checkpointing{Dir: filepath.Join(t.TempDir(), "ckpt"), Identity: []string{"system=register-buggy"}}
	stopped := run(half, ck)
	if stopped.Complete || stopped.Resumed != nil {
		t.Fatalf("the first run: complete %v, resumed %+v; want a search the budget stopped", stopped.Complete, stopped.Resumed)
	}
	ck.Resume = true
	for _, tc := range []struct {
		name  string
		limit int64
	}{{"smaller", half / 2}, {"equal", half}, {"smaller again", 1}} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(tc.limit, ck)
			if got.Resumed == nil || !got.Resumed.Spent || got.Resumed.Schedules != half {
				t.Errorf("Resumed = %+v, want spent at %d schedules", got.Resumed, half)
			}
			sameAsUninterrupted(t, sys, got, stopped)
		})
	}
	t.Run("larger", func(t *testing.T) {
		got := run(explorer.Unlimited, ck)
		if got.Resumed == nil || got.Resumed.Spent || got.Resumed.Ended {
			t.Errorf("Resumed = %+v, want a resume that went on", got.Resumed)
		}
		sameAsUninterrupted(t, sys, got, full)
	})
	t.Run("ended", func(t *testing.T) {
		got := run(half, ck)
		if got.Resumed == nil || !got.Resumed.Ended || got.Resumed.Spent {
			t.Errorf("Resumed = %+v, want a checkpoint whose search had ended", got.Resumed)
		}
		sameAsUninterrupted(t, sys, got, full)
	})
}

// TestCheckpointResumeAfterLastSchedule: a budget equal to the search's schedules stops
// it after its last one, before it has unwound its path, incomplete as without
// checkpoints; resumed with a larger budget, it finds nothing left to explore and is
// complete.
func TestCheckpointResumeAfterLastSchedule(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	full, err := explorer.Run(context.Background(), sys, explorer.Options{MaxSchedules: explorer.Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	ck := explorer.Checkpointing{Dir: filepath.Join(t.TempDir(), "ckpt"), Identity: []string{"system=register-buggy"}}
	exact, err := explorer.Run(context.Background(), sys, explorer.Options{MaxSchedules: full.Stats.Schedules, Checkpoint: ck})
	if err != nil {
		t.Fatal(err)
	}
	if exact.Complete {
		t.Fatal("a search stopped by its budget after its last schedule is complete; the test assumes it is not")
	}
	ck.Resume = true
	got, err := explorer.Run(context.Background(), sys, explorer.Options{MaxSchedules: full.Stats.Schedules + 1, Checkpoint: ck})
	if err != nil {
		t.Fatal(err)
	}
	sameAsUninterrupted(t, sys, got, full)
}
