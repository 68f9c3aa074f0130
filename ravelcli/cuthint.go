package ravelcli

import (
	"fmt"

	"github.com/ravelmc/ravel/report"
)

// mostlyCutShare: when the schedule budget stops a run in which at least this share of
// the schedules (9 in 10) ran into the depth budget, check says so. Such a run has seen
// few schedules end: the protocol may never quiesce, and the schedule budget's is then
// not the cause to name alone.
const mostlyCutShare = 0.9

// mostlyCut says whether the schedule budget stopped r's search (not complete, nor
// interrupted) and at least mostlyCutShare of its schedules were cut at the depth budget.
func mostlyCut(r checkReport) bool {
	if r.Complete || r.Interrupted || r.HistoriesUnjudged > 0 || r.MaxSchedules <= 0 || r.Schedules < r.MaxSchedules || r.Schedules == 0 {
		return false
	}
	return float64(r.CutSchedules) >= mostlyCutShare*float64(r.Schedules)
}

// mostlyCutNote adds to check's "stopped at the schedule budget" status line how many
// schedules were cut at the depth budget, when they were (nearly) all: "; all 2,000
// schedules were cut at the depth budget (--max-depth 1000)".
func mostlyCutNote(r checkReport) string {
	if !mostlyCut(r) {
		return ""
	}
	all := "all " + report.Thousands(r.Schedules)
	if r.CutSchedules < r.Schedules {
		all = fmt.Sprintf("%s of %s", report.Thousands(r.CutSchedules), report.Thousands(r.Schedules))
	}
	return fmt.Sprintf("; %s schedules were cut at the depth budget (--max-depth %d)", all, r.MaxDepth)
}

// mostlyCutHint replaces the hint that stateful DPOR completes on a finite state space
// (completeSearchHint) when (nearly) every schedule was cut: the depth budget may be too
// small, or the protocol never quiesces and its state space may be infinite, on which no
// search completes; stateful DPOR then tells which, by completing or by naming what
// piles up (crowdHint, repeatHint). The crowd's and the repeat's hints, when they apply,
// still come first (printCheck).
func mostlyCutHint(r checkReport) string {
	if !mostlyCut(r) || r.StateCaching || r.Stateless || (r.Strategy != "exhaustive" && r.Strategy != "dpor") {
		return ""
	}
	return fmt.Sprintf("hint: the schedules ran into the depth budget (--max-depth %d) instead of ending: raise it until some end; a protocol that never quiesces (a timer re-armed on every firing?) may have an infinite state space, on which no search completes: --strategy dpor --state-caching on --max-schedules 0 completes if its states repeat, and names what grows if they do not", r.MaxDepth)
}
