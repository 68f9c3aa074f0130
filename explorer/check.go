package explorer

import (
	"time"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/wgl"
)

// verdict is what judging one schedule's history found.
type verdict uint8

const (
	seenBefore   verdict = iota // the chronological history was seen before
	fine                        // a new history, linearizable
	newViolation                // a new history, not linearizable
)

// checker keeps the histories a run has seen and checks each canonical history once.
type checker struct {
	x       *executor
	chrono  map[uint64]struct{}
	canon   map[uint64][]canonEntry
	scratch histories.Canonical
	elapsed time.Duration
	// histories lists the canonical histories in the order they were found.
	histories []CanonicalHistory
}

// CanonicalHistory is one canonical history a run found, and whether it is linearizable.
type CanonicalHistory struct {
	History      histories.Canonical
	Linearizable bool
}

type canonEntry struct {
	c  histories.Canonical
	ok bool
}

func newChecker(x *executor) *checker {
	return &checker{x: x, chrono: make(map[uint64]struct{}), canon: make(map[uint64][]canonEntry)}
}

// judge counts the history events, whose chain hash is chrono, into st and reports
// whether it is new and linearizable. A chronological history is judged once; its
// canonical form is checked once across all the chronological histories that share it.
func (c *checker) judge(chrono uint64, events []histories.Event, st *Stats) verdict {
	if _, ok := c.chrono[chrono]; ok {
		return seenBefore
	}
	c.chrono[chrono] = struct{}{}
	st.Unique++
	ok := c.canonical(events, st)
	if ok {
		return fine
	}
	st.Nonlinearizable++
	return newViolation
}

// canonical reports whether the canonical form of events is linearizable, checking it if
// it is new.
func (c *checker) canonical(events []histories.Event, st *Stats) bool {
	c.scratch.Reset(events)
	h := c.scratch.Hash()
	for _, e := range c.canon[h] {
		if e.c.Equal(&c.scratch) {
			return e.ok
		}
	}
	start := time.Now()
	ops := c.scratch.Operations(c.x.harness)
	res := wgl.Check(c.x.harness.Spec().Spec, ops)
	ok := res.Verdict == wgl.Linearizable
	c.elapsed += time.Since(start)
	kept := c.scratch.Clone()
	c.canon[h] = append(c.canon[h], canonEntry{c: kept, ok: ok})
	c.histories = append(c.histories, CanonicalHistory{History: kept, Linearizable: ok})
	st.Canonical++
	if !ok {
		st.NonlinearizableCan++
	}
	return ok
}
