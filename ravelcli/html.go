package ravelcli

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
)

// writeCheckHTML is check --html: the first violation's page with the run's statistics,
// or the statistics alone when none was found.
func writeCheckHTML(path string, sys *model.System, r checkReport, res *explorer.Result) error {
	stats := [][2]string{
		{"system", r.System}, {"harness", r.Harness}, {"strategy", r.Strategy}, {cmp.Or(r.agentsAre, "agents"), fmt.Sprint(r.Agents)}, {"seed", fmt.Sprint(r.Seed)},
		{"complete", fmt.Sprint(r.Complete)}, {"schedules", report.Thousands(r.Schedules)}, {"steps", report.Thousands(r.Steps)},
		{"unique histories", report.Thousands(r.HistoriesUnique)}, {"non-linearizable histories", report.Thousands(r.Nonlinearizable)},
		{"total time", seconds(r.TotalSeconds)},
	}
	if r.Workload != "" {
		stats = append(stats, [2]string{"workload", r.Workload})
	}
	if faults := r.Faults.Describe(); faults != "" {
		stats = append(stats, [2]string{"faults", faults})
	}
	title := "ravel check " + r.System
	// As the text report ends: an incomplete search says so (noViolationVerdict).
	verdict := strings.TrimSuffix(strings.TrimSuffix(noViolationVerdict(r), " (below)"), " (see the note above)")
	if hint := searchHint(r); !r.Complete && r.HistoriesUnjudged == 0 && hint != "" {
		verdict += "; " + strings.TrimPrefix(hint, "hint: ")
	}
	var steps []explorer.Delivery
	note := ""
	v := res.First
	if v != nil {
		steps = v.Steps
		// The schedule drawn is the found one shrunk: the verdict and the run say so, as
		// the text report does under its schedule (probe M3).
		verdict = fmt.Sprintf("VIOLATION (%s) in schedule %d", v.Kind, v.Schedule)
		if m := minimizedNote(v); m != "" {
			verdict += " (" + strings.TrimPrefix(m, "; ") + ")"
			stats = append(stats, [2]string{"minimized", strings.TrimPrefix(m, "; ")})
			note = fmt.Sprintf("(the schedule above%s)", m)
		}
		if v.Message != "" {
			verdict += ": " + v.Message + panicAt(v.Stack)
		}
	}
	p, err := report.NewPage(sys, title, verdict, stats, steps, r.reflective)
	if err != nil {
		return err
	}
	if note != "" && p.Text != "" {
		p.Text = report.TextModeNote(sys, v.Steps, v.Events, r.reflective, note)
	}
	return writeHTML(path, p)
}

// writeReplayHTML is replay --html of the file vf, read from file and replayed under
// harness; its run table names what the file records of the run: the harness or
// workload, agents, fault budgets, and the schedule's length as found when it was
// minimized.
func writeReplayHTML(page string, sys *model.System, file string, vf violationFile, harness string, ex *explorer.Execution) error {
	verdict := "the history is linearizable"
	switch {
	case ex.Failure != "":
		verdict = "VIOLATION: " + ex.Failure + panicAt(ex.Stack)
	case report.Why(sys, ex.Events) != "":
		verdict = "VIOLATION: the history is not linearizable"
	}
	stats := [][2]string{{"file", file}, {"system", sys.Name}}
	if vf.Run.Workload != "" {
		stats = append(stats, [2]string{"workload", vf.Run.Workload})
	} else {
		stats = append(stats, [2]string{"harness", harness})
	}
	stats = append(stats, [2]string{"agents", fmt.Sprint(vf.Run.Agents)})
	if faults := vf.Run.Faults.Describe(); faults != "" {
		stats = append(stats, [2]string{"faults", faults})
	}
	stats = append(stats, [2]string{"steps", fmt.Sprint(len(ex.Steps))})
	if n := vf.Violation.OriginalLength; n != 0 {
		stats = append(stats, [2]string{"minimized", fmt.Sprintf("from %s to %d", plural(n, "step"), len(ex.Steps))})
	}
	p, err := report.NewPage(sys, "ravel replay "+file, verdict, stats, ex.Steps, vf.Run.Reflective)
	if err != nil {
		return err
	}
	return writeHTML(page, p)
}

// writeHTML writes p's page to the output path (writeOutput).
func writeHTML(path string, p report.Page) error {
	var b bytes.Buffer
	if err := report.WriteHTML(&b, p); err != nil {
		return err
	}
	return writeOutput(path, b.Bytes())
}
