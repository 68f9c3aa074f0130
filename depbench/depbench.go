// Package depbench compares dependence relations side by side on one system: for each
// strategy of the DPOR family and each relation, what the reduction explored, and which
// of the canonical histories that exhaustive search finds on the same configuration it
// kept — the experiment a researcher runs to see how much a proposed relation prunes and
// whether it is still sound for linearizability. It can also check each relation's own
// contract on the system's states (explorer.CheckCommutation).
package depbench

import (
	"context"
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// Config says what to compare.
type Config struct {
	// Strategies are strategies of the DPOR family, by name (dpor.New); empty means
	// "dpor".
	Strategies []string
	// Dependences are registered relations, by name (dpor.DependenceByName); empty means
	// every registered one.
	Dependences []string
	// MaxSchedules and MaxDepth are every run's budgets, exhaustive search's included, as
	// in explorer.Options (0: the defaults, explorer.Unlimited: none).
	MaxSchedules int64
	MaxDepth     int
	// CachedBaseline runs the exhaustive baseline with state caching (explorer.Options's
	// StateCaching): it finds the same canonical histories — a state's fingerprint covers
	// its history, so nothing reachable from a revisited state is new — in far fewer
	// schedules on systems whose orders converge, which makes a baseline affordable where
	// plain exhaustive search is not. Its schedule count is then not comparable to the
	// rows', and #S÷EX is shown as "-".
	CachedBaseline bool
	// Commute also checks each relation's contract on the system's states, with
	// CommuteStates as the state budget (explorer.CommuteOptions.MaxStates).
	Commute       bool
	CommuteStates int
	// Progress, when set, is told what runs next.
	Progress func(string)
}

// Table is the comparison on one configuration of a system.
type Table struct {
	System  string `json:"system"`
	Harness string `json:"harness"`
	Agents  int    `json:"agents"`
	// MaxSchedules is every run's schedule budget (0: none).
	MaxSchedules int64 `json:"max_schedules"`
	// CachedBaseline: exhaustive search ran with state caching (Config.CachedBaseline).
	CachedBaseline bool `json:"cached_baseline,omitempty"`
	// Exhaustive is the baseline every row is measured against.
	Exhaustive Run `json:"exhaustive"`
	// Rows hold one run per strategy and relation, strategies outermost.
	Rows []Row `json:"rows"`
	// Commutation holds each relation's contract check, when Config.Commute asked for it,
	// in the order of Config.Dependences.
	Commutation []Commutation `json:"commutation,omitempty"`
	// Interrupted: the context was cancelled before the comparison ended. The table holds
	// the runs until then, the one the cancellation stopped marked Interrupted.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Run is what one search explored and found.
type Run struct {
	Strategy   string `json:"strategy"`
	Dependence string `json:"dependence,omitempty"`
	Schedules  int64  `json:"schedules"`
	// Steps counts the handler runs (messages delivered). Without state caching every
	// step reaches a state; with it (the cached baseline) a step may reach a state
	// visited before, so steps exceed the distinct states.
	Steps   int64   `json:"steps"`
	Seconds float64 `json:"seconds"`
	// Canonical is the number of canonical histories found, Violations the number of
	// them that are not linearizable.
	Canonical  int `json:"canonical"`
	Violations int `json:"violations"`
	// Complete: the search ended by itself, within its budgets.
	Complete bool `json:"complete"`
	// Interrupted: the context was cancelled during the run; the figures cover it until
	// then.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Row is one relation under one strategy, against exhaustive search.
type Row struct {
	Run
	// Covered is the number of exhaustive search's canonical histories this run found too,
	// and Coverage the same as a percentage of them (100 when exhaustive found none).
	Covered  int     `json:"covered"`
	Coverage float64 `json:"coverage_percent"`
	// ViolationsMissed counts exhaustive's non-linearizable canonical histories this run
	// did not find.
	ViolationsMissed int `json:"violations_missed"`
	// FirstMissed is the first of exhaustive's canonical histories, in the order
	// exhaustive found them, that this run did not find; nil when it missed none.
	FirstMissed *Missed `json:"first_missed,omitempty"`
}

// Missed is a canonical history a reduction lost.
type Missed struct {
	Linearizable bool `json:"linearizable"`
	// Timeline draws a chronological history with this canonical form, as exhaustive
	// search first found it (histories.Timeline); Sequence lists its events.
	Timeline string `json:"timeline"`
	Sequence string `json:"sequence"`
}

// Commutation is a relation's contract check (explorer.CheckCommutation), in the
// default sense and in the strict one (the same canonical history either way).
type Commutation struct {
	Dependence string `json:"dependence"`
	States     int    `json:"states"`
	Complete   bool   `json:"complete"`
	// Independent is the number of co-enabled pairs the relation calls independent,
	// Reordered those of them whose two orders leave different canonical histories.
	Independent int64 `json:"independent_pairs"`
	Reordered   int64 `json:"reordered_pairs"`
	// Dependent is the number of co-enabled pairs the relation calls dependent,
	// DependentCommuting those of them that commute at the state where they meet
	// (explorer.CommuteOptions.Dependent): what a relation that judged a pair by its
	// state could still prune.
	Dependent          int64 `json:"dependent_pairs"`
	DependentCommuting int64 `json:"dependent_commuting_pairs"`
	// Counterexample describes the first pair that breaks the contract (explorer's
	// Counterexample.Describe), or is empty when none does.
	Counterexample string `json:"counterexample,omitempty"`
}

// Sound reports whether no pair broke the contract.
func (c *Commutation) Sound() bool { return c.Counterexample == "" }

// Compare runs exhaustive search on sys, then every strategy of cfg with every relation,
// with the same budgets, and measures each run against exhaustive search. system,
// harness and agents label the table. ctx cancels it: the table then holds the runs so
// far, the one cancelled marked Interrupted, with Table.Interrupted set, and the error
// says which run it stopped in.
func Compare(ctx context.Context, sys model.System, system, harness string, agents int, cfg Config) (*Table, error) {
	strategies, deps := cfg.Strategies, cfg.Dependences
	if len(strategies) == 0 {
		strategies = []string{"dpor"}
	}
	if len(deps) == 0 {
		deps = dpor.Dependences()
	}
	// Everything is resolved before the first run, so that a typo costs nothing.
	for _, s := range strategies {
		for _, d := range deps {
			st, err := dpor.New(s, dpor.Config{Dependence: d})
			if err != nil {
				return nil, err
			}
			if dpor.RelationOf(st) == nil {
				return nil, fmt.Errorf("strategy %q reduces by no dependence relation (valid: %s)", s, strings.Join(Strategies(), ", "))
			}
		}
	}
	progress := func(format string, args ...any) {
		if cfg.Progress != nil {
			cfg.Progress(fmt.Sprintf(format, args...))
		}
	}
	t := &Table{System: system, Harness: harness, Agents: agents, MaxSchedules: cfg.MaxSchedules}
	if t.MaxSchedules == 0 {
		t.MaxSchedules = explorer.DefaultMaxSchedules
	} else if t.MaxSchedules < 0 {
		t.MaxSchedules = 0
	}
	t.CachedBaseline = cfg.CachedBaseline
	opts := explorer.Options{Strategy: dpor.Exhaustive(), MaxSchedules: cfg.MaxSchedules, MaxDepth: cfg.MaxDepth, StateCaching: cfg.CachedBaseline}
	// The first chronological history of each canonical form, for the timeline of a
	// missed one.
	firstEvents := map[uint64][]histories.Event{}
	var scratch histories.Canonical
	opts.OnSchedule = func(end *explorer.ScheduleEnd) {
		scratch.Reset(end.Events)
		if h := scratch.Hash(); firstEvents[h] == nil {
			firstEvents[h] = append([]histories.Event{}, end.Events...)
		}
	}
	progress("%s %s: exhaustive …", system, harness)
	ex, err := explorer.Run(ctx, sys, opts)
	if err != nil {
		return nil, fmt.Errorf("%s %s exhaustive: %w", system, harness, err)
	}
	t.Exhaustive = runOf(ex)
	if ctx.Err() != nil {
		t.Interrupted = true
		return t, fmt.Errorf("%s %s exhaustive: %w", system, harness, ctx.Err())
	}
	base := newHistorySet(ex.Canonical)
	for _, s := range strategies {
		for _, d := range deps {
			st, err := dpor.New(s, dpor.Config{Dependence: d})
			if err != nil {
				return nil, err
			}
			progress("%s %s: %s with %s …", system, harness, s, d)
			res, err := explorer.Run(ctx, sys, explorer.Options{Strategy: st, MaxSchedules: cfg.MaxSchedules, MaxDepth: cfg.MaxDepth})
			if err != nil {
				return nil, fmt.Errorf("%s %s %s with %s: %w", system, harness, s, d, err)
			}
			row := Row{Run: runOf(res)}
			found := newHistorySet(res.Canonical)
			for _, c := range ex.Canonical {
				if found.has(&c.History) {
					row.Covered++
					continue
				}
				if !c.Linearizable {
					row.ViolationsMissed++
				}
				if row.FirstMissed == nil {
					events := firstEvents[c.History.Hash()]
					row.FirstMissed = &Missed{Linearizable: c.Linearizable, Timeline: histories.Timeline(&sys, events), Sequence: histories.Sequence(&sys, events)}
				}
			}
			row.Coverage = 100
			if n := len(base.list); n > 0 {
				row.Coverage = 100 * float64(row.Covered) / float64(n)
			}
			t.Rows = append(t.Rows, row)
			if ctx.Err() != nil {
				t.Interrupted = true
				return t, fmt.Errorf("%s %s %s with %s: %w", system, harness, s, d, ctx.Err())
			}
		}
	}
	if cfg.Commute {
		for _, d := range deps {
			dep, err := dpor.DependenceByName(d)
			if err != nil {
				return nil, err
			}
			progress("%s %s: commutation of %s …", system, harness, d)
			c, err := checkCommutation(ctx, sys, dep, cfg.CommuteStates)
			if ctx.Err() != nil {
				t.Interrupted = true
				return t, fmt.Errorf("%s %s commutation of %s: %w", system, harness, d, ctx.Err())
			}
			if err != nil {
				return nil, fmt.Errorf("%s %s commutation of %s: %w", system, harness, d, err)
			}
			t.Commutation = append(t.Commutation, c)
		}
	}
	return t, nil
}

func checkCommutation(ctx context.Context, sys model.System, dep dpor.Dependence, states int) (Commutation, error) {
	rep, err := explorer.CheckCommutation(ctx, sys, dep, explorer.CommuteOptions{MaxStates: states, Dependent: true})
	if err != nil {
		return Commutation{}, err
	}
	c := Commutation{Dependence: dep.Name(), States: rep.States, Complete: rep.Complete, Independent: rep.Independent, Reordered: rep.Reordered,
		Dependent: rep.Dependent, DependentCommuting: rep.DependentCommuting}
	if rep.First != nil {
		c.Counterexample = rep.First.Describe(&sys)
	}
	return c, nil
}

func runOf(res *explorer.Result) Run {
	r := Run{
		Strategy: res.Strategy, Dependence: res.Dependence,
		Schedules: res.Stats.Schedules, Steps: res.Stats.Steps,
		Seconds:   res.Stats.Explore.Seconds(),
		Canonical: len(res.Canonical), Complete: res.Complete,
		Interrupted: res.Stats.Interrupted,
	}
	for _, c := range res.Canonical {
		if !c.Linearizable {
			r.Violations++
		}
	}
	return r
}

// Strategies lists the strategies that reduce by a dependence relation — the DPOR
// family, which Compare compares — in dpor's order.
func Strategies() []string {
	var out []string
	for _, name := range dpor.StrategyNames() {
		if st, err := dpor.New(name, dpor.Config{}); err == nil && dpor.RelationOf(st) != nil {
			out = append(out, name)
		}
	}
	return out
}

// historySet is a set of canonical histories, by hash and then by equality.
type historySet struct {
	list   []explorer.CanonicalHistory
	byHash map[uint64][]int
}

func newHistorySet(list []explorer.CanonicalHistory) *historySet {
	s := &historySet{list: list, byHash: make(map[uint64][]int, len(list))}
	for i := range list {
		h := list[i].History.Hash()
		s.byHash[h] = append(s.byHash[h], i)
	}
	return s
}

func (s *historySet) has(c *histories.Canonical) bool {
	for _, i := range s.byHash[c.Hash()] {
		if s.list[i].History.Equal(c) {
			return true
		}
	}
	return false
}
