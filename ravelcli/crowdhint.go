package ravelcli

import (
	"fmt"

	"github.com/ravelmc/ravel/report"
)

// crowdJSON is explorer.Crowd in check's JSON output.
type crowdJSON struct {
	Count   int    `json:"count"`
	Type    string `json:"type"`
	From    string `json:"from"`
	To      string `json:"to"`
	Pending int    `json:"pending"`
}

// crowdHintCount is how many like messages pending at a cut schedule's end make check
// say the protocol sends without bound. The shipped systems never hold more than a few
// alike (a register's write to each replica, a retry); a timer that re-sends on every
// firing holds hundreds by the depth budget.
const crowdHintCount = 10

// crowdHint names the likely reason schedules were cut when a cut one ended with many
// like messages pending: something sends them faster than they are delivered, so the
// state space is infinite, and neither a larger --max-depth nor state caching (whose
// paths then never meet a visited state) makes the search complete.
func crowdHint(r checkReport) string {
	c := r.CutCrowd
	if c == nil || c.Count < crowdHintCount {
		return ""
	}
	return fmt.Sprintf("hint: a schedule cut at the depth budget ended with %s %s from %s to %s pending (of %s): something sends them without bound (a timer re-armed on every firing that re-sends each time?), so the state space is infinite and no search completes; bound what it sends",
		report.Thousands(int64(c.Count)), c.Type, c.From, c.To, report.Thousands(int64(c.Pending)))
}
