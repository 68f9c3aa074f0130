package main

import (
	"fmt"
	"io"
	"reflect"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems"
	"github.com/ravelmc/ravel/wgl"
	"github.com/ravelmc/ravel/workloads"
)

func cmdReplay(args []string, stdout io.Writer) (int, error) {
	args, html, err := htmlFlag(args)
	if err != nil {
		return 0, err
	}
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		return 0, usagef("usage: ravel replay FILE [--html PAGE] (FILE written by ravel check --out FILE; --html writes the replay as one HTML page)")
	}
	path := args[0]
	vf, err := report.ReadFile(path)
	if err != nil {
		return 0, usagef("replay: %v", err)
	}
	entry, err := systems.Lookup(vf.Run.System)
	if err != nil {
		return 0, usagef("replay: %s: %v", path, err)
	}
	sys, err := entry.New(systems.Config{Agents: vf.Run.Agents, Harness: vf.Run.Harness, Retries: vf.Run.Retries})
	if err != nil {
		return 0, usagef("replay: %s: %v", path, err)
	}
	if vf.Run.Workload != "" {
		if sys, _, err = workloads.Lookup(sys, vf.Run.Workload); err != nil {
			return 0, usagef("replay: %s: %v", path, err)
		}
	}
	vf.Run.Faults.ApplyTo(&sys)
	ids, err := vf.Violation.IDs()
	if err != nil {
		return 0, usagef("replay: %s: %v", path, err)
	}
	ex, err := explorer.Replay(sys, ids, false)
	if err != nil {
		return 0, usagef("replay: %s: %v", path, err)
	}
	fmt.Fprintf(stdout, "ravel replay %s  (%s, harness %s, agents %d): %d steps\n", path, vf.Run.System, vf.Run.Harness, vf.Run.Agents, len(ex.Steps))
	fmt.Fprintf(stdout, "\n%s", report.Text(&sys, ex.Steps, ex.Events))
	if html != "" {
		if err := writeReplayHTML(html, &sys, path, ex); err != nil {
			return 0, usagef("replay: --html: %v", err)
		}
	}
	same := reflect.DeepEqual(newHistoryJSON(&sys, ex.Events), vf.Violation.History)
	if same {
		fmt.Fprintln(stdout, "\nthe replay gives the same history as the saved violation")
	} else {
		fmt.Fprintln(stdout, "\nthe replay gives a DIFFERENT history from the saved violation (the system changed, or a handler is not deterministic)")
	}
	if ex.Failure != "" {
		fmt.Fprintf(stdout, "VIOLATION: %s\n", ex.Failure)
		return exitViolation, nil
	}
	res := wgl.Check(sys.Harness.Spec().Spec, histories.Operations(sys.Harness, ex.Events))
	if res.Verdict == wgl.NotLinearizable {
		fmt.Fprintln(stdout, "VIOLATION: the history is not linearizable")
		return exitViolation, nil
	}
	fmt.Fprintln(stdout, "the history is linearizable")
	return exitOK, nil
}
