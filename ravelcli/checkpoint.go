package ravelcli

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/wgl"
)

// checkpointFlags are check's flags for checkpoints and resuming.
type checkpointFlags struct {
	dir    string
	every  time.Duration
	resume string
}

func addCheckpointFlags(fs *flag.FlagSet, f *checkpointFlags) {
	fs.StringVar(&f.dir, "checkpoint", "", "keep the search resumable in `DIR` (badger): visited states, frontier, statistics, histories")
	fs.DurationVar(&f.every, "checkpoint-every", explorer.DefaultCheckpointEvery, "the interval between checkpoints (also taken on Ctrl-C, SIGTERM and at the end)")
	fs.StringVar(&f.resume, "resume", "", "continue the search checkpointed in `DIR`, with the same command line (--checkpoint DIR may stay); a larger --max-schedules or --max-states (0: no limit) goes on where the budget stopped it; checkpoints go on there")
}

// checkpointing turns the flags into the explorer's options; the identity is everything
// a resume must match: what changes what the search explores or what its result means.
// The budgets that only stop it, --max-schedules and --max-states, are not in it, so
// that a search a budget stopped can be resumed with a larger one.
func (f *checkpointFlags) checkpointing(info runInfo, visitedMem int64, reflective bool) (explorer.Checkpointing, error) {
	dir := f.dir
	switch {
	case f.resume != "" && f.dir != "" && f.resume != f.dir:
		return explorer.Checkpointing{}, usagef("check: --resume %s continues the checkpoints in %s; --checkpoint %s names another directory", f.resume, f.resume, f.dir)
	case f.resume != "":
		dir = f.resume
	case dir == "":
		return explorer.Checkpointing{}, nil
	}
	if f.every <= 0 {
		return explorer.Checkpointing{}, usagef("check: --checkpoint-every must be a positive duration such as 30s or 5m, got %v", f.every)
	}
	// Each item is written as the user writes the flag, so that a refused resume names the
	// flag to change ("the checkpoint was taken with --visited-mem 1MiB, this run has
	// --visited-mem 2MiB"); explorer compares items by their first word.
	id := []string{
		"Ravel " + ravelVersion(),
		"system " + info.System,
		"--harness " + info.Harness,
		"--strategy " + info.Strategy,
		fmt.Sprintf("--agents %d", info.Agents),
		fmt.Sprintf("--retries %d", info.Retries),
		valueItem("--dependence", info.Dependence),
		valueItem("--delays", derefInt(info.Delays)),
		"--state-caching " + onOff(info.StateCaching),
		boolItem("--canonical-states", info.CanonicalStates),
		boolItem("--stateless", info.Stateless),
		fmt.Sprintf("--max-depth %d", info.MaxDepth),
		boolItem("--reflective", reflective),
		"--visited-mem " + sizeFlag(visitedMem),
		faultsIdentity(info.Faults),
	}
	return explorer.Checkpointing{Dir: dir, Every: f.every, Identity: id, Resume: f.resume != ""}, nil
}

// faultsIdentity is the run's fault budgets as flags ("--drop 1 --partition-hold"), or
// "no faults".
func faultsIdentity(f *faultsJSON) string {
	if f == nil {
		return "no faults"
	}
	var items []string
	for _, b := range []struct {
		flag string
		n    int
	}{{"--drop", f.Drop}, {"--duplicate", f.Duplicate}, {"--partition", f.Partition}, {"--crash", f.Crash}, {"--timeouts", f.Timeouts}} {
		if b.n > 0 {
			items = append(items, fmt.Sprintf("%s %d", b.flag, b.n))
		}
	}
	if f.Hold {
		items = append(items, "--partition-hold")
	}
	if f.CrashStop {
		items = append(items, "--crash-stop")
	}
	if len(items) == 0 {
		return "no faults"
	}
	return strings.Join(items, " ")
}

// valueItem is an identity item for a flag that takes a value: "--delays 3", or "no
// --delays" when the run has none (the strategy takes none).
func valueItem(flag string, v any) string {
	if v == nil || v == "" {
		return "no " + flag
	}
	return fmt.Sprintf("%s %v", flag, v)
}

// boolItem is an identity item for a boolean flag: "--stateless" or "no --stateless".
func boolItem(flag string, on bool) string {
	if on {
		return flag
	}
	return "no " + flag
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// sizeFlag writes a byte count as a user would give it: in the largest unit, IEC or SI,
// that holds it whole (1048576 is 1MiB, 1024KiB too), else in bytes.
func sizeFlag(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"TB", 1e12}, {"GiB", 1 << 30}, {"GB", 1e9}, {"MiB", 1 << 20}, {"MB", 1e6}, {"KiB", 1 << 10}, {"KB", 1e3}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%dB", n)
}

func derefInt(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// ravelVersion names the build: the module version when it has one, else the VCS
// revision, else a hash of the executable, so that a checkpoint is never resumed by a
// Ravel that may fingerprint states differently.
func ravelVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+dirty"
				}
			}
		}
		if rev != "" && dirty == "" {
			return rev
		}
	}
	exe, err := os.Executable()
	if err == nil {
		if b, err := os.ReadFile(exe); err == nil {
			sum := sha256.Sum256(b)
			return "build-" + hex.EncodeToString(sum[:8])
		}
	}
	return "unknown"
}

// noteCheckpoint says what a resumed run continued from and with which budgets (unless
// told, said when the resume succeeded), and how to continue a run that was interrupted,
// stopped by a budget, or by a failure of Ravel's own (runErr; a specification's panic is
// not one a resume gets past).
func noteCheckpoint(w io.Writer, prog string, c explorer.Checkpointing, info runInfo, res *explorer.Result, runErr error, told bool) {
	if c.Dir == "" {
		return
	}
	spent := spentBudget(info, res.Stats)
	if r := res.Resumed; r != nil {
		at := resumedAt(info, r)
		switch {
		case told:
		case r.Ended:
			fmt.Fprintf(w, "%s: resumed the checkpoint in %s (%s): its search had ended, so nothing was left to explore; the figures below are its own\n", prog, c.Dir, at)
		case r.Spent:
			fmt.Fprintf(w, "%s: resumed the checkpoint in %s (%s): it had already spent this run's %s, so the run stopped at once with its result; give a larger %s (0: no limit) to go on\n", prog, c.Dir, at, spentBudgets(info, res.Stats), spent)
			return
		default:
			fmt.Fprintf(w, "%s: resumed the checkpoint in %s (%s), with %s\n", prog, c.Dir, at, budgets(info))
		}
	}
	switch {
	case runErr != nil && !wgl.IsSpecBug(runErr) && res.Checkpointed:
		fmt.Fprintf(w, "%s: the search failed (below); its last checkpoint in %s is intact: once the cause is mended, continue with the same command and --resume %s\n", prog, c.Dir, c.Dir)
	case runErr != nil && !wgl.IsSpecBug(runErr):
		fmt.Fprintf(w, "%s: the search failed (below) before its first checkpoint: there is none in %s to resume from\n", prog, c.Dir)
	case res.Stats.Interrupted:
		fmt.Fprintf(w, "%s: checkpoint saved in %s; continue with the same command and --resume %s\n", prog, c.Dir, c.Dir)
	case spent != "" && !res.Complete && !unjudged(res):
		fmt.Fprintf(w, "%s: checkpoint saved in %s; continue with the same command, --resume %s and a larger %s (0: no limit)\n", prog, c.Dir, c.Dir, spent)
	}
}

// resumedAt is where a resumed checkpoint stood: "1,014 schedules, 532,777 states".
func resumedAt(info runInfo, r *explorer.Resumed) string {
	at := fmt.Sprintf("%s schedules", report.Thousands(r.Schedules))
	if info.StateCaching {
		at += fmt.Sprintf(", %s states", report.Thousands(r.States))
	}
	return at
}

// spentBudget names the budget flag the search spent, if any.
func spentBudget(info runInfo, st explorer.Stats) string {
	switch {
	case info.MaxStates > 0 && st.States >= info.MaxStates:
		return "--max-states"
	case info.MaxSchedules > 0 && st.Schedules >= info.MaxSchedules:
		return "--max-schedules"
	}
	return ""
}

// spentBudgets describes the budgets the search spent, with their values: "--max-states
// 500,000", or both flags when both are spent; never one without a limit.
func spentBudgets(info runInfo, st explorer.Stats) string {
	var spent []string
	if info.MaxSchedules > 0 && st.Schedules >= info.MaxSchedules {
		spent = append(spent, "--max-schedules "+report.Thousands(info.MaxSchedules))
	}
	if info.MaxStates > 0 && st.States >= info.MaxStates {
		spent = append(spent, "--max-states "+report.Thousands(info.MaxStates))
	}
	return strings.Join(spent, " and ")
}

// budgets describes the run's budgets that a resume may change.
func budgets(info runInfo) string {
	limit := func(n int64) string {
		if n == 0 {
			return "0 (no limit)"
		}
		return report.Thousands(n)
	}
	s := "--max-schedules " + limit(info.MaxSchedules)
	if info.StateCaching {
		s += " and --max-states " + limit(info.MaxStates)
	}
	return s
}

// unjudged reports that the specification panicked on a history: the search stopped
// for that, whatever its budget, and the checkpoint does not go on.
func unjudged(res *explorer.Result) bool {
	for _, c := range res.Canonical {
		if c.Err != nil {
			return true
		}
	}
	return false
}
