package ravelcli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ravelmc/ravel/depbench"
	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
)

type depsFlags struct {
	systems, harnesses, strategies, dependences string
	maxSchedules                                int64
	maxDepth, agents, retries                   int
	cached, commute                             bool
	commuteStates                               int
	markdown, json, quiet                       bool
}

const depsUsage = `Usage: ravel deps [flags]

Compares dependence relations side by side. For every system and harness, it runs
exhaustive search, then every strategy of the DPOR family with every relation, on the
same configuration and budgets, and prints one row per strategy and relation: schedules,
steps (handler runs), time, canonical histories found, the share of exhaustive
search's canonical histories they include, the non-linearizable ones they miss, schedules
over exhaustive search's (#S÷EX; "-" with --cached-baseline, whose schedules are not
comparable), and the first missed history as a timeline. A * marks a run stopped at a
budget, a † one stopped by an interrupt. With --commute (the default) it also checks each
relation's contract on the system's states: symmetric, and two steps it calls
independent commute (explorer.CheckCommutation).

deps exits 0 when every run completes, whatever the runs find; 130 when interrupted,
after printing the runs so far.

Relations: %s.

Flags:
`

func (c *catalog) cmdDeps(args []string, stdout, stderr io.Writer) (int, error) {
	var f depsFlags
	fs := flag.NewFlagSet("deps", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&f.systems, "systems", strings.Join(c.names(), ","), "comma-separated systems")
	fs.StringVar(&f.harnesses, "harness", "", "comma-separated harnesses (default: each system's first)")
	fs.StringVar(&f.strategies, "strategies", "dpor", "comma-separated strategies of the DPOR family: "+strings.Join(depbench.Strategies(), ", "))
	fs.StringVar(&f.dependences, "dependence", "", "comma-separated dependence relations (default: every registered one: "+strings.Join(dpor.Dependences(), ", ")+")")
	fs.Int64Var(&f.maxSchedules, "max-schedules", explorer.DefaultMaxSchedules, "the schedule budget of each run, exhaustive search's too; 0 means no limit")
	fs.IntVar(&f.maxDepth, "max-depth", explorer.DefaultMaxDepth, "cut a schedule after this many steps; 0 means no limit")
	fs.IntVar(&f.agents, "agents", 0, "the number of agents (default: each system's)")
	retriesVar(fs, &f.retries, "the retry limit of systems that retry: at most `N` retries; 0 means none (default: each system's)")
	fs.BoolVar(&f.cached, "cached-baseline", false, "run the exhaustive baseline with state caching: the same canonical histories, far fewer schedules where orders converge")
	fs.BoolVar(&f.commute, "commute", true, "also check each relation's contract on the system's states (--commute=false skips it)")
	fs.IntVar(&f.commuteStates, "commute-states", explorer.DefaultCommuteStates, "the states the contract check examines, breadth first; 0 means no limit")
	fs.BoolVar(&f.markdown, "markdown", false, "print Markdown tables")
	fs.BoolVar(&f.json, "json", false, "print one JSON array of the tables")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on standard error")
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printHelp(stdout, fmt.Sprintf(depsUsage, strings.Join(dpor.Dependences(), ", ")), fs)
		return exitOK, nil
	}
	if err != nil {
		return 0, usagef("deps: %v (see ravel deps -h)", err)
	}
	if len(pos) > 0 {
		return 0, usagef("deps takes no arguments, got %q", strings.Join(pos, " "))
	}
	if f.markdown && f.json {
		return 0, usagef("deps: --markdown and --json exclude each other")
	}
	if f.commuteStates < 0 {
		return 0, usagef("deps: --commute-states must be 0 (no limit) or positive, got %d", f.commuteStates)
	}
	ef := exploreFlags{maxSchedules: f.maxSchedules, maxDepth: f.maxDepth, agents: f.agents, retries: f.retries}
	if err := ef.validate("deps", fs); err != nil {
		return 0, err
	}
	systemNames, err := splitOnce("deps", "--systems", f.systems)
	if err != nil {
		return 0, err
	}
	var entries []System
	for _, name := range systemNames {
		e, err := c.lookup(name)
		if err != nil {
			return 0, usagef("deps: %v", err)
		}
		entries = append(entries, e)
	}
	strategies, err := splitOnce("deps", "--strategies", f.strategies)
	if err != nil {
		return 0, err
	}
	dependences, err := splitOnce("deps", "--dependence", f.dependences)
	if err != nil {
		return 0, err
	}
	harnessNames, err := splitOnce("deps", "--harness", f.harnesses)
	if err != nil {
		return 0, err
	}
	cfg := depbench.Config{
		Strategies: strategies, Dependences: dependences,
		MaxSchedules: budget(f.maxSchedules), MaxDepth: int(budget(int64(f.maxDepth))),
		CachedBaseline: f.cached, Commute: f.commute, CommuteStates: int(budget(int64(f.commuteStates))),
	}
	if len(cfg.Strategies) == 0 {
		return 0, usagef("deps: --strategies names none")
	}
	for _, d := range cfg.Dependences {
		if _, err := dpor.DependenceByName(d); err != nil {
			return 0, usagef("deps: %v", err)
		}
	}
	for _, s := range cfg.Strategies {
		// The valid names are those deps runs, not every strategy dpor knows.
		valid := depbench.Strategies()
		if slices.Contains(valid, s) {
			continue
		}
		if _, err := dpor.New(s, dpor.Config{}); err == nil {
			return 0, usagef("deps: strategy %q reduces by no dependence relation (valid: %s)", s, strings.Join(valid, ", "))
		}
		return 0, usagef("deps: unknown strategy %q (valid: %s)", s, strings.Join(valid, ", "))
	}
	if err := buildEach("deps", entries, harnessNames, false, f.agents, f.retries); err != nil {
		return 0, err
	}
	if !f.quiet {
		cfg.Progress = func(msg string) { fmt.Fprintf(stderr, "deps: %s\n", msg) }
	}
	ctx, stop := interruptContext(stderr, c.name())
	defer stop()
	var tables []*depbench.Table
	for _, e := range entries {
		harnesses := runHarnesses(e, harnessNames, false)
		agents := f.agents
		if agents == 0 {
			agents = e.Agents
		}
		retries := f.retries
		if retries < 0 {
			retries = e.Retries
		}
		for _, h := range harnesses {
			sys, err := e.New(Config{Agents: agents, Harness: h, Retries: retries})
			if err != nil {
				return 0, usagef("deps %s: %v", e.Name, err)
			}
			t, err := depbench.Compare(ctx, sys, e.Name, h, agents, cfg)
			if err != nil && ctx.Err() == nil {
				return 0, fmt.Errorf("deps: %w", err)
			}
			if t != nil {
				tables = append(tables, t)
				if !f.json {
					if err := depbench.Print(stdout, []*depbench.Table{t}, f.markdown); err != nil {
						return 0, err
					}
				}
			}
			if ctx.Err() != nil {
				break
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	return endTables(ctx, stdout, f.json, tables)
}
