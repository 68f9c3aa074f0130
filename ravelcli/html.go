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
	title := "ravel check " + r.System
	// As the text report ends: an incomplete search says so (noViolationVerdict).
	verdict := strings.TrimSuffix(strings.TrimSuffix(noViolationVerdict(r), " (below)"), " (see the note above)")
	if hint := searchHint(r); !r.Complete && r.HistoriesUnjudged == 0 && hint != "" {
		verdict += "; " + strings.TrimPrefix(hint, "hint: ")
	}
	var steps []explorer.Delivery
	if v := res.First; v != nil {
		steps = v.Steps
		verdict = fmt.Sprintf("VIOLATION (%s) in schedule %d", v.Kind, v.Schedule)
		if v.Message != "" {
			verdict += ": " + v.Message + panicAt(v.Stack)
		}
	}
	p, err := report.NewPage(sys, title, verdict, stats, steps, r.reflective)
	if err != nil {
		return err
	}
	return writeHTML(path, p)
}

// writeReplayHTML is replay --html; reflective says the schedule's event identities are
// the reflective fingerprint's (the file's run.reflective).
func writeReplayHTML(page string, sys *model.System, file string, ex *explorer.Execution, reflective bool) error {
	verdict := "the history is linearizable"
	switch {
	case ex.Failure != "":
		verdict = "VIOLATION: " + ex.Failure + panicAt(ex.Stack)
	case report.Why(sys, ex.Events) != "":
		verdict = "VIOLATION: the history is not linearizable"
	}
	p, err := report.NewPage(sys, "ravel replay "+file, verdict, [][2]string{{"file", file}, {"system", sys.Name}, {"steps", fmt.Sprint(len(ex.Steps))}}, ex.Steps, reflective)
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
