package dpor

import (
	"fmt"
	"strings"
)

// Config holds the parameters some strategies take.
type Config struct {
	// Seed drives randomized strategies.
	Seed int64
}

// Info describes a strategy for listings.
type Info struct {
	Name    string
	Summary string
	make    func(Config) Strategy
}

var strategies = []Info{
	{Name: "exhaustive", Summary: "every schedule, depth first (DS2's EX)", make: func(Config) Strategy { return Exhaustive() }},
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

// New returns the named strategy; the error lists the valid names.
func New(name string, cfg Config) (Strategy, error) {
	for _, s := range strategies {
		if s.Name == name {
			return s.make(cfg), nil
		}
	}
	return nil, fmt.Errorf("unknown strategy %q (valid: %s)", name, strings.Join(StrategyNames(), ", "))
}
