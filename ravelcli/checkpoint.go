package ravelcli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/report"
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
	id := []string{
		"ravel=" + ravelVersion(),
		"system=" + info.System,
		"harness=" + info.Harness,
		"strategy=" + info.Strategy,
		fmt.Sprintf("agents=%d", info.Agents),
		fmt.Sprintf("retries=%d", info.Retries),
		"dependence=" + info.Dependence,
		fmt.Sprintf("delays=%v", derefInt(info.Delays)),
		fmt.Sprintf("state-caching=%v", info.StateCaching),
		fmt.Sprintf("canonical-states=%v", info.CanonicalStates),
		fmt.Sprintf("stateless=%v", info.Stateless),
		fmt.Sprintf("max-depth=%d", info.MaxDepth),
		fmt.Sprintf("reflective=%v", reflective),
		fmt.Sprintf("visited-mem=%d", visitedMem),
		"faults=" + faultsIdentity(info.Faults),
	}
	return explorer.Checkpointing{Dir: dir, Every: f.every, Identity: id, Resume: f.resume != ""}, nil
}

// faultsIdentity is the run's fault budgets as JSON ("null" when there are none).
func faultsIdentity(f *faultsJSON) string {
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Sprintf("%+v", f)
	}
	return string(b)
}

func derefInt(p *int) any {
	if p == nil {
		return "-"
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

// noteCheckpoint says what a resumed run continued from and with which budgets, and how
// to continue a run that was interrupted or stopped by a budget.
func noteCheckpoint(w io.Writer, prog string, c explorer.Checkpointing, info runInfo, res *explorer.Result) {
	if c.Dir == "" {
		return
	}
	spent := spentBudget(info, res.Stats)
	if r := res.Resumed; r != nil {
		at := fmt.Sprintf("%s schedules", report.Thousands(r.Schedules))
		if info.StateCaching {
			at += fmt.Sprintf(", %s states", report.Thousands(r.States))
		}
		switch {
		case r.Ended:
			fmt.Fprintf(w, "%s: resumed the checkpoint in %s (%s): its search had ended, so nothing was left to explore; the figures below are its own\n", prog, c.Dir, at)
		case r.Spent:
			fmt.Fprintf(w, "%s: resumed the checkpoint in %s (%s): it had already spent this run's %s, so the run stopped at once with its result; give a larger %s (0: no limit) to go on\n", prog, c.Dir, at, budgets(info), spent)
			return
		default:
			fmt.Fprintf(w, "%s: resumed the checkpoint in %s (%s), with %s\n", prog, c.Dir, at, budgets(info))
		}
	}
	switch {
	case res.Stats.Interrupted:
		fmt.Fprintf(w, "%s: checkpoint saved in %s; continue with the same command and --resume %s\n", prog, c.Dir, c.Dir)
	case spent != "" && !res.Complete && !unjudged(res):
		fmt.Fprintf(w, "%s: checkpoint saved in %s; continue with the same command, --resume %s and a larger %s (0: no limit)\n", prog, c.Dir, c.Dir, spent)
	}
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
