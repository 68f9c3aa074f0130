package ravelcli

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
)

// exploreFlags are the flags check and bench share. validate is the one place their
// values are checked, so that both commands refuse the same things in the same words.
type exploreFlags struct {
	maxSchedules int64
	maxDepth     int
	agents       int // 0: the system's default
	retries      int // -1: the system's default
	delays       int
	dependence   string
}

// validate checks the values of f; fs tells which flags were given explicitly (a flag
// whose default is a "use the system's" sentinel may not be given that sentinel).
func (f exploreFlags) validate(cmd string, fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case f.maxSchedules < 0:
		return usagef("%s: --max-schedules must be 0 (no limit) or positive, got %d", cmd, f.maxSchedules)
	case f.maxDepth < 0:
		return usagef("%s: --max-depth must be 0 (no limit) or positive, got %d", cmd, f.maxDepth)
	case f.agents < 0 || (set["agents"] && f.agents == 0):
		return usagef("%s: --agents must be at least 1, got %d", cmd, f.agents)
	case f.agents > explorer.MaxActors:
		return usagef("%s: --agents %d is more than the %d actors a system may have (%s)", cmd, f.agents, explorer.MaxActors, explorer.MaxActorsWhy)
	case f.retries < -1 || (set["retries"] && f.retries < 0):
		return usagef("%s: --retries must be 0 (none) or positive, got %d", cmd, f.retries)
	case f.delays < 0:
		return usagef("%s: --delays must be 0 or positive, got %d", cmd, f.delays)
	}
	return nil
}

// validateStrategy checks what depends on the strategy: a sampler needs a budget, and
// --dependence and --delays mean nothing to a strategy that ignores them. strict refuses
// an ignored flag (check, which runs one strategy); otherwise the ignored flag is only
// reported through note (bench, which runs several).
func (f exploreFlags) validateStrategy(cmd string, fs *flag.FlagSet, strat dpor.Strategy, strict bool, note func(string)) error {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if _, ok := strat.(dpor.Sampler); ok && f.maxSchedules == 0 && strict {
		return usagef("%s: the %s strategy never ends by itself: give it a --max-schedules budget", cmd, strat.Name())
	}
	var ignored []string
	if set["dependence"] && dpor.RelationOf(strat) == nil {
		ignored = append(ignored, "--dependence")
	}
	if set["delays"] && strat.Name() != "delay-bounded" {
		ignored = append(ignored, "--delays")
	}
	for _, fl := range ignored {
		msg := fmt.Sprintf("%s: the %s strategy ignores %s", cmd, strat.Name(), fl)
		if strict {
			return usagef("%s (it applies to %s)", msg, appliesTo(fl))
		}
		note(msg)
	}
	return nil
}

func appliesTo(fl string) string {
	if fl == "--delays" {
		return "delay-bounded"
	}
	return "dpor, transdpor, ired and liviola"
}

// visitedFlagsApply refuses --visited-mem and --visited-dir, given explicitly, with a
// strategy whose stateful variant keeps its own record of the visited states
// (dpor.StateKeeper, stateful DPOR): that record is in memory, so a budget the user set
// would be silently ignored.
func visitedFlagsApply(cmd string, fs *flag.FlagSet, strat dpor.Strategy) error {
	c, ok := strat.(dpor.Cacheable)
	if !ok {
		return nil
	}
	if _, keeps := c.Stateful().(dpor.StateKeeper); !keeps {
		return nil
	}
	var given []string
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "visited-mem" || fl.Name == "visited-dir" {
			given = append(given, "--"+fl.Name)
		}
	})
	if len(given) == 0 {
		return nil
	}
	return usagef("%s: %s does not apply to %s with state caching: stateful DPOR keeps every visited state in its graph, in memory, and never spills (docs/strategies.md); drop the flag and bound its states with --max-states, or use exhaustive with --state-caching on, whose visited states spill", cmd, strings.Join(given, " and "), strat.Name())
}

// retriesVar defines --retries on fs, stored in p: -1 (the system's own retry limit)
// until the flag is given. The help shows usage alone, not the sentinel as a default
// ("(default -1)"), which the flag refuses (validate).
func retriesVar(fs *flag.FlagSet, p *int, usage string) {
	*p = -1
	fs.Var(systemInt{p}, "retries", usage)
}

// systemInt is an int flag whose negative value means "the system's own": its String is
// empty then, as it is for its zero value, so the help prints no default for it.
type systemInt struct{ p *int }

// String is the value given, or "" while it is the system's own.
func (v systemInt) String() string {
	if v.p == nil || *v.p < 0 {
		return ""
	}
	return strconv.Itoa(*v.p)
}

// Set parses s as an int; validate judges its range.
func (v systemInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("parse error")
	}
	*v.p = n
	return nil
}
