package dpor

import (
	"fmt"
	"strings"
)

// Config holds the parameters strategies take.
type Config struct {
	// Seed drives the random sampler.
	Seed int64
	// Delays is the delay-bounded strategy's budget.
	Delays int
	// Dependence names the relation of the DPOR family ("actor", "history", "key"); empty
	// means the strategy's default: history, and key for LiViola.
	Dependence string
}

// Info describes a strategy for listings.
type Info struct {
	Name    string
	Summary string
	make    func(Config, Dependence) Strategy
	defDep  string
}

var strategies = []Info{
	{Name: "exhaustive", Summary: "every schedule, depth first (DS2's EX)",
		make: func(Config, Dependence) Strategy { return Exhaustive() }},
	{Name: "random", Summary: "independent uniform random walks to quiescence, each replayable from (seed, walk) (DS2's SR)",
		make: func(c Config, _ Dependence) Strategy { return Random(c.Seed) }},
	{Name: "delay-bounded", Summary: "every schedule with at most --delays deviations from a round-robin scheduler (Emmi et al. 2011; DS2's DB)",
		make: func(c Config, _ Dependence) Strategy { return DelayBounded(c.Delays) }},
	{Name: "dpor", Summary: "optimal DPOR: source sets with wakeup trees (Abdulla et al. 2014/2017); one schedule per equivalence class, none blocked by a sleep set; keeps every canonical history with --dependence history",
		make: func(_ Config, d Dependence) Strategy { return Optimal(d) }, defDep: "history"},
	{Name: "dpor-source", Summary: "DPOR with source sets and sleep sets, no wakeup trees (Abdulla et al. 2014, Algorithm 1): dpor before it was optimal, kept to compare",
		make: func(_ Config, d Dependence) Strategy { return DPOR(d) }, defDep: "history"},
	{Name: "transdpor", Summary: "TransDPOR: at most one backtrack point per visit, over-approximate enablers (Tasharofi et al. 2012)",
		make: func(_ Config, d Dependence) Strategy { return TransDPOR(d) }, defDep: "history"},
	{Name: "ired", Summary: "DS2's IRed: TransDPOR with the exact root of the causal chain; collapses retries",
		make: func(_ Config, d Dependence) Strategy { return IRed(d) }, defDep: "history"},
	{Name: "liviola", Summary: "DS2's LiViola: IRed over the key dependence; honours the system's exclusions",
		make: func(_ Config, d Dependence) Strategy { return LiViola(d) }, defDep: "key"},
}

// Strategies lists the strategies in a fixed order.
func Strategies() []Info { return strategies }

// StrategyNames lists the strategies' names.
func StrategyNames() []string {
	out := make([]string, len(strategies))
	for i, s := range strategies {
		out[i] = s.Name
	}
	return out
}

// New returns the named strategy with cfg; the error lists the valid names.
func New(name string, cfg Config) (Strategy, error) {
	for _, s := range strategies {
		if s.Name != name {
			continue
		}
		dname := cfg.Dependence
		if dname == "" {
			dname = s.defDep
		}
		var dep Dependence
		if dname != "" {
			d, err := DependenceByName(dname)
			if err != nil {
				return nil, err
			}
			dep = d
		}
		if name == "delay-bounded" && cfg.Delays < 0 {
			return nil, fmt.Errorf("--delays must be 0 or more, got %d", cfg.Delays)
		}
		return s.make(cfg, dep), nil
	}
	return nil, fmt.Errorf("unknown strategy %q (valid: %s)", name, strings.Join(StrategyNames(), ", "))
}

// RelationOf returns the dependence relation a strategy reduces by, or nil for the
// strategies that use none (exhaustive, random, delay-bounded).
func RelationOf(s Strategy) Dependence {
	if r, ok := s.(interface{ Relation() Dependence }); ok {
		return r.Relation()
	}
	return nil
}
