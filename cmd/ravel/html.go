package main

import (
	"fmt"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
)

// writeCheckHTML is check --html: the first violation's page with the run's statistics,
// or the statistics alone when none was found.
func writeCheckHTML(path string, sys *model.System, r checkReport, res *explorer.Result) error {
	stats := [][2]string{
		{"system", r.System}, {"harness", r.Harness}, {"strategy", r.Strategy}, {"agents", fmt.Sprint(r.Agents)}, {"seed", fmt.Sprint(r.Seed)},
		{"complete", fmt.Sprint(r.Complete)}, {"schedules", thousands(r.Schedules)}, {"steps", thousands(r.Steps)},
		{"unique histories", thousands(r.HistoriesUnique)}, {"non-linearizable histories", thousands(r.Nonlinearizable)},
		{"total time", seconds(r.TotalSeconds)},
	}
	if r.Workload != "" {
		stats = append(stats, [2]string{"workload", r.Workload})
	}
	title := "ravel check " + r.System
	verdict := "no violation found"
	var steps []explorer.Delivery
	if v := res.First; v != nil {
		steps = v.Steps
		verdict = fmt.Sprintf("VIOLATION (%s) in schedule %d", v.Kind, v.Schedule)
		if v.Message != "" {
			verdict += ": " + v.Message
		}
	}
	p, err := report.NewPage(sys, title, verdict, stats, steps)
	if err != nil {
		return err
	}
	return report.WriteHTMLFile(path, p)
}
