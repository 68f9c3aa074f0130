package ravelcli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/workloads"
)

// workloadsReport is check --workloads's JSON output when no workload fails; when one
// does, check prints its report, which names the workload.
type workloadsReport struct {
	runInfo
	Generator string `json:"workloads"`
	Generated int    `json:"generated"`
	Checked   int    `json:"checked"`
	Complete  int    `json:"complete"`
	Schedules int64  `json:"schedules"`
	// Sampling sums a sampler's sessions, one per workload; nil for other strategies.
	Sampling *workloadsSampling `json:"sampling,omitempty"`
}

// workloadsSampling is a sampler's figures over the workloads checked: each workload is
// a session of its own from the same seed, so the runs add up but the hit rates do not
// pool into one (the workloads are different systems). With no hit, WilsonHi bounds the
// hit rate of every workload: it is the bound of the workload with the fewest runs.
type workloadsSampling struct {
	Sampler    string  `json:"sampler"`
	Version    string  `json:"sampler_version"`
	Seed       int64   `json:"seed"`
	FirstRun   int     `json:"first_run"`
	Dependence string  `json:"dependence"`
	Workloads  int     `json:"workloads"`
	Runs       int64   `json:"runs"`
	Hits       int64   `json:"hits"`
	MinRuns    int64   `json:"runs_per_workload_min"`
	MaxRuns    int64   `json:"runs_per_workload_max"`
	WilsonHi   float64 `json:"hit_rate_wilson_hi_per_workload"`
}

func (a *workloadsSampling) add(s *explorer.SamplingStats) {
	if a.Workloads == 0 {
		a.Sampler, a.Version, a.Seed, a.FirstRun, a.Dependence, a.MinRuns = s.Sampler, s.Version, s.Seed, s.FirstRun, s.Dependence, s.Runs
	}
	a.Workloads++
	a.Runs += s.Runs
	a.Hits += s.Hits
	a.MinRuns, a.MaxRuns = min(a.MinRuns, s.Runs), max(a.MaxRuns, s.Runs)
	_, a.WilsonHi = samplers.Wilson(0, a.MinRuns)
}

// checkWorkloads is check --workloads: the system's actors under every generated
// workload in turn, until one fails; SPEC#i, a workload's name, checks that one alone.
func checkWorkloads(ctx context.Context, stdout, stderr io.Writer, sys model.System, opts explorer.Options, info runInfo, f checkFlags) (int, error) {
	if opts.Checkpoint.Dir != "" {
		// One checkpoint directory holds one search; a workload set is many.
		return 0, usagef("check: --workloads runs one search per workload and cannot be checkpointed; drop --checkpoint/--resume")
	}
	alphabet := sys.Harness.Alphabet()
	var ws []workloads.Workload
	var spec string
	if strings.Contains(f.workloads, "#") {
		_, w, err := workloads.Lookup(sys, f.workloads)
		if err != nil {
			return 0, usagef("check: --workloads: %v", err)
		}
		ws, spec = []workloads.Workload{w}, w.Name
	} else {
		g, err := workloads.Parse(f.workloads)
		if err != nil {
			return 0, usagef("check: --workloads: %v", err)
		}
		ws, err = g.ForContext(ctx, &sys)
		var size *workloads.SizeError
		switch {
		case errors.As(err, &size):
			return 0, usagef("check: --workloads %v", err)
		case err != nil && ctx.Err() != nil:
			fmt.Fprintf(stderr, "%s: interrupted while generating the workloads\n", f.prog)
			return exitInterrupted, nil
		case err != nil:
			return 0, fmt.Errorf("check %s: %w", info.System, err)
		}
		spec = g.String()
	}
	wr := workloadsReport{runInfo: info, Generator: spec, Generated: len(ws)}
	var sampling workloadsSampling
	var cut incompleteWorkloads
	for i := range ws {
		s, err := ws[i].Apply(sys, alphabet)
		if err != nil {
			return 0, fmt.Errorf("check %s: %w", info.System, err)
		}
		res, err := explorer.Run(ctx, s, opts)
		if err != nil {
			return 0, fmt.Errorf("check %s: workload %s: %w", info.System, ws[i].Name, err)
		}
		wr.Checked++
		wr.Schedules += res.Stats.Schedules
		if res.Complete {
			wr.Complete++
		} else if res.Sampling == nil && !res.Stats.Interrupted {
			cut.add(res, f)
		}
		if res.Sampling != nil {
			sampling.add(res.Sampling)
		}
		if res.First != nil {
			// Its file holds the workloads checked before this one, and this one's.
			return failingWorkload(stdout, stderr, &ws[i], s, alphabet, res, i, len(ws), info, f)
		}
		if f.histories != "" {
			lines, err := historyLines(&s, res, ws[i].Name)
			if err != nil {
				return 0, fmt.Errorf("check %s: workload %s: --histories: %w", info.System, ws[i].Name, err)
			}
			f.earlierHistories = append(f.earlierHistories, lines...)
		}
		if res.Stats.Interrupted {
			break
		}
	}
	interrupted := ctx.Err() != nil
	if sampling.Workloads > 0 {
		wr.Sampling = &sampling
	}
	code := exitOK
	if interrupted {
		code = exitInterrupted
	}
	var late error // a file not written, reported after the report
	if f.histories != "" {
		if err := writeHistories(f.histories, f.earlierHistories); err != nil {
			late = fmt.Errorf("check: --histories: %w", err)
		}
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(wr); err != nil {
			return 0, err
		}
	} else {
		fmt.Fprintf(stdout, "ravel check %s  workloads %s  strategy %s  %s %d  seed %d\n", info.System, spec, info.Strategy, cmp.Or(f.agentsAre, "agents"), info.Agents, info.Seed)
		generated := plural(len(ws), "workload") + " generated"
		if strings.Contains(f.workloads, "#") {
			generated = "1 workload, selected by name"
		}
		if wr.Sampling != nil {
			// A sampler never explores a workload completely: say what it did instead.
			fmt.Fprintf(stdout, "%s, %s checked, %s schedules\n", generated, report.Thousands(int64(wr.Checked)), report.Thousands(wr.Schedules))
		} else {
			fmt.Fprintf(stdout, "%s, %s checked (%s explored completely), %s schedules\n", generated, report.Thousands(int64(wr.Checked)), report.Thousands(int64(wr.Complete)), report.Thousands(wr.Schedules))
		}
		if s := wr.Sampling; s != nil {
			fmt.Fprintf(stdout, "\nsampler %s (%s)  seed %d  runs from %d under each workload  dependence %s\n", s.Sampler, s.Version, s.Seed, s.FirstRun, s.Dependence)
			row := func(name, val string) {
				fmt.Fprintf(stdout, "  %s%s %s\n", name, strings.Repeat(" ", max(0, 50-columns(name))), val)
			}
			row("hits (runs with a violation)", fmt.Sprintf("%s of %s, over %s", report.Thousands(s.Hits), report.Thousands(s.Runs), plural(s.Workloads, "workload")))
			perWorkload := report.Thousands(s.MinRuns)
			if s.MaxRuns != s.MinRuns {
				perWorkload = fmt.Sprintf("%s to %s", report.Thousands(s.MinRuns), report.Thousands(s.MaxRuns))
			}
			row("runs per workload", perWorkload)
			row("hit rate of each workload, 95% Wilson", fmt.Sprintf("0 [0, %.4f]: each workload is a session of its own, so the rates do not pool", s.WilsonHi))
		}
		switch line := cut.verdict(); {
		case interrupted:
			fmt.Fprintln(stdout, "interrupted")
		case line != "":
			fmt.Fprintln(stdout, "\n"+line)
		default:
			fmt.Fprintln(stdout, "\nno violation found under any workload")
		}
	}
	if late != nil {
		code = lateFailure(stderr, f.prog, code, late)
	}
	return code, nil
}

// failingWorkload reports the run of the workload w (number i of n generated, from 0),
// under which fsys, sys with w's harness, failed, as check reports any run.
func failingWorkload(stdout, stderr io.Writer, w *workloads.Workload, fsys model.System, alphabet []any, res *explorer.Result, i, n int, info runInfo, f checkFlags) (int, error) {
	info.Workload = w.Name
	if !f.json {
		// The workload's operations index sys's alphabet: fsys's lists only the inputs it uses.
		which := fmt.Sprintf(" (number %d of %d generated, counted from 0)", i, n)
		if n == 1 {
			which = "" // the one --workloads SPEC#i selected
		}
		fmt.Fprintf(stdout, "workload %s%s fails: %s\n\n", w.Name, which, w.Describe(&fsys, alphabet))
	}
	// The failing workload's run is reported as check reports any run: files written,
	// the report and its violation printed before any late error.
	return finishCheck(stdout, stderr, &fsys, info, res, nil, f, nil)
}

// incompleteWorkloads counts the workloads whose search stopped at a budget, by budget,
// so that the last line of a check under workloads does not read "no violation found"
// as a verdict when most searches were cut short (as a single check's last line says).
type incompleteWorkloads struct {
	schedules, states, depth int
	maxSchedules, maxStates  int64
	maxDepth                 int
}

// add counts res, a search that neither completed nor was interrupted, under the budget
// that stopped it.
func (c *incompleteWorkloads) add(res *explorer.Result, f checkFlags) {
	c.maxSchedules, c.maxStates, c.maxDepth = f.maxSchedules, f.maxStates, f.maxDepth
	switch {
	case f.maxStates > 0 && res.Stats.States >= f.maxStates:
		c.states++
	case res.Stats.Cut > 0 && (f.maxSchedules == 0 || res.Stats.Schedules < f.maxSchedules):
		c.depth++
	default:
		c.schedules++
	}
}

// verdict is the last line when some workload's search was cut short, or "".
func (c *incompleteWorkloads) verdict() string {
	n := c.schedules + c.states + c.depth
	if n == 0 {
		return ""
	}
	var why []string
	if c.schedules > 0 {
		why = append(why, fmt.Sprintf("%d at the schedule budget, --max-schedules %s each", c.schedules, report.Thousands(c.maxSchedules)))
	}
	if c.states > 0 {
		why = append(why, fmt.Sprintf("%d at the state budget, --max-states %s", c.states, report.Thousands(c.maxStates)))
	}
	if c.depth > 0 {
		why = append(why, fmt.Sprintf("%d cut by the depth budget, --max-depth %d", c.depth, c.maxDepth))
	}
	which := fmt.Sprintf("%d workloads were not", n)
	if n == 1 {
		which = "1 workload was not"
	}
	return fmt.Sprintf("no violation found under any workload — but %s explored completely (%s): the schedules not explored may hold one", which, strings.Join(why, "; "))
}
