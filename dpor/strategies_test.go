package dpor_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/register"
)

func build(t *testing.T, c config) model.System {
	t.Helper()
	s, err := c.build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// smallSystems is the register configurations that are not long, and the random
// protocols of the first seeds, each with the name exhaustiveWithin knows it by.
func smallSystems(t *testing.T, seeds uint64) []oracleSystem {
	t.Helper()
	var all []oracleSystem
	for _, s := range registerSystems(t) {
		if !s.long {
			all = append(all, s)
		}
	}
	for seed := range seeds {
		s := randomSystem(seed)
		all = append(all, oracleSystem{s.Name, s, false, true})
	}
	return all
}

// TestDelayBounded: no delay gives the scheduler's one schedule; each extra delay
// explores at least as much; a bound as large as any schedule needs is exhaustive search.
func TestDelayBounded(t *testing.T) {
	for _, named := range smallSystems(t, 6) {
		sys := named.sys
		t.Run(named.name, func(t *testing.T) {
			ex := exhaustiveWithin(t, named.name, sys, randomBudget)
			if !ex.complete {
				t.Skipf("more than %d schedules", int64(randomBudget))
			}
			if got := explore(t, sys, dpor.DelayBounded(0), explorer.Unlimited).schedules; got != 1 {
				t.Errorf("D = 0: %d schedules, want 1", got)
			}
			// Every bound up to 8, then every other one: the random protocols need 9 to 21
			// delays to explore all, and each bound's search costs about as much as
			// exhaustive search's.
			prev, prevD, grew := int64(1), 0, false
			for d := 1; ; d = nextBound(d) {
				o := explore(t, sys, dpor.DelayBounded(d), explorer.Unlimited)
				if o.schedules < prev {
					t.Fatalf("D = %d: %d schedules, fewer than D = %d's %d", d, o.schedules, prevD, prev)
				}
				prevD = d
				grew = grew || o.schedules > prev
				prev = o.schedules
				if o.schedules == ex.schedules {
					if !slices.Equal(o.canonical, ex.canonical) || !slices.Equal(o.violations, ex.violations) {
						t.Errorf("D = %d explores every schedule but finds other histories than exhaustive search", d)
					}
					break
				}
				if d > 200 {
					t.Fatalf("D = %d still explores only %d of %d schedules", d, o.schedules, ex.schedules)
				}
			}
			if ex.schedules > 1 && !grew {
				t.Errorf("the schedule count never grew with D")
			}
		})
	}
}

// nextBound is the delay bound TestDelayBounded tries after d.
func nextBound(d int) int {
	if d < 8 {
		return d + 1
	}
	return d + 2
}

// TestNoStrategyExploresMoreThanExhaustive, on every small configuration, for every
// systematic strategy and relation.
func TestNoStrategyExploresMoreThanExhaustive(t *testing.T) {
	for _, named := range smallSystems(t, 15) {
		sys := named.sys
		ex := exhaustiveWithin(t, named.name, sys, randomBudget)
		if !ex.complete {
			continue
		}
		for _, name := range []string{"delay-bounded", "dpor", "transdpor", "ired", "liviola"} {
			for _, dep := range []string{"actor", "history", "key"} { // the built-ins: other tests register more
				s, err := dpor.New(name, dpor.Config{Dependence: dep, Delays: 3})
				if err != nil {
					t.Fatal(err)
				}
				if o := explore(t, sys, s, explorer.Unlimited); o.schedules > ex.schedules {
					t.Errorf("%s: %s with %s explored %d schedules, exhaustive %d", sys.Name, name, dep, o.schedules, ex.schedules)
				}
			}
		}
	}
}

// TestRandomIsReproducible: the same seed gives the same run, walk for walk.
func TestRandomIsReproducible(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r2w")
	if err != nil {
		t.Fatal(err)
	}
	run := func(seed int64) string {
		res, err := explorer.Run(context.Background(), sys, explorer.Options{Strategy: dpor.Random(seed), MaxSchedules: 2000})
		if err != nil {
			t.Fatal(err)
		}
		st := res.Stats
		out := fmt.Sprint(st.Schedules, st.Steps, st.Unique, st.Canonical, st.Nonlinearizable, st.Incomplete, st.MaxDepth)
		for _, c := range res.Canonical {
			out += fmt.Sprintf("|%x", c.History.Hash())
		}
		if res.First != nil {
			out += fmt.Sprintf("|first %d", res.First.Schedule)
		}
		return out
	}
	a, b, c := run(7), run(7), run(8)
	if a != b {
		t.Errorf("two runs with seed 7 differ:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("seeds 7 and 8 gave the same run; the seed is not used")
	}
}

// TestHeuristicCoverage records what TransDPOR, IRed and LiViola keep of exhaustive
// search's canonical histories and violations, with DS2's actor relation and with
// Ravel's history relation. These are measured facts about the algorithms, not
// requirements: a change to any of them shows here.
func TestHeuristicCoverage(t *testing.T) {
	type want struct {
		config, strategy, dep string
		schedules             int64
		canonical, exCanon    int // canonical histories found, and exhaustive's
		violations, exViol    int // exhaustive's violations found, and exhaustive's
	}
	wants := []want{
		{"register/2r1w", "transdpor", "actor", 2844, 34, 44, 0, 0},
		{"register/2r1w", "transdpor", "history", 2930, 44, 44, 0, 0},
		{"register/2r1w", "ired", "actor", 2844, 34, 44, 0, 0},
		{"register/2r1w", "ired", "history", 2930, 44, 44, 0, 0},
		{"register/2r1w", "liviola", "actor", 2844, 34, 44, 0, 0},
		{"register/2r1w", "liviola", "history", 2930, 44, 44, 0, 0},
		{"register/2r2w", "transdpor", "actor", 2555344, 505, 793, 0, 0},
		{"register/2r2w", "transdpor", "history", 2661768, 793, 793, 0, 0},
		{"register/2r2w", "ired", "actor", 2555344, 505, 793, 0, 0},
		{"register/2r2w", "ired", "history", 2661018, 793, 793, 0, 0},
		{"register/2r2w", "liviola", "actor", 2555344, 505, 793, 0, 0},
		{"register/2r2w", "liviola", "history", 2661018, 793, 793, 0, 0},
		{"register-buggy/2r1w", "transdpor", "actor", 8, 4, 32, 1, 12},
		{"register-buggy/2r1w", "transdpor", "history", 68, 23, 32, 3, 12},
		{"register-buggy/2r1w", "ired", "actor", 8, 4, 32, 1, 12},
		{"register-buggy/2r1w", "ired", "history", 68, 23, 32, 3, 12},
		{"register-buggy/2r1w", "liviola", "actor", 8, 4, 32, 1, 12},
		{"register-buggy/2r1w", "liviola", "history", 68, 23, 32, 3, 12},
		{"register-buggy/2r2w", "transdpor", "actor", 176369, 110, 365, 24, 121},
		{"register-buggy/2r2w", "transdpor", "history", 430717, 325, 365, 81, 121},
		{"register-buggy/2r2w", "ired", "actor", 150453, 97, 365, 11, 121},
		{"register-buggy/2r2w", "ired", "history", 318280, 284, 365, 40, 121},
		{"register-buggy/2r2w", "liviola", "actor", 150453, 97, 365, 11, 121},
		{"register-buggy/2r2w", "liviola", "history", 318280, 284, 365, 40, 121},
	}
	configs := map[string]config{}
	for _, c := range registerConfigs() {
		configs[c.name] = c
	}
	for _, w := range wants {
		t.Run(w.config+"/"+w.strategy+"/"+w.dep, func(t *testing.T) {
			c := configs[w.config]
			if w.config == "register/2r2w" && os.Getenv("RAVEL_LONG") == "" {
				t.Skip("explores 2.6 million schedules per case; set RAVEL_LONG=1 to run")
			}
			if c.long && testing.Short() {
				t.Skip("explores millions of schedules; skipped with -short")
			}
			t.Parallel()
			sys := build(t, c)
			s, err := dpor.New(w.strategy, dpor.Config{Dependence: w.dep})
			if err != nil {
				t.Fatal(err)
			}
			ex := exhaustiveOf(t, w.config, sys)
			o := explore(t, sys, s, explorer.Unlimited)
			found := 0
			for _, v := range o.violations {
				if _, ok := slices.BinarySearch(ex.violations, v); ok {
					found++
				}
			}
			got := want{w.config, w.strategy, w.dep, o.schedules, len(o.canonical), len(ex.canonical), found, len(ex.violations)}
			if got != w {
				t.Errorf("measured %+v\n      recorded %+v", got, w)
			}
			t.Logf("coverage %.0f%% of canonical histories, %d of %d violations, %d schedules (exhaustive %d)",
				100*float64(got.canonical)/float64(got.exCanon), found, got.exViol, o.schedules, ex.schedules)
		})
	}
}
