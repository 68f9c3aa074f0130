package explorer

import "slices"

// A path that returns to a state earlier on itself ends there, as a schedule whose
// history is judged (docs/design-notes.md, "A schedule also ends where its path closes a
// cycle"): with state caching, a system that never quiesces ends every path that way.

// closesCycle reports whether s, the state just reached (on top of the path), is the
// state of an earlier step of the same path: the fingerprint covers the history, so the
// cycle from there to s added nothing to it.
func (e *engine) closesCycle(s *state) bool {
	d := len(e.states) - 1
	if len(e.fps) != d+1 {
		return false // no caching: no revisit either
	}
	return slices.Contains(e.fps[:d], e.fps[d])
}

// expandCycle explores every event of the state whose step closed a cycle, for a
// strategy that explores a subset of each state's events: the stack proviso of partial
// order reduction (Valmari's ignoring problem). Without it, an event independent of the
// cycle's steps is never taken on any path through the cycle: stateful DPOR, on a
// primary whose timer re-arms itself, fired the timer forever and never delivered the
// clients' requests.
func (e *engine) expandCycle() {
	n := &e.nodes[len(e.nodes)-2]
	n.Backtrack.AddAll(len(n.Enabled))
	n.Cycled.Add(n.Taken)
}
