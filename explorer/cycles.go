package explorer

import (
	"slices"

	"github.com/ravelmc/ravel/dpor"
)

// A path that returns to a state earlier on itself ends there, as a schedule whose
// history is judged (docs/design-notes.md, "A schedule also ends where its path closes a
// cycle"): with state caching, a system that never quiesces ends every path that way.

// closesCycle reports whether s, the state just reached (on top of the path), is the
// state of an earlier step of the same path, under the same visited key: the fingerprint
// covers the history, so the cycle from there to s added nothing to it. A strategy whose
// choices depend on more than the state (delay-bounded search's delays left) has closed
// a cycle only where that is the same too; elsewhere the path goes on differently from
// the state, and its history is no lasso's.
func (e *engine) closesCycle(s *state) bool {
	d := len(e.states) - 1
	if len(e.fps) != d+1 {
		return false // no caching: no revisit either
	}
	if !slices.Contains(e.fps[:d], e.fps[d]) {
		return false
	}
	if dpor.KeyFree(e.cacher) {
		return true
	}
	key := e.visitKeyAt(d)
	for i := range d {
		if e.fps[i] == e.fps[d] && e.visitKeyAt(i) == key {
			return true
		}
	}
	return false
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
