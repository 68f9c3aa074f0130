package explorer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/systems/gossip"
	"github.com/ravelmc/ravel/systems/register"
)

// seen is a run's canonical histories and violations, as comparable strings.
type seen struct {
	canonical, violations []string
	res                   *explorer.Result
}

func see(t *testing.T, sys model.System, opts explorer.Options) seen {
	t.Helper()
	res, err := explorer.Run(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	var s seen
	s.res = res
	for _, c := range res.Canonical {
		k := c.History.JSON(sys.Harness)
		line := toJSON(t, k)
		s.canonical = append(s.canonical, line)
		if !c.Linearizable {
			s.violations = append(s.violations, line)
		}
	}
	slices.Sort(s.canonical)
	slices.Sort(s.violations)
	return s
}

type cachingConfig struct {
	name  string
	sys   func() (model.System, error)
	short bool // fast enough for -short
}

func cachingConfigs() []cachingConfig {
	return []cachingConfig{
		{"register/2r1w", func() (model.System, error) { return register.New(2, "2r1w") }, true},
		{"register/2r2w", func() (model.System, error) { return register.New(2, "2r2w") }, false},
		{"register-buggy/2r1w", func() (model.System, error) { return register.NewBuggy(3, "2r1w") }, true},
		{"register-buggy/2r2w", func() (model.System, error) { return register.NewBuggy(3, "2r2w") }, false},
		{"gossip-3/writes", func() (model.System, error) { return gossip.New(3, "writes") }, true},
		{"gossip-3/rw", func() (model.System, error) { return gossip.New(3, "rw") }, true},
		{"random-3", func() (model.System, error) { return randsys.New(3), nil }, true},
		{"random-6", func() (model.System, error) { return randsys.New(6), nil }, true},
	}
}

// TestStateCachingKeepsHistories is the oracle for state caching: exhaustive and
// delay-bounded search with caching find the same canonical histories and violations as
// without, because the fingerprint covers the history so far.
func TestStateCachingKeepsHistories(t *testing.T) {
	for _, c := range cachingConfigs() {
		for _, strat := range []dpor.Strategy{dpor.Exhaustive(), dpor.DelayBounded(4)} {
			t.Run(c.name+"/"+strat.Name(), func(t *testing.T) {
				if !c.short && testing.Short() {
					t.Skip("millions of schedules without caching")
				}
				sys, err := c.sys()
				if err != nil {
					t.Fatal(err)
				}
				off := see(t, sys, explorer.Options{Strategy: strat, MaxSchedules: explorer.Unlimited})
				on := see(t, sys, explorer.Options{Strategy: strat, MaxSchedules: explorer.Unlimited, StateCaching: true})
				if !slices.Equal(off.canonical, on.canonical) || !slices.Equal(off.violations, on.violations) {
					t.Errorf("caching on: %d histories, %d violations; off: %d, %d", len(on.canonical), len(on.violations), len(off.canonical), len(off.violations))
				}
				if on.res.Stats.Schedules > off.res.Stats.Schedules {
					t.Errorf("caching explored more schedules (%d) than without (%d)", on.res.Stats.Schedules, off.res.Stats.Schedules)
				}
				if on.res.Stats.States == 0 {
					t.Errorf("no states counted")
				}
				t.Logf("%d schedules, %d states, %d revisits (without caching: %d schedules)", on.res.Stats.Schedules, on.res.Stats.States, on.res.Stats.Revisits, off.res.Stats.Schedules)
			})
		}
	}
}

// TestStatelessMatchesStateful: re-executing every schedule from the initial state
// explores exactly what the snapshots explore: every figure but the times and the steps
// replayed, and the first violation. The large configurations run with state caching
// (in both modes), which keeps them to thousands of schedules; stateful DPOR (dpor and
// dpor-source with caching) runs on every configuration. It used to compare only the
// schedules and histories, and to run stateful DPOR on the large configurations alone,
// where its schedules happened to agree: the probe's D2 saw stateless stateful DPOR
// visit other states (its lookahead, NextFingerprint, had no state to look at).
func TestStatelessMatchesStateful(t *testing.T) {
	type run struct {
		strat   dpor.Strategy
		caching bool
	}
	for _, c := range cachingConfigs() {
		runs := []run{{dpor.Exhaustive(), false}, {dpor.DelayBounded(3), false}, {dpor.DPOR(dpor.History()), false}, {dpor.TransDPOR(dpor.History()), false}, {dpor.LiViola(dpor.Key()), false}}
		if !c.short {
			runs = []run{{dpor.Exhaustive(), true}}
		}
		runs = append(runs, run{dpor.DPOR(dpor.History()), true}, run{dpor.Optimal(dpor.History()), true})
		for _, r := range runs {
			name := c.name + "/" + r.strat.Name()
			if r.caching {
				name += "/caching"
			}
			t.Run(name, func(t *testing.T) {
				sys, err := c.sys()
				if err != nil {
					t.Fatal(err)
				}
				full := see(t, sys, explorer.Options{Strategy: r.strat, MaxSchedules: explorer.Unlimited, StateCaching: r.caching})
				less := see(t, sys, explorer.Options{Strategy: r.strat, MaxSchedules: explorer.Unlimited, StateCaching: r.caching, Stateless: true})
				sameExploration(t, full, less)
			})
		}
	}
}

// explored is what a run's statistics say it explored: every figure of Stats but the
// times, the memory, the visited set's own and the steps replayed.
type explored struct {
	Schedules, Steps, Cut, Cycles, SleepBlocked, Answered                      int64
	Incomplete, Unique, Canonical, Nonlinearizable, NonlinearizableCan, Panics int64
	BeforeFirst, States, Revisits, ExploredAgain, Peeked                       int64
	MaxDepth                                                                   int
	FirstSchedule                                                              int64
	FirstSteps                                                                 string
}

func exploredBy(res *explorer.Result) explored {
	s := res.Stats
	x := explored{s.Schedules, s.Steps, s.Cut, s.Cycles, s.SleepBlocked, s.Answered,
		s.Incomplete, s.Unique, s.Canonical, s.Nonlinearizable, s.NonlinearizableCan, s.Panics,
		s.BeforeFirst, s.States, s.Revisits, s.ExploredAgain, s.Peeked, s.MaxDepth, 0, ""}
	if f := res.First; f != nil {
		x.FirstSchedule = f.Schedule
		for _, d := range f.Steps {
			x.FirstSteps += fmt.Sprintf("%x ", d.ID)
		}
	}
	return x
}

// sameExploration checks that the stateless run less explored what the stateful run full
// did: the same canonical histories and violations, the same figures (explored), the
// same first violation, by re-executing.
func sameExploration(t *testing.T, full, less seen) {
	t.Helper()
	if !slices.Equal(full.canonical, less.canonical) || !slices.Equal(full.violations, less.violations) {
		t.Errorf("stateless: %d histories, %d violations; stateful: %d, %d", len(less.canonical), len(less.violations), len(full.canonical), len(full.violations))
	}
	if f, l := exploredBy(full.res), exploredBy(less.res); f != l {
		t.Errorf("stateless %+v\nstateful  %+v", l, f)
	}
	if less.res.Stats.Replayed == 0 && full.res.Stats.Schedules > 1 {
		t.Errorf("the stateless run replayed nothing")
	}
}

// TestStatelessMatchesStatefulWithCanonicalStates: with canonical states too, re-executing
// every schedule from the initial state explores what the snapshots explore — the
// canonical key is rebuilt by replay as the chain hash is.
func TestStatelessMatchesStatefulWithCanonicalStates(t *testing.T) {
	for _, c := range cachingConfigs() {
		for _, strat := range []dpor.Strategy{dpor.Exhaustive(), dpor.DPOR(dpor.History())} {
			t.Run(c.name+"/"+strat.Name(), func(t *testing.T) {
				sys, err := c.sys()
				if err != nil {
					t.Fatal(err)
				}
				opts := explorer.Options{Strategy: strat, MaxSchedules: explorer.Unlimited, StateCaching: true, CanonicalStates: true}
				full := see(t, sys, opts)
				opts.Stateless = true
				less := see(t, sys, opts)
				sameExploration(t, full, less)
			})
		}
	}
}

// TestCachingRefusedWithDS2Heuristics: TransDPOR, IRed and LiViola keep no graph of
// visited states, so caching is refused with them, with faults or without; dpor runs its
// stateful variant, with faults too.
func TestCachingRefusedWithDS2Heuristics(t *testing.T) {
	sys, err := register.New(2, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []dpor.Strategy{dpor.TransDPOR(dpor.History()), dpor.IRed(dpor.History()), dpor.LiViola(dpor.Key())} {
		_, err = explorer.Run(context.Background(), sys, explorer.Options{Strategy: s, StateCaching: true})
		if err == nil || !strings.Contains(err.Error(), "not sound") {
			t.Errorf("%s: error = %v, want a refusal saying caching is not sound", s.Name(), err)
		}
	}
	if _, err := explorer.Run(context.Background(), sys, explorer.Options{Strategy: dpor.DPOR(dpor.History()), StateCaching: true}); err != nil {
		t.Errorf("dpor with caching: %v", err)
	}
	sys.Faults.Drop = 1
	for _, s := range []dpor.Strategy{dpor.TransDPOR(dpor.History()), dpor.IRed(dpor.History()), dpor.LiViola(dpor.Key())} {
		_, err = explorer.Run(context.Background(), sys, explorer.Options{Strategy: s, StateCaching: true})
		if err == nil || !strings.Contains(err.Error(), "not sound") {
			t.Errorf("%s with faults: error = %v, want a refusal saying caching is not sound", s.Name(), err)
		}
	}
	for _, s := range []dpor.Strategy{dpor.DPOR(dpor.History()), dpor.Optimal(dpor.History())} {
		res, err := explorer.Run(context.Background(), sys, explorer.Options{Strategy: s, StateCaching: true, MaxSchedules: explorer.Unlimited})
		if err != nil || !res.Complete {
			t.Errorf("%s with caching and faults: error %v, complete %v", s.Name(), err, res != nil && res.Complete)
		}
	}
}

// TestCachingRefusedWithSamplers: a sampler's runs are drawn independently, so state
// caching is refused with the reason that is theirs (the distribution), not the DPOR
// family's (backtrack points), whether the sampler comes as Options.Sampling or as the
// dpor.Random strategy.
func TestCachingRefusedWithSamplers(t *testing.T) {
	sys, err := register.New(2, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts explorer.Options
	}{
		{"random strategy", explorer.Options{Strategy: dpor.Random(1)}},
		{"random walk", explorer.Options{Sampling: samplers.RandomWalk()}},
		{"pos", explorer.Options{Sampling: samplers.POS(samplers.Options{})}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.opts.StateCaching, c.opts.MaxSchedules = true, 10
			_, err := explorer.Run(context.Background(), sys, c.opts)
			if err == nil || !strings.Contains(err.Error(), "sampler: its runs are drawn independently") {
				t.Errorf("error = %v, want a refusal saying a sampler's runs are independent", err)
			}
			c.opts.StateCaching = false
			if _, err := explorer.Run(context.Background(), sys, c.opts); err != nil {
				t.Errorf("without caching: %v", err)
			}
		})
	}
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestVisitedSpillIsInvisible: whether the visited set stays in memory or mostly spills
// to disk, a run counts the same unique states and finds the same histories.
func TestVisitedSpillIsInvisible(t *testing.T) {
	cs := cachingConfigs()
	for _, c := range []cachingConfig{cs[0], cs[3], cs[4], cs[6], cs[7]} {
		t.Run(c.name, func(t *testing.T) {
			sys, err := c.sys()
			if err != nil {
				t.Fatal(err)
			}
			mem := see(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited, StateCaching: true})
			disk := see(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited, StateCaching: true, VisitedMem: 4 << 10, VisitedDir: t.TempDir()})
			m, d := mem.res.Stats, disk.res.Stats
			if m.States != d.States || m.Revisits != d.Revisits || m.Schedules != d.Schedules {
				t.Errorf("in memory: %d states, %d revisits, %d schedules; spilled: %d, %d, %d", m.States, m.Revisits, m.Schedules, d.States, d.Revisits, d.Schedules)
			}
			if !slices.Equal(mem.canonical, disk.canonical) {
				t.Errorf("the histories differ")
			}
			if m.Visited.Spilled != 0 || d.Visited.Spilled == 0 {
				t.Errorf("spilled in memory run: %d, in the 4 KiB run: %d; want 0 and most", m.Visited.Spilled, d.Visited.Spilled)
			}
			t.Logf("%d states; with 4 KiB, %d spilled, %d disk reads", d.States, d.Visited.Spilled, d.Visited.DiskReads)
		})
	}
}
