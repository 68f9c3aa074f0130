package explorer

import (
	"fmt"
	"slices"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// Execution is the outcome of replaying one schedule from the initial state.
type Execution struct {
	// Steps are the deliveries made, in order.
	Steps []Delivery
	// Events are the history.
	Events []histories.Event
	// Fingerprint is the fingerprint of the final state.
	Fingerprint uint64
	// Failure is set when a handler panicked or answered with an ill-typed value at the
	// last step: "panic: …" or "bad-response: …".
	Failure string
	// Stack is the handler's stack at a panic.
	Stack string
	// Pending are the messages, requests and armed timers still pending in the final
	// state, never delivered by the schedule, in the order they were sent (the report's
	// "pending at the end": a message never delivered is often the point of a
	// counterexample).
	Pending []Delivery
}

// Replay runs the schedule ids — event identities, as in a Violation's Steps — on sys
// from its initial state, with nothing carried over from any other run: the stateless
// re-execution that reports and tests rely on. It fails when an event of the schedule is
// not enabled when its turn comes.
func Replay(sys model.System, ids []uint64, reflective bool) (*Execution, error) {
	if err := checkSize(len(sys.Actors)); err != nil {
		return nil, err
	}
	x, err := newExecutor(&sys, reflective)
	if err != nil {
		return nil, err
	}
	return replay(x, ids, nil)
}

// replay runs ids from the initial state. With like nil it is strict: every event must
// be enabled when its turn comes. With like set (an event's ID to its Content), an event
// not enabled is stood in for by the first enabled message, request or timer with the
// same content — the same message, sent at another step (a re-send's copy for the
// original, or the other way round) — and like learns the content of every event run.
// The Execution's Steps name the events run, stand-ins included.
func replay(x *executor, ids []uint64, like map[uint64]uint64) (*Execution, error) {
	s, fail, err := x.initial()
	if err != nil {
		return nil, err
	}
	ex := &Execution{}
	if fail != nil {
		ex.Failure, ex.Stack = fail.kind+": "+fail.msg, fail.stack
		return ex, nil
	}
	var log []histories.Event
	var buf []dpor.Event
	var idx []int
	for d, id := range ids {
		buf, idx = x.enabled(s, buf, idx)
		k := -1
		for i, ev := range buf {
			if ev.ID == id {
				k = i
				break
			}
		}
		if c, ok := like[id]; ok && k < 0 {
			k = slices.IndexFunc(buf, func(ev dpor.Event) bool { return !ev.Kind.IsFault() && ev.Content == c })
		}
		if k < 0 {
			return nil, fmt.Errorf("replay: step %d: event %016x is not enabled (the schedule does not belong to this system, or a handler is not deterministic)", d+1, id)
		}
		ev := buf[k]
		if like != nil && !ev.Kind.IsFault() {
			like[ev.ID] = ev.Content
		}
		ex.Steps = append(ex.Steps, deliveryOf(ev))
		next, l, f := x.step(s, idx[k], d, log)
		log = l
		if f != nil {
			ex.Failure, ex.Stack = f.kind+": "+f.msg, f.stack
			ex.Events = log[:next.events]
			ex.Fingerprint = next.fingerprint()
			ex.Pending = pendingOf(next)
			return ex, nil
		}
		s = next
	}
	ex.Events = log[:s.events]
	ex.Fingerprint = s.fingerprint()
	ex.Pending = pendingOf(s)
	return ex, nil
}

// pendingOf lists the events pending in s — messages, requests and armed timers, not
// faults — as deliveries, in pending order.
func pendingOf(s *state) []Delivery {
	out := make([]Delivery, len(s.pending))
	for i, p := range s.pending {
		out[i] = deliveryOf(p.ev)
	}
	return out
}
