package explorer_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/abd"
	"github.com/ravelmc/ravel/systems/gossip"
	"github.com/ravelmc/ravel/systems/leader"
	"github.com/ravelmc/ravel/systems/register"
)

// canonicalInOrder is a run's canonical histories in the order found, with verdicts.
func canonicalInOrder(t *testing.T, sys model.System, res *explorer.Result) []string {
	t.Helper()
	out := make([]string, len(res.Canonical))
	for i, c := range res.Canonical {
		out[i] = fmt.Sprintf("%v %s", c.Linearizable, toJSON(t, c.History.JSON(sys.Harness)))
	}
	return out
}

// figures are the statistics a resumed run must reproduce exactly.
func figures(st explorer.Stats) string {
	return fmt.Sprintf("schedules %d cut %d incomplete %d unique %d canonical %d NL %d NLcan %d panics %d states %d revisits %d HF %d maxdepth %d",
		st.Schedules, st.Cut, st.Incomplete, st.Unique, st.Canonical, st.Nonlinearizable, st.NonlinearizableCan,
		st.Panics, st.States, st.Revisits, st.BeforeFirst, st.MaxDepth)
}

// TestCheckpointResumeIsInvisible is the oracle for checkpoints: a search interrupted
// several times (the context cancelled after a seeded number of schedules) and resumed
// from its checkpoint each time ends with exactly the statistics, the canonical histories
// in the order found, and the first violation of the uninterrupted run — for exhaustive
// and delay-bounded search with caching (in memory and spilling), without caching, and
// for the DPOR family, whose per-node sets are part of the frontier; and for exhaustive
// search and stateful DPOR with canonical states, whose keys a resume rebuilds by replay.
func TestCheckpointResumeIsInvisible(t *testing.T) {
	defer explorer.PollEveryStep()()
	// Every mode runs on the systems marked all; the others, to keep the suite short, run
	// the spilling, the uncached and the dpor modes.
	systems := []struct {
		name string
		all  bool
		// cachedOnly: a cyclic system, or one too large for stateless search; only the
		// cached modes run on it.
		cachedOnly bool
		sys        func() (model.System, error)
	}{
		{"register/2r1w", false, false, func() (model.System, error) { return register.New(2, "2r1w") }},
		{"register-buggy/2r1w", true, false, func() (model.System, error) { return register.NewBuggy(3, "2r1w") }},
		{"gossip-3/rw", true, false, func() (model.System, error) { return gossip.New(3, "rw") }},
		{"random-3", true, false, func() (model.System, error) { return randsys.New(3), nil }},
		{"random-6", false, false, func() (model.System, error) { return randsys.New(6), nil }},
		{"random-cyclic-7", false, true, func() (model.System, error) { return randsys.NewCyclic(7), nil }},
		{"random-cyclic-32", false, true, func() (model.System, error) { return randsys.NewCyclic(32), nil }},
		{"abd/1w1r", false, true, func() (model.System, error) { return abd.New(3, "1w1r") }},
		{"leader-buggy/1rw", false, true, func() (model.System, error) { return leader.NewBuggy(3, "1rw") }},
		{"register/2r1w+drop,crash", false, false, func() (model.System, error) {
			s, err := register.New(2, "2r1w")
			s.Faults = model.Faults{Drop: 1, Crash: 1}
			return s, err
		}},
	}
	type mode struct {
		name      string
		strat     func() dpor.Strategy
		caching   bool
		mem       int64
		canonical bool
	}
	modes := []mode{
		{"exhaustive-cached", dpor.Exhaustive, true, 0, false},
		{"exhaustive-cached-spilling", dpor.Exhaustive, true, 4 << 10, false},
		{"exhaustive-canonical-spilling", dpor.Exhaustive, true, 4 << 10, true},
		{"delay-bounded-cached", func() dpor.Strategy { return dpor.DelayBounded(2) }, true, 0, false},
		{"exhaustive", dpor.Exhaustive, false, 0, false},
	}
	for _, name := range []string{"dpor-source", "transdpor", "ired", "liviola"} {
		modes = append(modes, mode{name, func() dpor.Strategy {
			s, err := dpor.New(name, dpor.Config{})
			if err != nil {
				panic(err)
			}
			return s
		}, false, 0, false})
	}
	// Stateful DPOR keeps its graph of the visited states in the checkpoint record.
	statefulDPOR := func() dpor.Strategy {
		s, err := dpor.New("dpor", dpor.Config{})
		if err != nil {
			panic(err)
		}
		return s
	}
	modes = append(modes, mode{"dpor-cached", statefulDPOR, true, 0, false}, mode{"dpor-canonical", statefulDPOR, true, 0, true})
	for _, sc := range systems {
		for _, m := range modes {
			if !sc.all && !slices.Contains([]string{"exhaustive-cached-spilling", "exhaustive-canonical-spilling", "exhaustive", "dpor-source", "dpor-cached", "dpor-canonical"}, m.name) {
				continue
			}
			if sc.cachedOnly && !m.caching || strings.HasPrefix(m.name, "dpor-c") && strings.Contains(sc.name, "+") {
				continue // stateful DPOR refuses fault events
			}
			t.Run(sc.name+"/"+m.name, func(t *testing.T) {
				sys, err := sc.sys()
				if err != nil {
					t.Fatal(err)
				}
				opts := explorer.Options{Strategy: m.strat(), MaxSchedules: explorer.Unlimited, StateCaching: m.caching, CanonicalStates: m.canonical, VisitedMem: m.mem, VisitedDir: t.TempDir()}
				want, err := explorer.Run(context.Background(), sys, opts)
				if err != nil {
					t.Fatal(err)
				}
				dir := filepath.Join(t.TempDir(), "ckpt")
				opts.Checkpoint = explorer.Checkpointing{Dir: dir, Every: 50 * time.Millisecond, Identity: []string{"system=" + sc.name, "mode=" + m.name}}
				total := want.Stats.Schedules
				// Interrupt at a third and at two thirds of the schedules, then let it finish.
				var got *explorer.Result
				interrupted := 0
				for round, stopAt := range []int64{total / 3, total * 2 / 3, -1} {
					ctx, cancel := context.WithCancel(context.Background())
					o := opts
					o.Strategy = m.strat()
					o.Checkpoint.Resume = round > 0
					if stopAt >= 0 {
						o.OnSchedule = func(s *explorer.ScheduleEnd) {
							if s.Index >= stopAt {
								cancel()
							}
						}
					}
					got, err = explorer.Run(ctx, sys, o)
					cancel()
					if err != nil {
						t.Fatalf("round %d: %v", round, err)
					}
					if got.Stats.Interrupted {
						interrupted++
					}
				}
				if interrupted == 0 {
					t.Errorf("no round was interrupted (%d schedules): the test resumed nothing", total)
				}
				sameAsUninterrupted(t, sys, got, want)
			})
		}
	}
}

// sameAsUninterrupted checks that a resumed run, got, ended as the uninterrupted one,
// want: the same statistics, canonical histories in the order found, and first violation.
func sameAsUninterrupted(t *testing.T, sys model.System, got, want *explorer.Result) {
	t.Helper()
	if g, w := figures(got.Stats), figures(want.Stats); g != w {
		t.Errorf("resumed: %s\n   want: %s", g, w)
	}
	if got.Complete != want.Complete {
		t.Errorf("resumed: complete %v, want %v", got.Complete, want.Complete)
	}
	if g, w := canonicalInOrder(t, sys, got), canonicalInOrder(t, sys, want); !slices.Equal(g, w) {
		t.Errorf("resumed: %d canonical histories (in order), want %d; or the order differs", len(g), len(w))
	}
	if (got.First == nil) != (want.First == nil) || got.First != nil && (got.First.Schedule != want.First.Schedule || got.First.Kind != want.First.Kind) {
		t.Errorf("resumed: first violation %+v, want %+v", got.First, want.First)
	}
}

// TestCheckpointRefusals: a resume refuses a checkpoint of another run, naming what
// differs; a new run refuses a directory that holds a checkpoint; a resume of an empty
// directory says there is none; a random sampler cannot checkpoint.
func TestCheckpointRefusals(t *testing.T) {
	sys, err := register.New(2, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "ckpt")
	id := []string{"system=register", "harness=2r1w", "strategy=exhaustive"}
	opts := explorer.Options{StateCaching: true, Checkpoint: explorer.Checkpointing{Dir: dir, Identity: id}}
	if _, err := explorer.Run(context.Background(), sys, opts); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(*explorer.Options)
		want   string
	}{
		{"another system", func(o *explorer.Options) {
			o.Checkpoint.Identity = []string{"system=gossip", "harness=2r1w", "strategy=exhaustive"}
			o.Checkpoint.Resume = true
		}, "system=register, this run has system=gossip"},
		{"another strategy", func(o *explorer.Options) {
			o.Checkpoint.Identity = []string{"system=register", "harness=2r1w", "strategy=dpor"}
			o.Checkpoint.Resume = true
		}, "strategy=exhaustive, this run has strategy=dpor"},
		{"not resuming", func(o *explorer.Options) {}, "already holds a checkpoint"},
		{"empty dir", func(o *explorer.Options) {
			o.Checkpoint.Dir = t.TempDir()
			o.Checkpoint.Resume = true
		}, "no complete checkpoint"},
		{"no dir", func(o *explorer.Options) {
			o.Checkpoint.Dir = filepath.Join(t.TempDir(), "new")
			o.Checkpoint.Resume = true
		}, ": no such directory"},
		{"sampler", func(o *explorer.Options) {
			o.Checkpoint.Dir = filepath.Join(t.TempDir(), "new")
			o.Strategy, _ = dpor.New("random", dpor.Config{Seed: 1})
			o.StateCaching = false
		}, "same --seed"},
		{"optimal dpor", func(o *explorer.Options) {
			o.Checkpoint.Dir = filepath.Join(t.TempDir(), "new")
			o.Strategy, _ = dpor.New("dpor", dpor.Config{})
			o.StateCaching = false
		}, "checkpoint dpor-source"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := opts
			tc.change(&o)
			_, err := explorer.Run(context.Background(), sys, o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
			if strings.HasPrefix(tc.name, "another") && !errors.Is(err, explorer.ErrCheckpointMismatch) {
				t.Errorf("err = %v, want ErrCheckpointMismatch", err)
			}
		})
	}
}
