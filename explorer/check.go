package explorer

import (
	"sync/atomic"
	"time"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// checker keeps the histories a run has seen and checks each canonical history once, on
// a goroutine of its own, so that checking overlaps exploration. Verdicts are gathered
// when the run ends; everything that depends on them — the counts of non-linearizable
// histories and the first violation — is computed then, from the order in which the
// search found the histories, so it does not depend on how fast the checker was.
type checker struct {
	x       *executor
	chrono  map[uint64]*canonEntry // chronological history → its canonical form
	canon   map[uint64][]*canonEntry
	entries []*canonEntry // in the order found
	scratch histories.Canonical

	work    chan *canonEntry
	done    chan struct{}
	elapsed atomic.Int64 // nanoseconds spent checking
	bad     atomic.Int64 // canonical histories found not linearizable so far
	// broken is the first history the specification could not judge: it panicked (a
	// bug in the user's specification, which ends the run with an error).
	broken atomic.Pointer[canonEntry]
	// inline judges each new canonical history in judge, before it returns, instead of
	// on the checking goroutine (Options.StopAtFirst).
	inline bool
}

// CanonicalHistory is one canonical history a run found, and whether it is linearizable.
type CanonicalHistory struct {
	History      histories.Canonical
	Linearizable bool
	// Final is set when a schedule that ended at a final state, or was cut by the depth
	// budget, had the history; it is not when only schedules that closed a cycle (with
	// state caching) had it. Stateful DPOR finds every Final history exhaustive search
	// finds, but may skip a cycle's history that some other history extends.
	Final bool
	// Err is why the history has no verdict (the specification panicked: a
	// *wgl.SpecPanicError); Linearizable is then false. Such a run ends with an error.
	Err error
}

// canonEntry is one canonical history: the engine fills in everything but ok, which the
// checking goroutine writes before it finishes.
type canonEntry struct {
	c      histories.Canonical
	ops    []histories.Operation[any, any]
	ok     bool
	err    error // why there is no verdict: the specification panicked
	chrono int64 // chronological histories with this canonical form
	final  bool  // a schedule that did not end in a cycle had it
	first  found // the schedule that found it first
}

// found is where a history was first seen.
type found struct {
	schedule    int64
	steps       []dpor.Event
	events      []histories.Event
	fingerprint uint64
	at          time.Duration // since the start of the run
	uniqueSeen  int64         // chronological histories found before it
}

func newChecker(x *executor) *checker {
	c := &checker{
		x:      x,
		chrono: make(map[uint64]*canonEntry),
		canon:  make(map[uint64][]*canonEntry),
		work:   make(chan *canonEntry, 1024),
		done:   make(chan struct{}),
	}
	spec := x.harness.Spec().Spec
	go func() {
		defer close(c.done)
		for e := range c.work {
			c.check(spec, e)
		}
	}()
	return c
}

// check judges the history of e.
func (c *checker) check(spec specs.Spec[any, any, any], e *canonEntry) {
	start := time.Now()
	res := wgl.Check(spec, e.ops)
	e.ok = res.Verdict == wgl.Linearizable
	e.ops = nil
	c.elapsed.Add(int64(time.Since(start)))
	switch res.Verdict {
	case wgl.NotLinearizable:
		c.bad.Add(1)
	case wgl.Unknown: // without a deadline, only a specification that panics
		e.err = res.Err
		c.broken.CompareAndSwap(nil, e)
	}
}

// judge counts the history events of a schedule, whose chain hash is chrono, into st. A
// chronological history is looked at once; its canonical form is checked once across all
// the chronological histories that share it. where says how to find the schedule, and is
// called only for a canonical history not seen before. It returns the history's entry,
// whose verdict is known after finish.
func (c *checker) judge(chrono uint64, events []histories.Event, st *Stats, cycle bool, where func() found) *canonEntry {
	if e, ok := c.chrono[chrono]; ok {
		e.final = e.final || !cycle
		return e
	}
	st.Unique++
	c.scratch.Reset(events)
	h := c.scratch.Hash()
	var entry *canonEntry
	for _, e := range c.canon[h] {
		if e.c.Equal(&c.scratch) {
			entry = e
			break
		}
	}
	if entry == nil {
		entry = &canonEntry{c: c.scratch.Clone(), first: where()}
		entry.first.uniqueSeen = st.Unique - 1
		entry.ops = entry.c.Operations(c.x.harness)
		c.canon[h] = append(c.canon[h], entry)
		c.entries = append(c.entries, entry)
		if c.inline {
			c.check(c.x.harness.Spec().Spec, entry)
		} else {
			c.work <- entry
		}
	}
	entry.chrono++
	entry.final = entry.final || !cycle
	c.chrono[chrono] = entry
	return entry
}

// finish waits for the verdicts and completes st with them. It returns the canonical
// histories in the order found, and the earliest-found non-linearizable one, if any.
func (c *checker) finish(st *Stats) ([]CanonicalHistory, *canonEntry) {
	close(c.work)
	<-c.done
	st.Canonical = int64(len(c.entries))
	out := make([]CanonicalHistory, len(c.entries))
	var first *canonEntry
	for i, e := range c.entries {
		out[i] = CanonicalHistory{History: e.c, Linearizable: e.ok, Err: e.err, Final: e.final}
		if e.ok || e.err != nil {
			continue
		}
		st.NonlinearizableCan++
		st.Nonlinearizable += e.chrono
		if first == nil || e.first.schedule < first.first.schedule {
			first = e
		}
	}
	return out, first
}

// checking is the time spent checking so far.
func (c *checker) checking() time.Duration { return time.Duration(c.elapsed.Load()) }
