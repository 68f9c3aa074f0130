package ravelcli

import "fmt"

// repeatJSON is explorer.Repeat in check's JSON output.
type repeatJSON struct {
	Count int    `json:"count"`
	Steps int    `json:"steps"`
	Timer string `json:"timer,omitempty"`
	Type  string `json:"type,omitempty"`
	From  string `json:"from"`
	To    string `json:"to"`
	what  string // explorer.Repeat.String
}

// repeatHintCount is how many times one step must be taken on a cut schedule, and
// repeatHintShare the share of the schedule it must be at least, for check to say the
// state grows without bound. The shipped systems, cut at depth 30 with caching and
// timeouts or duplicates, repeat a step at most 9 times (paxos-buggy;
// TestShippedSystemsDoNotRepeat); a timer that bumps a counter on every firing is most of
// the path.
const (
	repeatHintCount = 10
	repeatHintShare = 3 // one step in three or more
)

// repeatHint names the likely reason schedules were cut under state caching when one step
// was most of a cut schedule: with caching a path ends where it meets a visited state, so
// each of those steps led to a state not seen before, and something it changes grows
// without bound. Neither a larger --max-depth nor another strategy then completes.
func repeatHint(r checkReport) string {
	p := r.CutRepeat
	if p == nil || p.Count < repeatHintCount || repeatHintShare*p.Count < p.Steps {
		return ""
	}
	return fmt.Sprintf("hint: in a schedule cut at the depth budget, %s: with state caching a path stops where it comes back to a state already explored, and this one never did, so something that step changes grows without bound (a counter bumped on every firing of a timer that re-arms itself?); the state space is infinite and no search completes: bound it",
		p.what)
}
