package ravelcli

import (
	"cmp"
	"fmt"

	"github.com/ravelmc/ravel/report"
)

// checkCaveats are the notes the text report prints above its status line: what the
// run's reduction may miss, and the system's exclusions.
func checkCaveats(r checkReport) []string {
	var notes []string
	if r.unanswered != "" {
		notes = append(notes, "note: "+r.unanswered)
	}
	if r.Exclusions > 0 {
		notes = append(notes, fmt.Sprintf("note: the system excludes %d message types from interleaving; a wrong exclusion hides bugs", r.Exclusions))
	}
	if note := reductionNote(r); note != "" {
		notes = append(notes, note)
	}
	if r.crashStopNote != "" {
		notes = append(notes, r.crashStopNote)
	}
	return notes
}

// checkHints are the hints the text report prints below its status line: what to try
// next. A protocol that sends without bound completes under no search: the crowd's hint
// replaces the one that points to a search that completes. A specification that
// panicked is to mend first, and gets none.
func checkHints(r checkReport) []string {
	if r.HistoriesUnjudged > 0 || r.Error != "" {
		return nil
	}
	var hints []string
	for _, h := range []string{searchHint(r), copyHint(r)} {
		if h != "" {
			hints = append(hints, h)
		}
	}
	return hints
}

// searchHint is the first of checkHints: what would make the search complete, or why
// none can; "" when there is nothing to say, or when checkHints says nothing.
func searchHint(r checkReport) string {
	if r.HistoriesUnjudged > 0 || r.Error != "" {
		return ""
	}
	return cmp.Or(crowdHint(r), repeatHint(r), mostlyCutHint(r), samplerCutHint(r), completeSearchHint(r), cutReductionHint(r))
}

// completeSearchHint points a user whose search without state caching stopped at a
// budget to the search that completes: with caching a path ends at a state already
// visited, so cycles (which cut schedules at the depth budget) are not unrolled, and
// stateful DPOR completes on a finite state space in a fraction of exhaustive search's
// states (docs/strategies.md).
//
// Exhaustive search with caching that stops short (a budget, or interrupted; not a
// depth budget, under which stateful DPOR explores fewer orders: cutReductionHint) gets the
// other half of that hint: stateful DPOR finds the same canonical histories in fewer
// states: on the largest harnesses both complete, 0.08–0.13 of exhaustive search's
// (abd 2w2r: 14.9 million states in under a minute of CPU, against 122.5 million in
// eleven; docs/strategies.md).
func completeSearchHint(r checkReport) string {
	switch {
	case r.Complete || r.Stateless:
		return ""
	case r.StateCaching && r.Strategy == "exhaustive" && r.CutSchedules == 0:
		return "hint: --strategy dpor (stateful DPOR, with the same --state-caching on) finds the same canonical histories in fewer states"
	case r.Interrupted || r.StateCaching || (r.Strategy != "exhaustive" && r.Strategy != "dpor"):
		return ""
	case cutByDepth(r):
		// The depth budget, not the schedule budget, left the search incomplete: it is the
		// first cause to name; caching helps only if the paths loop. A dpor run is told
		// the flags it lacks, not the strategy it has.
		strategy := "--strategy dpor "
		if r.Strategy == "dpor" {
			strategy = ""
		}
		return fmt.Sprintf("hint: the depth budget (--max-depth %d) cut the search: raise it until nothing is cut; if the protocol's paths loop, %s--state-caching on --max-schedules 0 ends each path at a state already visited, so it completes on a finite state space", r.MaxDepth, strategy)
	}
	return "hint: --strategy dpor --state-caching on --max-schedules 0 ends each path at a state already visited, so it completes on a finite state space, cycles included"
}

// cutByDepth says whether the search ended, incomplete, only because the depth budget
// cut schedules: not interrupted, nor stopped at the schedule or state budget.
func cutByDepth(r checkReport) bool {
	switch {
	case r.Complete || r.Interrupted || r.HistoriesUnjudged > 0, r.MaxStates > 0 && r.States >= r.MaxStates:
		return false
	}
	return r.CutSchedules > 0 && (r.MaxSchedules == 0 || r.Schedules < r.MaxSchedules)
}

// noViolationVerdict is the line that ends the report of a search that found no
// violation (and the HTML page's verdict). A search that did not complete says so, and
// why, so that "no violation found" is not read as a verdict on the system (probe Y1:
// abd-buggy and leader-buggy stop at the default budget before their bug).
func noViolationVerdict(r checkReport) string {
	switch {
	case r.HistoriesUnjudged > 0:
		return "no verdict: the specification panicked (below)"
	case r.Complete && reductionNote(r) != "":
		return "no violation found in the histories this reduction keeps (see the note above)"
	case r.Complete:
		return "no violation found"
	}
	explored := fmt.Sprintf("the %s schedules explored", report.Thousands(r.Schedules))
	if r.Schedules == 1 {
		explored = "the 1 schedule explored"
	}
	if r.Sampling != nil {
		runs := fmt.Sprintf("the %s runs drawn", report.Thousands(r.Schedules))
		if r.Schedules == 1 {
			runs = "the 1 run drawn"
		}
		return fmt.Sprintf("no violation found in %s — but a sampler's search is incomplete by nature: its hit rate's interval bounds how likely a run was to find one", runs)
	}
	var why string
	switch {
	case r.Error != "":
		why = "it stopped at the error below"
	case r.Interrupted:
		why = "it was interrupted"
	case r.MaxStates > 0 && r.States >= r.MaxStates:
		why = "it stopped at the state budget, --max-states " + report.Thousands(r.MaxStates)
	case cutByDepth(r):
		why = fmt.Sprintf("the depth budget, --max-depth %d, cut schedules", r.MaxDepth)
	default:
		why = "it stopped at the schedule budget, --max-schedules " + report.Thousands(r.MaxSchedules)
	}
	return fmt.Sprintf("no violation found in %s — but the search is incomplete (%s): the schedules it did not explore may hold one", explored, why)
}
