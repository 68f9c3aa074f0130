package ravelcli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
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
}

// checkWorkloads is check --workloads: the system's actors under every generated
// workload in turn, until one fails.
func checkWorkloads(ctx context.Context, stdout, stderr io.Writer, sys model.System, opts explorer.Options, info runInfo, f checkFlags) (int, error) {
	g, err := workloads.Parse(f.workloads)
	if err != nil {
		return 0, usagef("check: --workloads: %v", err)
	}
	if opts.Checkpoint.Dir != "" {
		// One checkpoint directory holds one search; a workload set is many.
		return 0, usagef("check: --workloads runs one search per workload and cannot be checkpointed; drop --checkpoint/--resume")
	}
	ws, err := g.ForContext(ctx, &sys)
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
	out, err := workloads.Check(ctx, sys, ws, nil, opts)
	if err != nil {
		return 0, fmt.Errorf("check %s: %w", info.System, err)
	}
	if out.Failing == nil {
		wr := workloadsReport{runInfo: info, Generator: g.String(), Generated: len(ws), Checked: out.Checked, Complete: out.Complete, Schedules: out.Schedules}
		if f.json {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(wr); err != nil {
				return 0, err
			}
		} else {
			fmt.Fprintf(stdout, "ravel check %s  workloads %s  strategy %s  agents %d  seed %d\n", info.System, g, info.Strategy, info.Agents, info.Seed)
			fmt.Fprintf(stdout, "%d workloads generated, %d checked (%d explored completely), %s schedules\n", len(ws), out.Checked, out.Complete, report.Thousands(out.Schedules))
			if out.Result != nil && out.Result.Stats.Interrupted {
				fmt.Fprintln(stdout, "interrupted")
				return exitInterrupted, nil
			}
			fmt.Fprintln(stdout, "\nno violation found under any workload")
		}
		return exitOK, nil
	}
	info.Workload = out.Failing.Name
	fsys := out.System
	if !f.json {
		// The workload's operations index sys's alphabet: fsys's lists only the inputs it uses.
		fmt.Fprintf(stdout, "workload %s (%d of %d generated) fails: %s\n\n", out.Failing.Name, out.Checked, len(ws), out.Failing.Describe(&fsys, sys.Harness.Alphabet()))
	}
	// The failing workload's run is reported as check reports any run: files written,
	// the report and its violation printed before any late error.
	return finishCheck(stdout, stderr, &fsys, info, out.Result, nil, f, nil)
}
