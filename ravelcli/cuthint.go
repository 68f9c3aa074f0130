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

// samplerCutHint is the hint of a sampler (random, pct…) at least half of whose runs
// ran into the depth budget: the protocol does not quiesce (a timer re-armed on every
// firing, probe T1: Raft's heartbeat), so each run goes on to --max-depth steps after
// its operations. A sampler judges the history of a cut run as of any other, so a cut
// loses nothing but time: a lower depth budget, still above the steps the operations
// need, draws more runs in the same time (and, under pct, its bound counts fewer
// events); or the protocol can stop re-arming once its work is done.
func samplerCutHint(r checkReport) string {
	if !isSampler(r.Strategy) || r.Schedules == 0 || 2*r.CutSchedules < r.Schedules {
		return ""
	}
	all := "all " + report.Thousands(r.Schedules)
	if r.CutSchedules < r.Schedules {
		all = fmt.Sprintf("%s of %s", report.Thousands(r.CutSchedules), report.Thousands(r.Schedules))
	}
	return fmt.Sprintf("hint: %s runs were cut at the depth budget (--max-depth %d): the protocol does not quiesce (a timer re-armed on every firing?), so a run goes on to the budget after its operations. A cut run's history is judged as any other's; the steps after the operations only cost time: a lower --max-depth, still above the steps the operations need, draws more runs in the same time (and under pct, whose n counts a run's events, raises the bound), or let the timer stop re-arming once the work is done", all, r.MaxDepth)
}
