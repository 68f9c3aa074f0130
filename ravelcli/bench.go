package ravelcli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/report"
)

// benchAbbrev is the DS2 paper's column name of each strategy.
var benchAbbrev = map[string]string{
	"exhaustive": "EX", "random": "SR", "delay-bounded": "DB", "dpor": "DP", "dpor-source": "DPS",
	"transdpor": "TD", "ired": "IR", "liviola": "LV",
}

type benchFlags struct {
	systems, strategies, harnesses string
	maxSchedules                   int64
	maxDepth                       int
	agents                         int
	seed                           int64
	delays                         int
	dependence                     string
	markdown, json, quiet          bool
	retries                        int
	st                             bool
}

func (c *catalog) cmdBench(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) > 0 && args[0] == "samplers" {
		return c.cmdBenchSamplers(args[1:], stdout, stderr)
	}
	var f benchFlags
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&f.systems, "systems", strings.Join(c.names(), ","), "comma-separated systems")
	fs.StringVar(&f.strategies, "strategies", strings.Join(dpor.StrategyNames(), ","), "comma-separated strategies")
	fs.StringVar(&f.harnesses, "harness", "", "comma-separated harnesses (default: each system's)")
	fs.Int64Var(&f.maxSchedules, "max-schedules", explorer.DefaultMaxSchedules, "the schedule budget of each run (the paper's cutoff); 0 means no limit, except for random, which then gets 50,000")
	fs.IntVar(&f.maxDepth, "max-depth", explorer.DefaultMaxDepth, "cut a schedule after this many steps; 0 means no limit")
	fs.IntVar(&f.agents, "agents", 0, "the number of agents (default: each system's)")
	retriesVar(fs, &f.retries, "the retry limit of systems that retry: at most `N` retries; 0 means none (default: each system's)")
	fs.Int64Var(&f.seed, "seed", 1, "the seed of the random strategy")
	fs.IntVar(&f.delays, "delays", 3, "the delay bound of delay-bounded")
	fs.StringVar(&f.dependence, "dependence", "", "the dependence relation of the DPOR family (default: each strategy's)")
	fs.BoolVar(&f.markdown, "markdown", false, "print Markdown tables")
	fs.BoolVar(&f.json, "json", false, "print one JSON array of the runs' reports")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on standard error")
	fs.BoolVar(&f.st, "st", true, "also run each configuration statelessly, for the paper's ST row (--st=false skips it)")
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printHelp(stdout, "Usage: ravel bench [flags]\n\nRuns every strategy on every system and harness and prints one table per system and harness, in the layout of the DS2 paper's Tables A2–A11.\n\nThe randomized samplers are benchmarked apart, on Ozkan et al. 2019's micro-benchmark: see ravel bench samplers -h.\n\nFlags:\n", fs)
		return exitOK, nil
	}
	if err != nil {
		return 0, usagef("bench: %v (see ravel bench -h)", err)
	}
	if len(pos) > 0 {
		return 0, usagef("bench takes no arguments, got %q", strings.Join(pos, " "))
	}
	if f.markdown && f.json {
		return 0, usagef("bench: --markdown and --json exclude each other")
	}
	systemNames, err := splitOnce("bench", "--systems", f.systems)
	if err != nil {
		return 0, err
	}
	var entries []System
	for _, name := range systemNames {
		e, err := c.lookup(name)
		if err != nil {
			return 0, usagef("bench: %v", err)
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return 0, usagef("bench: no systems to run (valid: %s)", c.validNames())
	}
	ef := exploreFlags{maxSchedules: f.maxSchedules, maxDepth: f.maxDepth, agents: f.agents, retries: f.retries, delays: f.delays, dependence: f.dependence}
	if err := ef.validate("bench", fs); err != nil {
		return 0, err
	}
	strategies, err := splitOnce("bench", "--strategies", f.strategies)
	if err != nil {
		return 0, err
	}
	harnessNames, err := splitOnce("bench", "--harness", f.harnesses)
	if err != nil {
		return 0, err
	}
	for _, s := range strategies {
		strat, err := dpor.New(s, dpor.Config{Dependence: f.dependence, Delays: f.delays})
		if err != nil {
			return 0, usagef("bench: %v", err)
		}
		// A flag that applies to some of the strategies only is noted, not refused.
		for _, note := range inapplicableNotes("bench", fs, applyFacts{name: s, strat: strat}) {
			if !f.quiet {
				fmt.Fprintln(stderr, note)
			}
		}
	}
	if err := buildEach("bench", entries, harnessNames, true, f.agents, f.retries); err != nil {
		return 0, err
	}
	ctx, stop := interruptContext(stderr, c.name())
	defer stop()
	var all []checkReport
	for _, e := range entries {
		harnesses := runHarnesses(e, harnessNames, true)
		agents := f.agents
		if agents == 0 {
			agents = e.Agents
		}
		var table []checkReport
		for _, h := range harnesses {
			table = table[:0]
			for _, sname := range strategies {
				r, err := benchOne(ctx, e, h, agents, sname, &f, stderr)
				if err != nil {
					return 0, err
				}
				table = append(table, r)
				if ctx.Err() != nil {
					break
				}
			}
			all = append(all, table...)
			if !f.json {
				printBenchTable(stdout, e.Name, h, agents, table, f.markdown)
			}
			if ctx.Err() != nil {
				return exitInterrupted, nil
			}
		}
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return exitOK, enc.Encode(all)
	}
	return exitOK, nil
}

func benchOne(ctx context.Context, e System, harness string, agents int, sname string, f *benchFlags, stderr io.Writer) (checkReport, error) {
	retries := f.retries
	if retries < 0 {
		retries = e.Retries
	}
	sys, err := e.New(Config{Agents: agents, Harness: harness, Retries: retries})
	if err != nil {
		return checkReport{}, usagef("bench %s: %v", e.Name, err)
	}
	strat, err := dpor.New(sname, dpor.Config{Seed: f.seed, Delays: f.delays, Dependence: f.dependence})
	if err != nil {
		return checkReport{}, usagef("bench: %v", err)
	}
	budget := f.maxSchedules
	if _, ok := strat.(dpor.Sampler); ok && budget == 0 {
		budget = explorer.DefaultMaxSchedules
	}
	info := runInfo{System: e.Name, Harness: harness, Strategy: sname, Agents: agents, Retries: retries, Seed: f.seed, MaxSchedules: budget, MaxDepth: f.maxDepth}
	if dep := dpor.RelationOf(strat); dep != nil {
		info.Dependence = dep.Name()
	}
	if sname == "delay-bounded" {
		info.Delays = &f.delays
	}
	if !f.quiet {
		fmt.Fprintf(stderr, "bench: %s %s %s …\n", e.Name, harness, sname)
	}
	opts := explorer.Options{Strategy: strat, MaxSchedules: budgetOf(budget), MaxDepth: int(budgetOf(int64(f.maxDepth)))}
	res, err := explorer.Run(ctx, sys, opts)
	if err != nil {
		return checkReport{}, fmt.Errorf("bench %s %s %s: %w", e.Name, harness, sname, err)
	}
	r := newCheckReport(info, res, &sys)
	if _, sampler := strat.(dpor.Sampler); f.st && !sampler && ctx.Err() == nil {
		// The same run without snapshots: every schedule re-executed from the start.
		strat, _ = dpor.New(sname, dpor.Config{Seed: f.seed, Delays: f.delays, Dependence: f.dependence})
		opts.Strategy, opts.Stateless = strat, true
		st, err := explorer.Run(ctx, sys, opts)
		if err != nil {
			return checkReport{}, fmt.Errorf("bench %s %s %s (stateless): %w", e.Name, harness, sname, err)
		}
		if st.Stats.Schedules != res.Stats.Schedules {
			return checkReport{}, fmt.Errorf("bench %s %s %s: the stateless run explored %d schedules, the stateful one %d", e.Name, harness, sname, st.Stats.Schedules, res.Stats.Schedules)
		}
		secs := st.Stats.Explore.Seconds()
		r.StatelessSeconds = &secs
	}
	return r, nil
}

// budgetOf turns the command line's "0 means no limit" into the explorer's.
func budgetOf(n int64) int64 { return budget(n) }

func split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// splitOnce splits the comma-separated value of flag, refusing a name given twice, which
// would run the same thing twice and print it twice.
func splitOnce(cmd, flag, value string) ([]string, error) {
	names := split(value)
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return nil, usagef("%s: %s names %s twice", cmd, flag, n)
		}
	}
	return names, nil
}

// runHarnesses are the harnesses bench or deps runs e under: those of --harness, else
// all of e's (all) or its first.
func runHarnesses(e System, harnesses []string, all bool) []string {
	switch {
	case len(harnesses) > 0:
		return harnesses
	case all:
		return e.Harnesses
	}
	return e.Harnesses[:1]
}

// buildEach builds every system under every harness bench or deps will run it under, so
// that a harness, or a count of agents or retries, that one of them does not take is
// refused before the first run rather than after the others' results.
func buildEach(cmd string, entries []System, harnesses []string, all bool, agents, retries int) error {
	for _, e := range entries {
		cfg := Config{Agents: cmp.Or(agents, e.Agents), Retries: retries}
		if retries < 0 {
			cfg.Retries = e.Retries
		}
		for _, h := range runHarnesses(e, harnesses, all) {
			cfg.Harness = h
			if _, err := e.New(cfg); err != nil {
				return usagef("%s %s: %v", cmd, e.Name, err)
			}
		}
	}
	return nil
}

// printBenchTable prints one table in the paper's layout: a row per metric, a column
// per strategy.
func printBenchTable(w io.Writer, system, harness string, agents int, runs []checkReport, markdown bool) {
	if len(runs) == 0 {
		return
	}
	var ex *checkReport
	for i := range runs {
		if runs[i].Strategy == "exhaustive" {
			ex = &runs[i]
		}
	}
	cols := make([]string, len(runs))
	for i, r := range runs {
		cols[i] = benchAbbrev[r.Strategy]
		if r.Dependence != "" {
			cols[i] += "·" + r.Dependence
		}
	}
	type row struct {
		name string
		cell func(r checkReport) string
	}
	count := func(n int64, r checkReport) string {
		if !r.Complete && r.Schedules == r.MaxSchedules && r.MaxSchedules > 0 {
			return report.Thousands(n) + "*"
		}
		return report.Thousands(n)
	}
	rows := []row{
		{"#S", func(r checkReport) string { return count(r.Schedules, r) }},
		{"#IH", func(r checkReport) string { return report.Thousands(r.HistoriesIncomplete) }},
		{"#UH", func(r checkReport) string { return report.Thousands(r.HistoriesUnique) }},
		{"#CH", func(r checkReport) string { return report.Thousands(r.HistoriesCanonical) }},
		{"#NL", func(r checkReport) string { return report.Thousands(r.Nonlinearizable) }},
		{"NL/UH", func(r checkReport) string { return percent(r.Quality) }},
		{"UH/S", func(r checkReport) string { return percent(r.Progression) }},
		{"NL/S", func(r checkReport) string { return percent(r.Precision) }},
		{"TS", func(r checkReport) string { return seconds(r.ExploreSeconds) }},
		{"ST", func(r checkReport) string {
			if r.StatelessSeconds == nil {
				return "-"
			}
			return seconds(*r.StatelessSeconds)
		}},
		{"TC", func(r checkReport) string { return seconds(r.CheckSeconds) }},
		{"TT", func(r checkReport) string { return seconds(r.TotalSeconds) }},
		{"#HF", func(r checkReport) string {
			if r.HistoriesBeforeFirst == nil {
				return "-"
			}
			return report.Thousands(*r.HistoriesBeforeFirst)
		}},
		{"TF", func(r checkReport) string {
			if r.FirstViolationSeconds == nil {
				return "-"
			}
			return seconds(*r.FirstViolationSeconds)
		}},
		{"#S÷EX", func(r checkReport) string {
			if ex == nil || ex.Schedules == 0 {
				return "-"
			}
			return fmt.Sprintf("%.3f", float64(r.Schedules)/float64(ex.Schedules))
		}},
		{"S/s", func(r checkReport) string { return report.Thousands(int64(r.SchedulesPerSecond)) }},
	}
	title := fmt.Sprintf("%s, harness %s, %d agents, cutoff %s schedules", system, harness, agents, report.Thousands(runs[0].MaxSchedules))
	if runs[0].MaxSchedules == 0 {
		title = fmt.Sprintf("%s, harness %s, %d agents, no cutoff", system, harness, agents)
	}
	if markdown {
		fmt.Fprintf(w, "\n**%s**\n\n| |%s|\n|---|%s\n", title, strings.Join(cols, "|"), strings.Repeat("---:|", len(cols)))
		for _, rw := range rows {
			cells := make([]string, len(runs))
			for i, r := range runs {
				cells[i] = rw.cell(r)
			}
			fmt.Fprintf(w, "|%s|%s|\n", rw.name, strings.Join(cells, "|"))
		}
		fmt.Fprintln(w, "\n\\* stopped at the cutoff")
		return
	}
	fmt.Fprintf(w, "\n%s\n", title)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t%s\t\n", strings.Join(cols, "\t"))
	for _, rw := range rows {
		cells := make([]string, len(runs))
		for i, r := range runs {
			cells[i] = rw.cell(r)
		}
		fmt.Fprintf(tw, "%s\t%s\t\n", rw.name, strings.Join(cells, "\t"))
	}
	tw.Flush()
	fmt.Fprintln(w, "* stopped at the cutoff")
}
