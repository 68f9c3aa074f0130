package explorer

import (
	"slices"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
)

// peek is a step run from a node of the path before the search takes it (Path.Next,
// SendsTo, a sleep-set check's run kept), kept for when it does.
type peek struct {
	ok     bool
	next   *state
	events []histories.Event
	fail   *failure
	info   dpor.StepInfo
	// bySends marks a step run only for SendsTo, and not yet asked for by Next or
	// explored: if it never is, Stats.Peeked counts it (settlePeeks).
	bySends bool
	// byCheck marks a step a check ran (keepCheckRun) that the search has not used
	// yet: it is counted in Stats.Steps when the search first peeks at it or takes it,
	// as the step the search would otherwise have run then, so that the statistics do
	// not depend on which checks ran.
	byCheck bool
	// dropped marks, in stateless mode, a step that reached a state the peek did not
	// keep (next is nil): fp is that state's fingerprint, for NextFingerprint to answer
	// as the stateful search does, and take runs the step again as a replay.
	dropped bool
	fp      uint64
}

// Next implements dpor.Path: it runs event k of the top node, if that has not been done,
// and keeps the outcome for when the search takes it.
func (e *engine) Next(k int) *dpor.StepInfo { return &e.peek(k, false).info }

// peek runs event k of the top node, if that has not been done, and returns what it did;
// bySends says SendsTo asks, which Stats.Peeked counts apart when nothing else asks.
func (e *engine) peek(k int, bySends bool) *peek {
	d := len(e.states) - 1
	p := e.peekSlot(d, k)
	if !p.ok {
		s := e.states[d]
		next, log, fail := e.x.step(s, e.idx[d][k], d, e.log)
		e.log = log
		e.stats.Steps++
		*p = peek{ok: true, next: next, fail: fail, info: e.info(e.nodes[d].Enabled[k])}
		if e.idx[d][k] >= 0 {
			e.noteStep(s, e.nodes[d].Enabled[k].Content, next, fail, &p.info, true)
		}
		if e.opts.Stateless {
			// A stateless search keeps no state it could backtrack to: only where the
			// step leads, which stateful DPOR's choice of the first event asks.
			if next != nil && fail == nil {
				p.dropped, p.fp = true, next.fingerprint()
			}
			p.next = nil
		} else if next != nil {
			p.events = stepEvents(s, next, log)
		}
		p.bySends = bySends
	} else if p.byCheck {
		e.useCheckRun(d, k, p)
		p.bySends = bySends
	} else if !bySends {
		p.bySends = false
	}
	return p
}

// stepEvents returns a copy of the history events the step from st to next added to
// log, or nil when it added none: what a peek keeps for take to put back on the log.
func stepEvents(st, next *state, log []histories.Event) []histories.Event {
	if next.events <= st.events {
		return nil
	}
	return slices.Clone(log[st.events:next.events])
}

// peekSlot returns the peek of event k at depth d, making room for the node's events.
func (e *engine) peekSlot(d, k int) *peek {
	for len(e.peeks) <= d {
		e.peeks = append(e.peeks, nil)
	}
	if len(e.peeks[d]) < len(e.nodes[d].Enabled) {
		e.peeks[d] = slices.Grow(e.peeks[d][:0], len(e.nodes[d].Enabled))[:len(e.nodes[d].Enabled)]
		clear(e.peeks[d])
	}
	return &e.peeks[d][k]
}

// settlePeeks counts in Stats.Peeked the steps run at depth d only for SendsTo (all
// depths: d < 0), before their node is reused or the search ends.
func (e *engine) settlePeeks(d int) {
	if d < 0 {
		for i := range e.peeks {
			e.settlePeeks(i)
		}
		return
	}
	for k := range e.peeks[d] {
		if p := &e.peeks[d][k]; p.ok && p.bySends {
			p.bySends = false
			e.stats.Peeked++
		}
	}
}
