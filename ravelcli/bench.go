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

// endTables ends a bench or deps run: with --json the runs gathered (an empty list, not
// null, when there are none), and after an interrupt exit 130 and, in text, a line saying
// the tables hold the runs finished so far — the partial figures, as check prints them.
func endTables[T any](ctx context.Context, stdout io.Writer, asJSON bool, runs []T) (int, error) {
	code := exitOK
	if ctx.Err() != nil {
		code = exitInterrupted
		if !asJSON {
			fmt.Fprintln(stdout, "\ninterrupted: the tables above hold the runs finished so far; † marks the run the interrupt stopped, whose figures cover the schedules it explored")
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if runs == nil {
			runs = []T{}
		}
		if err := enc.Encode(runs); err != nil {
			return 0, err
		}
	}
	return code, nil
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
		c.printHelp(stdout, "Usage: ravel bench [flags]\n\nRuns every strategy on every system and harness and prints one table per system and harness, in the layout of the DS2 paper's Tables A2–A11.\n\nThe randomized samplers are benchmarked apart, on Ozkan et al. 2019's micro-benchmark: see ravel bench samplers -h.\n\n"+benchLegend+"\nbench exits 0 when every run completes, whatever the runs find; 130 when interrupted, after printing the runs so far.\n\nFlags:\n", fs)
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
				printBenchTable(stdout, e.Name, h, agents, f.maxSchedules, table, f.markdown)
			}
			if ctx.Err() != nil {
				break
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	return endTables(ctx, stdout, f.json, all)
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
		if !f.quiet {
			fmt.Fprintf(stderr, "bench: %s %s %s, stateless, for ST …\n", e.Name, harness, sname)
		}
		st, err := explorer.Run(ctx, sys, opts)
		if err != nil {
			return checkReport{}, fmt.Errorf("bench %s %s %s (stateless): %w", e.Name, harness, sname, err)
		}
		if ctx.Err() != nil || st.Stats.Interrupted {
			// Interrupted: the stateless run stopped short, so its time is a lower bound
			// and its schedules are not comparable; the stateful figures stand.
			secs := st.Stats.Explore.Seconds()
			r.StatelessSeconds, r.StatelessInterrupted = &secs, true
			return r, nil
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

// benchLegend explains the rows of bench's tables; bench -h prints it.
const benchLegend = `Each table is one system and harness; a column per strategy (EX exhaustive, SR random,
DB delay-bounded, DP dpor: optimal DPOR with wakeup trees, DPS dpor-source: source sets
and sleep sets, TD transdpor, IR ired, LV liviola; ·R names the dependence relation R),
a row per metric, as the DS2 paper's Tables A2–A11:
  #S     schedules explored
  #IH    incomplete histories (an operation never invoked or never answered)
  #UH    chronologically unique histories (the order of every invocation and response)
  #CH    canonically unique histories (operations, results and real-time order: what
         linearizability sees)
  #NL    non-linearizable histories among #UH (chronological, as the paper counts)
  #NLC   non-linearizable histories among #CH (canonical, as check and deps count)
  #P     schedules ending in a panic, a bad response or a failed assertion (printed when
         a run has any)
  NL/UH  quality; UH/S progression; NL/S precision
  TS     exploring time, checking excluded; ST the same run without snapshots (every
         schedule re-executed from the start; - with --st=false and for random)
  TC     checking time, which overlaps exploring: TT, the time until every history was
         checked, is not TS+TC
  #HF    unique histories before the first violation of any kind (a non-linearizable
         history, a panic or a failed assertion), TF the time to it; - when none
  #S÷EX  the strategy's schedules over exhaustive search's; above 1 for random, which
         draws with replacement; ≤ when exhaustive search stopped short and this run did
         not, - when both did
  S/s    schedules per second
A * marks a run stopped at the cutoff (--max-schedules), a † one stopped by an interrupt.
`

// printBenchTable prints one table in the paper's layout: a row per metric, a column
// per strategy. maxSchedules is --max-schedules, the cutoff the title names.
func printBenchTable(w io.Writer, system, harness string, agents int, maxSchedules int64, runs []checkReport, markdown bool) {
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
	// cut: the run stopped at the cutoff; its schedule count is where it stopped.
	cut := func(r checkReport) bool {
		return !r.Complete && !r.Interrupted && r.Schedules == r.MaxSchedules && r.MaxSchedules > 0
	}
	starred, daggered, panics := false, false, false
	for _, r := range runs {
		starred = starred || cut(r)
		daggered = daggered || r.Interrupted || r.StatelessInterrupted
		panics = panics || r.Panics > 0
	}
	count := func(n int64, r checkReport) string {
		switch {
		case r.Interrupted:
			return report.Thousands(n) + "†"
		case cut(r):
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
		{"#NLC", func(r checkReport) string { return report.Thousands(r.NonlinearizableCanonical) }},
	}
	if panics {
		rows = append(rows, row{"#P", func(r checkReport) string { return report.Thousands(r.Panics) }})
	}
	rows = append(rows, []row{
		{"NL/UH", func(r checkReport) string { return percent(r.Quality) }},
		{"UH/S", func(r checkReport) string { return percent(r.Progression) }},
		{"NL/S", func(r checkReport) string { return percent(r.Precision) }},
		{"TS", func(r checkReport) string { return seconds(r.ExploreSeconds) }},
		{"ST", func(r checkReport) string {
			switch {
			case r.StatelessSeconds == nil:
				return "-"
			case r.StatelessInterrupted:
				return seconds(*r.StatelessSeconds) + "†"
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
			ratio := fmt.Sprintf("%.3f", float64(r.Schedules)/float64(ex.Schedules))
			if exCut := cut(*ex) || ex.Interrupted; exCut {
				// Exhaustive search's count is a lower bound: a run that ended by
				// itself explored at most this share, one that stopped short says nothing.
				if cut(r) || r.Interrupted {
					return "-"
				}
				return "≤" + ratio
			}
			return ratio
		}},
		{"S/s", func(r checkReport) string { return report.Thousands(int64(r.SchedulesPerSecond)) }},
	}...)
	cutoff := "no cutoff"
	if maxSchedules > 0 {
		cutoff = "cutoff " + report.Count(maxSchedules, "schedule")
	} else {
		// With no cutoff the samplers still get a budget (benchOne): say whose.
		for _, r := range runs {
			if r.MaxSchedules > 0 {
				cutoff += fmt.Sprintf(" (%s: %s)", r.Strategy, report.Count(r.MaxSchedules, "schedule"))
			}
		}
	}
	title := fmt.Sprintf("%s, harness %s, %s, %s", system, harness, plural(agents, "agent"), cutoff)
	var notes []string
	if starred {
		notes = append(notes, "* stopped at the cutoff")
	}
	if daggered {
		notes = append(notes, "† interrupted: the figure covers the run until then")
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
		if len(notes) > 0 {
			fmt.Fprintln(w)
		}
		for _, n := range notes {
			fmt.Fprintln(w, strings.NewReplacer("*", "\\*").Replace(n))
		}
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
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
}
