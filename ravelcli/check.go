package ravelcli

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/internal/panicsite"
	"github.com/ravelmc/ravel/internal/procmem"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/snapshot"
	"github.com/ravelmc/ravel/visited"
	"github.com/ravelmc/ravel/wgl"
	"github.com/ravelmc/ravel/workloads"
)

type checkFlags struct {
	harness      string
	strategy     string
	maxSchedules int64
	maxStates    int64
	maxDepth     int
	agents       int
	agentsAre    string // the system's word for agents (systems.Entry.AgentsAre), "" for "agents"
	seed         int64
	json         bool
	out          string
	quiet        bool
	reflective   bool
	prog         string // the command's name (catalog.name), for the replay line
	delays       int
	retries      int
	caching      string
	visitedMem   string
	visitedDir   string
	stateless    bool
	canonical    bool
	dependence   string
	histories    string
	ckpt         checkpointFlags
	workloads    string
	html         string
	sampling     samplerFlags
	faults       faultFlags

	// earlierHistories are, under --workloads, the --histories lines of the workloads
	// checked before the one finishCheck reports, for its file to hold them too.
	earlierHistories []string
}

// newCheckFlagSet declares check's flags. Parse errors are not printed by the flag
// package: cmdCheck reports them in one line.
func newCheckFlagSet(f *checkFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.harness, "harness", "", "the harness: what the clients do (default: the system's first; see ravel list)")
	fs.StringVar(&f.strategy, "strategy", "exhaustive", "the search strategy (see ravel list)")
	fs.Int64Var(&f.maxSchedules, "max-schedules", explorer.DefaultMaxSchedules, "stop after this many schedules (with --workloads, this many for each workload); 0 means no limit")
	fs.Int64Var(&f.maxStates, "max-states", 0, "with --state-caching on: stop after visiting this many distinct states, which bounds the memory; 0 means no limit")
	fs.IntVar(&f.maxDepth, "max-depth", explorer.DefaultMaxDepth, "cut a schedule after this many steps; 0 means no limit")
	fs.IntVar(&f.agents, "agents", 0, "the number of agents (default: the system's)")
	retriesVar(fs, &f.retries, "the retry limit of systems that retry: at most `N` retries; 0 means none (default: the system's)")
	fs.Int64Var(&f.seed, "seed", 1, "the seed of randomized strategies; printed with every result")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of text")
	fs.StringVar(&f.out, "out", "", "write the first violation to `FILE` as JSON, for ravel replay")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on standard error")
	fs.BoolVar(&f.reflective, "reflective", false, "use the reflective copy and fingerprint even where actors have Clone and HashState")
	fs.IntVar(&f.delays, "delays", 3, "delay-bounded: explore every schedule with at most this many delays")
	fs.StringVar(&f.dependence, "dependence", "", "the dependence relation of the DPOR family and the samplers: "+strings.Join(dpor.Dependences(), ", ")+" (default: history; key for liviola; actor for the samplers, for which it decides the draw of rapos and pos, the calibration, and which runs count as one trace; for random, only the last)")
	fs.StringVar(&f.caching, "state-caching", "off", "end a path at a state already visited: on or off (exhaustive, delay-bounded, dpor and dpor-source; not the samplers)")
	fs.BoolVar(&f.canonical, "canonical-states", false, "with --state-caching on (exhaustive, dpor and dpor-source): a state covers the canonical form of its history, not its order, so paths whose histories no canonical history tells apart meet; fewer states, the same canonical histories, fewer chronologically unique ones")
	fs.StringVar(&f.visitedMem, "visited-mem", "512MiB", "memory for the visited states (64KiB, 512MiB, 2GiB, …); beyond it they spill to disk")
	fs.StringVar(&f.visitedDir, "visited-dir", "", "where visited states spill to (default: a temporary directory removed at the end)")
	fs.BoolVar(&f.stateless, "stateless", false, "keep no snapshots: re-execute every schedule from the initial state (the paper's ST)")
	fs.StringVar(&f.histories, "histories", "", "write every canonical history found to `FILE`, one JSON line each with its verdict, sorted; with --workloads, those of every workload checked, each line naming its \"workload\"")
	addCheckpointFlags(fs, &f.ckpt)
	fs.StringVar(&f.workloads, "workloads", "", "check under generated workloads instead of the harness: "+workloads.Syntax+"; a key left out defaults to ops=3, clients=2, n=100, seed=1; SPEC#i, a workload's name as the report gives it (counted from 0), checks that one workload alone")
	fs.StringVar(&f.html, "html", "", "write the report as one self-contained HTML page to `FILE`")
	addSamplerFlags(fs, &f.sampling)
	f.faults.declare(fs)
	fs.Usage = func() {} // the flag package calls it on every error; cmdCheck reports errors itself
	return fs
}

// outputs are check's output files, in the order they are written.
func (f *checkFlags) outputs() []namedPath {
	return []namedPath{{"--out", f.out}, {"--histories", f.histories}, {"--html", f.html}}
}

func (c *catalog) printCheckUsage(fs *flag.FlagSet, w io.Writer) {
	c.printHelp(w, fmt.Sprintf("Usage: ravel check SYSTEM [flags]\n\nSystems: %s\n\nFlags:\n", c.validNames()), fs)
}

// parseInterleaved parses flags that may come before or after the positional arguments.
// A "true" or "false" right after a boolean flag is refused: the flag package reads it
// as an argument (a second system, a file), and the user meant --flag=false.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && (rest[0] == "true" || rest[0] == "false") {
			if name := strings.TrimLeft(args[used-1], "-"); isBoolFlag(fs, name) && !strings.Contains(name, "=") {
				return nil, fmt.Errorf("%s %s: a boolean flag takes its value after =, as --%s=%s", args[used-1], rest[0], name, rest[0])
			}
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// isBoolFlag says whether fs has a boolean flag name (one given without a value).
func isBoolFlag(fs *flag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (c *catalog) cmdCheck(args []string, stdout, stderr io.Writer) (int, error) {
	f := checkFlags{prog: c.name()}
	fs := newCheckFlagSet(&f)
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printCheckUsage(fs, stdout)
		return exitOK, nil
	}
	if err != nil {
		return 0, usagef("check: %v (see ravel check -h)", err)
	}
	if len(pos) != 1 {
		return 0, usagef("check needs exactly one system (valid: %s), got %d arguments", c.validNames(), len(pos))
	}
	entry, err := c.lookup(pos[0])
	if err != nil {
		return 0, usagef("check: %v", err)
	}
	outputs := f.outputs()
	if err := checkOutputs("check", outputs, []namedPath{{"--checkpoint", f.ckpt.dir}, {"--resume", f.ckpt.resume}, {"--visited-dir", f.visitedDir}}, stdout, stderr); err != nil {
		return 0, err
	}
	if f.harness == "" {
		f.harness = entry.Harnesses[0]
	}
	ef := exploreFlags{maxSchedules: f.maxSchedules, maxDepth: f.maxDepth, agents: f.agents, retries: f.retries, delays: f.delays, dependence: f.dependence, zeroAgents: entry.ZeroAgents}
	if err := ef.validate("check", fs); err != nil {
		return 0, err
	}
	if f.agents == 0 && !(entry.ZeroAgents && flagGiven(fs, "agents")) {
		f.agents = entry.Agents
	}
	f.agentsAre = entry.AgentsAre
	if f.retries < 0 {
		f.retries = entry.Retries
	}
	sys, err := entry.New(Config{Agents: configAgents(entry, f.agents), Harness: f.harness, Retries: f.retries})
	if err != nil {
		return 0, usagef("check %s: %v", entry.Name, err)
	}
	var strat dpor.Strategy
	var sampling *samplers.Config
	if isSampler(f.strategy) {
		if sampling, err = samplerConfig(f.strategy, &f.sampling, f.dependence); err != nil {
			return 0, usagef("check: %v", err)
		}
		strat = samplerStrategyName(sampling.Name)
	} else if !slices.Contains(dpor.StrategyNames(), f.strategy) {
		return 0, usagef("check: %v", unknownStrategy(f.strategy))
	} else if strat, err = dpor.New(f.strategy, dpor.Config{Seed: f.seed, Delays: f.delays, Dependence: f.dependence}); err != nil {
		return 0, usagef("check: %v", err)
	}
	if _, ok := strat.(dpor.Sampler); (ok || sampling != nil) && f.maxSchedules == 0 {
		return 0, usagef("check: %v", explorer.NeverEnds(f.strategy, "--max-schedules"))
	}
	opts := explorer.Options{Strategy: strat, MaxSchedules: budget(f.maxSchedules), MaxStates: f.maxStates, MaxDepth: int(budget(int64(f.maxDepth))), Reflective: f.reflective, Stateless: f.stateless}
	if err := f.faults.apply(&sys, &opts); err != nil {
		return 0, err
	}
	if f.caching != "on" && f.caching != "off" {
		return 0, usagef("check: --state-caching must be on or off, got %q", f.caching)
	}
	mem, err := visited.ParseSize(f.visitedMem)
	if err != nil {
		return 0, usagef("check: --visited-mem: %v", err)
	}
	// Before the checks of the values of flags that may not apply at all.
	facts := applyFacts{name: f.strategy, sampler: sampling, caching: f.caching == "on", ckpt: f.ckpt.dir != "" || f.ckpt.resume != "", sys: &sys}
	if sampling == nil {
		facts.strat = strat
	}
	if err := refuseInapplicable("check", fs, facts); err != nil {
		return 0, err
	}
	info := runInfo{System: entry.Name, Harness: f.harness, Strategy: strat.Name(), Agents: f.agents, Retries: f.retries, Seed: f.seed, MaxSchedules: f.maxSchedules, MaxStates: f.maxStates, MaxDepth: f.maxDepth, StateCaching: f.caching == "on", CanonicalStates: f.canonical, Stateless: f.stateless, Faults: faultsInfo(&sys), Reflective: f.reflective}
	if dep := dpor.RelationOf(strat); dep != nil {
		info.Dependence = dep.Name()
	}
	if f.strategy == "delay-bounded" {
		info.Delays = &f.delays
	}
	if sampling != nil && sampling.DeclaredRacy && sys.Racy == nil {
		return 0, usagef("check: --racy declared: %s declares no racy message types; use --racy auto", entry.Name)
	}
	if sampling != nil {
		info.Dependence = sampling.Dependence.Name()
		strat, opts.Strategy = nil, nil
		opts.Sampling, opts.Seed, opts.FirstRun = sampling, f.seed, f.sampling.run
	}
	if f.maxStates < 0 {
		return 0, usagef("check: --max-states must be 0 (no limit) or positive, got %d", f.maxStates)
	}
	switch f.caching {
	case "on":
		opts.StateCaching = true
		if sampling != nil {
			return 0, usagef("check: --state-caching on does not apply to the %s sampler: its runs are drawn independently, and ending one where an earlier run has been would change the distribution its guarantee is stated for; use dpor (stateful DPOR), exhaustive or delay-bounded, or --state-caching off", f.strategy)
		}
		if !dpor.CachingSound(strat) {
			return 0, usagef("check: --state-caching on is not sound with the %s strategy (it would lose the backtrack points of the paths it cuts); use dpor (stateful DPOR), exhaustive or delay-bounded, or --state-caching off", f.strategy)
		}
		if f.canonical {
			if !dpor.CanonicalStatesSound(strat) {
				return 0, usagef("check: --canonical-states loses canonical histories with the %s strategy (what it explores from a state depends on more than the state and its history's canonical form); use exhaustive, dpor or dpor-source, or drop the flag", f.strategy)
			}
			opts.CanonicalStates = true
		}
	}
	if mem == 0 {
		// explorer.Options would read 0 as its default, 512MiB, where the other budgets'
		// 0 means no limit: neither is what a user writing 0 may mean.
		return 0, usagef("check: --visited-mem must be at least %dKiB, got 0 (beyond it, visited states spill to disk; there is no unlimited setting)", visited.MinMemBytes>>10)
	}
	opts.VisitedMem, opts.VisitedDir = mem, f.visitedDir
	if opts.Checkpoint, err = f.ckpt.checkpointing(info, mem, f.reflective); err != nil {
		return 0, err
	}
	var resumeTold bool // the resume was noted as it succeeded, not at the end
	if opts.Checkpoint.Resume {
		opts.Checkpoint.OnResume = func(r explorer.Resumed) {
			resumeTold = true
			fmt.Fprintf(stderr, "%s: resumed the checkpoint in %s (%s), with %s; the search goes on from there\n", f.prog, opts.Checkpoint.Dir, resumedAt(info, &r), budgets(info))
		}
	}
	if !f.quiet {
		tick, stopWatch := watchStalls(stderr, f.prog)
		defer stopWatch()
		opts.ProgressEvery = progressEvery
		var prev explorer.Stats // the figures at the line before; none before the first
		opts.Progress = func(s explorer.Stats) {
			tick()
			anon := int64(-1)
			if u, ok := procmem.Read(); ok {
				anon = u.Anon
			}
			fmt.Fprintln(stderr, progressLine(f.prog, s, prev, opts.StateCaching, anon))
			prev = s
		}
	}
	if err := prepareOutputs("check", outputs); err != nil {
		return 0, err
	}
	ctx, stop := interruptContext(stderr, c.name())
	defer stop()
	if f.workloads != "" {
		return checkWorkloads(ctx, stdout, stderr, sys, opts, info, f)
	}
	defer tuneCollector(opts)()
	sampler := procmem.Start(0)
	res, runErr := runSearch(ctx, sys, opts)
	peak, measured := sampler.Stop()
	if res == nil {
		return 0, fmt.Errorf("check %s: %w", entry.Name, runErr)
	}
	noteCheckpoint(stderr, f.prog, opts.Checkpoint, info, res, runErr, resumeTold)
	return finishCheck(stdout, stderr, &sys, info, res, runErr, f, newMemoryJSON(peak, measured))
}

// runSearch is the search check runs; tests replace it to make Ravel's own disk fail.
var runSearch = explorer.Run

// beyondBudget explains figures above their budget: a resumed checkpoint had spent more
// than this run's budget before it started (checkReport.Resumed).
func beyondBudget(r checkReport, got, budget int64) string {
	if r.Resumed == nil || !r.Resumed.Spent || got <= budget {
		return ""
	}
	return "; the checkpoint resumed had already gone beyond it"
}

// finishCheck writes the files asked for, prints the report, and returns the exit
// status. Whatever failed late — the run's own store (runErr), a file — is reported
// after the report and its violation, never instead of them.
func finishCheck(stdout, stderr io.Writer, sys *model.System, info runInfo, res *explorer.Result, runErr error, f checkFlags, memory *memoryJSON) (int, error) {
	info.Clients = report.Clients(sys) // what the harness does, for replay to check
	report := newCheckReport(info, res, sys)
	report.agentsAre = f.agentsAre
	report.crashStopNote = crashStopNote(sys, info.System, f.faults.crashStop)
	report.Memory = memory
	report.prog = f.prog
	report.ReflectiveCopies, report.reflective = snapshot.Mode{Reflective: f.reflective}.ReflectiveCopies(sys.Actors), f.reflective
	var errs []error
	switch {
	case wgl.IsSpecBug(runErr):
		errs = append(errs, fmt.Errorf("check %s: %w", info.System, runErr))
	case runErr != nil:
		errs = append(errs, fmt.Errorf("check %s: %w (the figures cover the search until then)", info.System, runErr))
		var store *visited.StoreError
		report.Error, report.storeFailed = runErr.Error(), errors.As(runErr, &store)
	}
	if f.histories != "" {
		lines, err := historyLines(sys, res, info.Workload)
		if err == nil {
			err = writeHistories(f.histories, append(slices.Clone(f.earlierHistories), lines...))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("check: --histories: %w", err))
		}
	}
	saved, page := "", ""
	if f.out != "" && report.FirstViolation != nil {
		if err := writeViolation(f.out, info, res.First, *report.FirstViolation); err != nil {
			errs = append(errs, fmt.Errorf("check: --out: %w", err))
		} else {
			saved = f.out
		}
	}
	if f.html != "" {
		if err := writeCheckHTML(f.html, sys, report, res); err != nil {
			errs = append(errs, fmt.Errorf("check: --html: %w", err))
		} else {
			page = f.html
		}
	}
	if f.json {
		report.Notes = append(checkCaveats(report), checkHints(report)...)
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			errs = append(errs, err)
		}
	} else {
		printCheck(stdout, sys, report, res, saved, page)
		if res.Sampling != nil && report.HistoriesUnjudged == 0 {
			fmt.Fprintln(stdout)
			replay := ""
			if report.Workload != "" {
				replay = "--workloads " + report.Workload + " "
			}
			printSamplingReplay(stdout, res.Sampling, replay)
		}
	}
	code := exitOK
	switch {
	case res.First.OfModel():
		code = exitUsage // as for a system refused before the search
	case res.First != nil:
		code = exitViolation
	case res.Stats.Interrupted:
		code = exitInterrupted
	}
	for _, err := range errs {
		code = lateFailure(stderr, f.prog, code, err)
	}
	return code, nil
}

// budget turns the command line's "0 means no limit" into the explorer's.
func budget(n int64) int64 {
	if n == 0 {
		return explorer.Unlimited
	}
	return n
}

// printCheck prints the report; out and page are the files --out and --html wrote, if any.
func printCheck(w io.Writer, sys *model.System, r checkReport, res *explorer.Result, out, page string) {
	if r.Workload != "" {
		// The workload stands in for the harness (which the file keeps, for replay).
		fmt.Fprintf(w, "ravel check %s  workload %s  strategy %s", r.System, r.Workload, r.Strategy)
	} else {
		fmt.Fprintf(w, "ravel check %s  harness %s  strategy %s", r.System, r.Harness, r.Strategy)
	}
	if r.Dependence != "" {
		fmt.Fprintf(w, "  dependence %s", r.Dependence)
	}
	if r.Delays != nil {
		fmt.Fprintf(w, "  delays %d", *r.Delays)
	}
	fmt.Fprintf(w, "  %s %d  seed %d", cmp.Or(r.agentsAre, "agents"), r.Agents, r.Seed)
	if faults := r.Faults.Describe(); faults != "" {
		fmt.Fprintf(w, "  %s", faults)
	}
	fmt.Fprintln(w)
	for _, note := range checkCaveats(r) {
		fmt.Fprintln(w, note)
	}
	switch {
	case r.HistoriesUnjudged > 0:
		fmt.Fprintln(w, "search: stopped — the specification panicked on a history (below), so nothing is verified")
	case r.Error != "":
		what := "Ravel failed"
		if r.storeFailed {
			what = "the visited-state store failed"
		}
		fmt.Fprintf(w, "search: stopped — %s (the error below); the figures cover the search until then\n", what)
	case r.Complete:
		fmt.Fprintln(w, "search: complete — every schedule the strategy selects was explored")
	case r.Interrupted:
		fmt.Fprintln(w, "search: interrupted — the figures below cover the schedules explored so far")
	case r.MaxStates > 0 && r.States >= r.MaxStates:
		fmt.Fprintf(w, "search: incomplete — stopped at the state budget (--max-states %s)%s\n", report.Thousands(r.MaxStates), beyondBudget(r, r.States, r.MaxStates))
	case cutByDepth(r):
		were := "schedules were"
		if r.CutSchedules == 1 {
			were = "schedule was"
		}
		fmt.Fprintf(w, "search: incomplete — %s %s cut at the depth budget (--max-depth %d)\n", report.Thousands(r.CutSchedules), were, r.MaxDepth)
	default:
		fmt.Fprintf(w, "search: incomplete — stopped at the schedule budget (--max-schedules %s)%s%s\n", report.Thousands(r.MaxSchedules), beyondBudget(r, r.Schedules, r.MaxSchedules), mostlyCutNote(r))
	}
	for _, hint := range checkHints(r) {
		fmt.Fprintln(w, hint)
	}
	row := func(sym, name, val string) { fmt.Fprintf(w, "  %-5s %-44s %s\n", sym, name, val) }
	row("#S", "schedules", report.Thousands(r.Schedules))
	row("", "steps (messages delivered)", report.Thousands(r.Steps))
	row("", "longest schedule (steps)", fmt.Sprint(r.MaxDepthReached))
	row("", "cut schedules (depth budget)", report.Thousands(r.CutSchedules))
	if r.CycleSchedules > 0 {
		row("", "schedules ending in a cycle", report.Thousands(r.CycleSchedules))
	}
	if r.Dependence != "" {
		row("", "paths blocked by sleep sets (no schedule)", report.Thousands(r.SleepBlocked))
	}
	row("#IH", "incomplete histories", report.Thousands(r.HistoriesIncomplete))
	row("#UH", "unique histories (chronological)", report.Thousands(r.HistoriesUnique))
	row("#CH", "unique histories (canonical)", report.Thousands(r.HistoriesCanonical))
	row("#NL", "non-linearizable unique histories", report.Thousands(r.Nonlinearizable))
	row("", "non-linearizable canonical histories", report.Thousands(r.NonlinearizableCanonical))
	row("NL/UH", "quality", percent(r.Quality))
	row("UH/S", "progression", percent(r.Progression))
	row("NL/S", "precision", percent(r.Precision))
	if r.Panics > 0 {
		row("", "schedules ending in a panic, bad response or failed assertion", report.Thousands(r.Panics))
	}
	if r.StateCaching {
		states := "states (unique)"
		if r.CanonicalStates {
			states = "states (unique, by canonical history)"
		}
		row("", states, report.Thousands(r.States))
		row("", "revisits (paths ended at a visited state)", report.Thousands(r.Revisits))
		if r.ExploredAgain > 0 {
			row("", "states explored again (reached under a smaller sleep set)", report.Thousands(r.ExploredAgain))
		}
		row("", "visited states spilled to disk", report.Thousands(r.VisitedSpilled))
		row("", "disk reads", report.Thousands(r.DiskReads))
		row("", "disk reads in vain (filter false positives)", report.Thousands(r.FilterFalsePositives))
		row("", "chance of a fingerprint collision", fmt.Sprintf("%.1e", r.CollisionProbability))
	}
	if r.StepsReplayed > 0 {
		row("", "steps re-executed (stateless)", report.Thousands(r.StepsReplayed))
	}
	if r.StepsPeeked > 0 {
		row("", "steps peeked (to choose a first event)", report.Thousands(r.StepsPeeked))
	}
	row("TS", "exploring", seconds(r.ExploreSeconds))
	row("TC", "checking histories", seconds(r.CheckSeconds))
	row("TT", "total", seconds(r.TotalSeconds))
	if r.HistoriesBeforeFirst != nil {
		row("#HF", "unique histories before the first violation", report.Thousands(*r.HistoriesBeforeFirst))
		row("TF", "time to the first violation", seconds(*r.FirstViolationSeconds))
	} else {
		row("#HF", "unique histories before the first violation", "-")
		row("TF", "time to the first violation", "-")
	}
	row("", "schedules per second", report.Thousands(int64(r.SchedulesPerSecond)))
	printMemory(w, r.Memory)
	v := res.First
	if v == nil {
		fmt.Fprintln(w, "\n"+noViolationVerdict(r))
		if !r.Complete && r.HistoriesUnjudged == 0 && r.Sampling == nil {
			// The last lines, where a reader looks for the verdict, say that the search is
			// incomplete and repeat what would complete it (the hint far above). A
			// sampler's verdict says that no sample completes; its hint is not repeated.
			if hint := searchHint(r); hint != "" {
				fmt.Fprintln(w, hint)
			}
		}
		if page != "" {
			fmt.Fprintln(w)
			printPageSaved(w, page)
		}
		return
	}
	if v.Stack != "" {
		// The stack printed is the handler's, not Ravel's own frames around it.
		trimmed := *v
		trimmed.Stack = panicsite.Trim(v.Stack)
		v = &trimmed
	}
	fmt.Fprintln(w)
	in, where := fmt.Sprintf("in schedule %d", v.Schedule), fmt.Sprintf("schedule %d", v.Schedule)
	if len(v.Steps) == 0 {
		// Not "schedule 1": nothing was scheduled (probe M6).
		in, where = "at start-up, before any step", "at start-up, before any step"
	}
	switch v.Kind {
	case "nonlinearizable":
		fmt.Fprintf(w, "VIOLATION: schedule %d gives a history that is not linearizable\n", v.Schedule)
	case "panic":
		fmt.Fprintf(w, "VIOLATION: a handler panicked %s: %s%s\n", in, v.Message, panicAt(v.Stack))
	case explorer.KindUncopyable, explorer.KindSharedClone:
		// Not a violation: Ravel could not check the system as written (exit status 2).
		fmt.Fprintf(w, "NOT CHECKED: Ravel could not go on after step %d of schedule %d: %s\n", len(v.Steps), v.Schedule, v.Message)
	default:
		fmt.Fprintf(w, "VIOLATION: %s: %s\n", where, v.Message)
	}
	note := ""
	if m := minimizedNote(v); m != "" {
		note = fmt.Sprintf("(the schedule above%s)", m)
	}
	fmt.Fprintf(w, "\n%s", report.TextModeNote(sys, v.Steps, v.Events, r.reflective, note))
	if v.Stack != "" {
		fmt.Fprintf(w, "\nstack of the panic:\n%s", indent(v.Stack))
	}
	if !v.Replayed && v.Kind != explorer.KindSharedClone { // a Clone that shares memory breaks replay too
		fmt.Fprintf(w, "\n%s\n", report.NotReplayedWarning)
	}
	switch {
	case out == "":
	case !outputIsFile(out):
		// A terminal, a pipe, a device: what was written there cannot be read back by name.
		fmt.Fprintf(w, "\nwritten to %s\n", out)
	default:
		fmt.Fprintf(w, "\nsaved to %s; re-run it with: %s replay %s\n", out, r.prog, out)
	}
	if page != "" {
		if out == "" {
			fmt.Fprintln(w)
		}
		printPageSaved(w, page)
	}
}

// printPageSaved is the line that says where --html's page went, worded as check's --out
// line: saved to a file, or written to a terminal, a pipe, a device.
func printPageSaved(w io.Writer, page string) {
	if outputIsFile(page) {
		fmt.Fprintf(w, "HTML page saved to %s\n", page)
	} else {
		fmt.Fprintf(w, "HTML page written to %s\n", page)
	}
}

// panicAt is " (at file.go:LINE in pkg.Func)", where the panic whose stack is stack
// happened, or "" when stack is not a panic's.
func panicAt(stack string) string {
	if where := panicsite.InStack(stack); where != "" {
		return " (at " + where + ")"
	}
	return ""
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return "    " + strings.Join(lines, "\n    ") + "\n"
}

func seconds(s float64) string { return fmt.Sprintf("%.3fs", s) }

func percent(f float64) string { return fmt.Sprintf("%.2f%%", 100*f) }

// progressEvery is the interval between check's progress lines. Tests shorten it.
var progressEvery = 5 * time.Second

// progressLine is the line a long check prints every few seconds on standard error. With
// state caching it counts distinct states too (the spilled ones once the visited set
// spills, and those stateful DPOR explores again): a stateful search's schedules can stand
// still for minutes while it covers states, and a user watching it should see it move. It
// ends with the process's anonymous resident memory when that is known (anon ≥ 0), since
// a large search's memory grows with its states and a user should see where it is going
// before the system runs out. prog, the command's name, starts it, as it starts every line
// the command writes on standard error.
//
// It says how fast the search went since the line before, prev (zero figures before the
// first line: the rate since the start): states per second with state caching, schedules
// per second without. A search that spills slows down as it reads the disk more, and a
// user of an hours-long one should see whether it does.
func progressLine(prog string, s, prev explorer.Stats, caching bool, anon int64) string {
	var b strings.Builder
	if s.CalibrationRuns > 0 {
		fmt.Fprintf(&b, "%s: calibrating the sampler: %s of %s calibration runs done (not counted as schedules), %.0fs", prog,
			report.Thousands(int64(s.Calibrating)), report.Thousands(int64(s.CalibrationRuns)), s.Total.Seconds())
		if anon >= 0 {
			fmt.Fprintf(&b, ", %s resident", mib(anon))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s: %s schedules, %s steps, ", prog, report.Thousands(s.Schedules), report.Thousands(s.Steps))
	if caching {
		fmt.Fprintf(&b, "%s states, ", report.Thousands(s.States))
		if s.ExploredAgain > 0 {
			fmt.Fprintf(&b, "%s explored again, ", report.Thousands(s.ExploredAgain))
		}
		if s.Visited.Spilled > 0 {
			fmt.Fprintf(&b, "%s spilled, ", report.Thousands(s.Visited.Spilled))
		}
	}
	fmt.Fprintf(&b, "%d unique histories, %d violations so far, %.0fs", s.Unique, s.NonlinearizableCan+s.Panics, s.Total.Seconds())
	if dt := (s.Total - prev.Total).Seconds(); dt > 0 {
		if caching {
			fmt.Fprintf(&b, ", %s states/s", report.Thousands(int64(float64(s.States-prev.States)/dt)))
		} else {
			fmt.Fprintf(&b, ", %s schedules/s", report.Thousands(int64(float64(s.Schedules-prev.Schedules)/dt)))
		}
	}
	if anon >= 0 {
		fmt.Fprintf(&b, ", %s resident", mib(anon))
	}
	return b.String()
}
