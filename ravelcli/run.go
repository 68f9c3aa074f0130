package ravelcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ravelmc/ravel/live"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/wgl"
)

const runUsage = `Usage: ravel run [flags] CONFIG

Test a real cluster described by the YAML file CONFIG: start its nodes as processes,
intercept their peer messages, schedule them and the faults, drive the client workload,
and check each iteration's history for linearizability (see docs/real-processes.md).

Exit status: 0 every history linearizable, 1 a violation or a node that exited on its
own (not crashed by Ravel) during an iteration, 2 a bad config (the message
names the field) or a run in which no iteration completed an operation (nothing was
checked), 130 interrupted before a violation was found.

Flags override the config:
`

// cmdRun is `ravel run CONFIG`: exit 0 when every history is linearizable, 1 when one
// is not or a node exited on its own (interrupted or not), 2 for a bad config (the message names the field) or a run
// that checked nothing (no iteration completed an operation), 130 when interrupted
// before a violation was found.
func (c *catalog) cmdRun(args []string, stdout, stderr io.Writer) (int, error) {
	// First thing: an interrupt while the config loads or an earlier run's output is
	// set aside must end the run as any other, exit 130, not kill it
	// by the signal's default action (143), nor be lost when SIGINT was ignored.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	seed := fs.Uint64("seed", 0, "the session's seed (default: the config's)")
	iterations := fs.Int("iterations", 0, "iterations (default: the config's)")
	out := fs.String("out", "", "output directory, relative to the current directory (default: the config's output:, relative to the config file's directory)")
	quiet := fs.Bool("quiet", false, "no progress lines on standard error (one every 5s while an iteration runs)")
	replay := fs.String("replay", "", "re-impose the schedule.json of a recorded iteration (a path relative to the current directory) in every iteration, and report how often it reproduces the violation")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.printHelp(stdout, runUsage, fs)
			return exitOK, nil
		}
		return exitUsage, usagef("run: %v (see ravel run -h)", err)
	}
	if fs.NArg() != 1 {
		return exitUsage, usagef("run: want one CONFIG file, got %d arguments (see ravel run -h)", fs.NArg())
	}
	cfg, err := live.LoadConfig(fs.Arg(0))
	if err != nil {
		return exitUsage, usagef("run: %v", err)
	}
	seen := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { seen[f.Name] = true })
	if seen["seed"] {
		cfg.Seed = *seed
	}
	if seen["iterations"] {
		if *iterations < 1 {
			return exitUsage, usagef("run: --iterations must be at least 1")
		}
		cfg.Iterations = *iterations
	}
	if seen["out"] {
		dir, err := runOutDir(*out)
		if err != nil {
			return exitUsage, err
		}
		cfg.Output = dir
	}
	if *replay != "" {
		sched, err := live.LoadSchedule(*replay)
		if err != nil {
			return exitUsage, usagef("run: --replay: %v", err)
		}
		if err := sched.Validate(cfg.Nodes.Count); err != nil {
			return exitUsage, usagef("run: --replay: %s: %v", *replay, err)
		}
		cfg.Replay = sched
		cfg.StopOnViolation = false // the point is how often it reproduces
	}
	// What can fail without running anything fails before an earlier run's results go.
	if err := cfg.CheckPorts(); err != nil {
		return exitUsage, usagef("run: %v", err)
	}
	// Two runs in one output directory would remove each other's iterations.
	release, err := live.LockOutput(cfg)
	var inUse *live.OutputInUseError
	switch {
	case errors.Is(err, live.ErrOutputNotDir) && seen["out"]:
		return exitUsage, usagef("run: --out %s: not a directory", *out)
	case errors.Is(err, live.ErrOutputNotDir):
		return exitUsage, usagef("run: the config's output %s: not a directory", cfg.Output)
	case errors.As(err, &inUse):
		return exitUsage, usagef("run: %v", err)
	case err != nil:
		return exitUsage, fmt.Errorf("run: %w", err)
	}
	defer release()
	if runBeforeClear != nil {
		runBeforeClear()
	}
	// An earlier run's iterations are set aside, and removed only once this run's
	// nodes are up: a run that cannot start them leaves the earlier results as they were.
	earlier, err := live.SetAsideOutput(cfg)
	switch {
	case errors.Is(err, live.ErrOutputNotDir) && seen["out"]:
		return exitUsage, usagef("run: --out %s: not a directory", *out)
	case errors.Is(err, live.ErrOutputNotDir):
		return exitUsage, usagef("run: the config's output %s: not a directory", cfg.Output)
	case err != nil:
		return exitUsage, fmt.Errorf("run: %w", err)
	case earlier != nil:
		names := strings.Join(earlier.Names, " ")
		if n := len(earlier.Names); n > 3 {
			names = fmt.Sprintf("%s … %s (%d directories)", earlier.Names[0], earlier.Names[n-1], n)
		}
		fmt.Fprintf(stderr, "%s: run: replacing what an earlier run left in %s: %s (kept if this run's nodes fail to start)\n", c.name(), cfg.OutputDir(), names)
	}
	cfg.Earlier = earlier
	if ctx.Err() != nil {
		if err := earlier.Restore(); err != nil {
			return exitUsage, fmt.Errorf("run: %w", err)
		}
		fmt.Fprintf(stderr, "%s: run interrupted before its first iteration; nothing was started\n", c.name())
		return exitInterrupted, nil
	}
	fmt.Fprintf(stdout, "ravel run %s: %s, scheduler %s, seed %d, %s\n",
		fs.Arg(0), plural(cfg.Nodes.Count, "node"), cfg.Scheduler.Type, cfg.Seed, plural(cfg.Iterations, "iteration"))
	if !*quiet {
		cfg.Progress = stderr
	}
	rep, err := live.Run(ctx, cfg, stdout)
	var ce *live.ConfigError
	switch {
	case errors.As(err, &ce):
		return exitUsage, usagef("run: %v", err)
	case ctx.Err() != nil:
		// The iterations finished before the interrupt are reported as at a normal
		// end; a violation among them makes the exit status 1, as check's does.
		done := rep.Iterations
		if err != nil && len(done) > 0 {
			done = done[:len(done)-1] // the one interrupted
		}
		printRunSummary(stdout, rep, done, cfg, *replay, true)
		if n := len(rep.Iterations); err != nil && n > 0 && rep.Iterations[n-1].Partial {
			ir := rep.Iterations[n-1]
			fmt.Fprintf(stdout, "iteration %d was interrupted during its workload: its partial history (%s, %d open), unchecked, is in %s: ravel lincheck --spec cas-register --format ravel %s\n",
				ir.Run, plural(ir.Ops, "operation"), ir.Open, ir.Dir, filepath.Join(ir.Dir, "history-*.jsonl"))
		}
		fmt.Fprintf(stderr, "%s: run interrupted; every process stopped\n", c.name())
		if rep.Violations > 0 || rep.NodeExits > 0 {
			return exitViolation, nil
		}
		return exitInterrupted, nil
	case err != nil:
		return exitUsage, fmt.Errorf("run: %w", err)
	}
	if printRunSummary(stdout, rep, rep.Iterations, cfg, *replay, false) || rep.NodeExits > 0 {
		return exitViolation, nil
	}
	if err := nothingChecked(rep); err != nil {
		return exitUsage, err
	}
	return exitOK, nil
}

// runBeforeClear, when set (by a test), is called just before an earlier run's output
// is set aside.
var runBeforeClear func()

// nothingChecked is the usage error of a session in which no iteration completed an
// operation, or nil. Only completed operations constrain a history, so such a session
// would pass without having checked anything: that is the config not fitting the
// service (its timeouts, its client, its protocol), which is bad input, exit 2.
func nothingChecked(rep *live.Report) error {
	if rep.Completed() > 0 {
		return nil
	}
	return usagef("run: no iteration completed an operation, so nothing was checked (see the warnings above)")
}

// runOutDir is the output directory --out names: a path on the command line is relative
// to the current directory (the config's output: key is relative to the config file's),
// so it is made absolute here. "-" is refused: the report goes to standard output, and a
// directory named - is rarely what was meant.
func runOutDir(out string) (string, error) {
	if out == "-" {
		return "", usagef("run: --out -: an output must be a directory: standard output is where the report goes (a directory named - is ./-)")
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", usagef("run: --out %s: %v", out, err)
	}
	return abs, nil
}

// printRunSummary prints the total line over the iterations done (marked when the run
// was interrupted), the replay's tally, and the first violation; it reports whether
// there was one.
func printRunSummary(stdout io.Writer, rep *live.Report, done []live.IterationReport, cfg *live.Config, replay string, interrupted bool) bool {
	var total live.Counts
	var faults live.FaultCounts
	for _, ir := range done {
		total.Intercepted += ir.Net.Intercepted
		total.Delivered += ir.Net.Delivered
		total.Dropped += ir.Net.Dropped
		total.Cut += ir.Net.Cut
		total.Refused += ir.Net.Refused
		total.Held += ir.Net.Held
		faults.Drop += ir.Faults.Drop
		faults.Crash += ir.Faults.Crash
		faults.Restart += ir.Faults.Restart
		faults.Partition += ir.Faults.Partition
		faults.Heal += ir.Faults.Heal
	}
	mark := ""
	if interrupted {
		mark = " (then interrupted)"
	}
	n := func(v int) string { return report.Thousands(int64(v)) }
	fmt.Fprintf(stdout, "total: %s%s, %s not linearizable; messages %s intercepted, %s delivered, %s dropped, %s cut, %s refused, %s held at the end; %s; seed %d\n",
		plural(len(done), "iteration"), mark, n(rep.Violations), n(total.Intercepted), n(total.Delivered), n(total.Dropped), n(total.Cut), n(total.Refused), n(total.Held),
		faults.Describe(), rep.Seed)
	if w := live.NoFaultWarning(cfg, done); w != "" {
		fmt.Fprintln(stdout, w)
	}
	if rep.NodeExits > 0 {
		fmt.Fprintf(stdout, "%s exited on its own (not crashed by Ravel) during the iterations: a failure of the system under test; see the warnings above, events.txt and the nodes' logs\n",
			plural(rep.NodeExits, "node"))
	}
	if cfg.Replay != nil {
		fmt.Fprintln(stdout, replayTally(replay, done))
	}
	if rep.Violations == 0 {
		return false
	}
	for _, ir := range done {
		if ir.Verdict == wgl.NotLinearizable {
			fmt.Fprintf(stdout, "\nviolation in iteration %d (history, events, node logs in %s):\n%s",
				ir.Run, ir.Dir, live.RenderViolation(ir.History, ir.Result))
			if len(ir.AlsoFailing) > 0 {
				fmt.Fprintf(stdout, "also not linearizable: %s (verdict.txt; ravel lincheck on its history-KEY.jsonl draws each)\n", strings.Join(ir.AlsoFailing, ", "))
			}
			break
		}
	}
	return true
}

// replayTally is the replay's line: in how many replays the violation reproduced. A
// replay that re-imposed no recorded step reproduced nothing, whatever its verdict, and
// is counted apart.
func replayTally(replay string, done []live.IterationReport) string {
	reproduced, empty := 0, 0
	for _, ir := range done {
		switch {
		case ir.Followed == 0:
			empty++
		case ir.Verdict == wgl.NotLinearizable:
			reproduced++
		}
	}
	line := fmt.Sprintf("replay of %s: the violation reproduced in %d of %d replays", replay, reproduced, len(done))
	if empty > 0 {
		line += fmt.Sprintf(" (%d re-imposed no recorded step)", empty)
	}
	return line
}
