package explorer

import (
	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
)

// sendsSlots is the most slots of the table of what deliveries sent (SendsTo): 16,384
// entries of 16 bytes. A state's few enabled events look it up once each, when stateful
// DPOR picks the event a new state starts with.
const sendsSlots = 1 << 14

// SendsTo implements dpor.Sender: what delivering event k of the top node sends. That is
// the habit of its content at its actor when there is one (below); else it is looked up
// by the receiver's state, the event's content and the history, else found by running
// the step (peek, whose result the search keeps for when it explores the event). The
// table is a slotCache: a miss costs a step, never an answer, so the answers and the
// search's choices do not depend on what it holds (a search resumed from a checkpoint,
// with the table empty, makes the same).
func (e *engine) SendsTo(k int) uint64 {
	d := len(e.states) - 1
	ev := &e.nodes[d].Enabled[k]
	s := e.states[d]
	if e.idx[d][k] < 0 || int(ev.To) >= len(s.ahash) {
		return hookSends(e.peek(k, true).info.SendsTo)
	}
	// What a handler sends depends on its actor's state and the event; a client's next
	// request, on whether it takes the answer, which the history decides.
	hk := habitKey(ev)
	h, known := e.habits[hk]
	if known && h.trusted() {
		return hookSends(h.Sends)
	}
	key := model.Mix64(s.ahash[ev.To] ^ model.Mix64(ev.Content) ^ model.Mix64(s.hist+0x5e4d5))
	sends, ok := e.sends.get(key)
	if !ok {
		sends = e.peek(k, true).info.SendsTo
		e.sends.put(key, sends)
	}
	if h, changed := h.after(sends, known); changed && e.habits != nil {
		e.habits[hk] = h
	}
	return hookSends(sends)
}

// A delivery's sends depend on the receiver's state, so the table above answers only for
// a state seen before, and a miss costs a step run only to ask (steps_peeked): on chord
// 2r1w 348 of its 1,333 steps. Most handlers, though, send what they always send for a
// given message, whatever the state. So SendsTo keeps, by actor and content, what the
// deliveries it answered exactly and those the search took have sent: a habit, once
// habitTrusted of them sent the same and none otherwise, answers without a step. The
// answer only orders the search (Sender's contract), so a wrong one costs states, never
// a finding. What the habits hold depends on the search's path alone — the exact
// answers do not depend on the table above — and a checkpoint keeps them, so a search
// resumed makes the choices of one not interrupted.

// habitTrusted is how many deliveries of one content to one actor, all sending the same,
// make their sends a habit, and one that sends otherwise ends it, even once formed. With
// 4, and habits never ended, abd 1w2r-seq visited 87,065 states instead of 56,258 (its
// replies depend on the replica's state); with 8 and never ended, adr 2r1w and 2r2w and
// abd 1w2r visited 2.3–2.7% more. As it is, the 35 configurations of the seventeenth
// round's table (docs/stateful-dpor-history.md) visit the states the exact answers give,
// 29 exactly and 6 within 0.1%.
const habitTrusted = 8

// sendsHabit is what the deliveries of one content to one actor have sent, of those
// SendsTo answered exactly and those the search took (a checkpoint saves it: the fields
// are exported for gob).
type sendsHabit struct {
	Sends  uint64 // what the first sent
	N      int32  // how many sent it, up to habitTrusted
	Varies bool   // one sent otherwise: never a habit again
}

func (h sendsHabit) trusted() bool { return !h.Varies && h.N >= habitTrusted }

func habitKey(ev *dpor.Event) uint64 {
	return model.Mix64(uint64(ev.To)<<40 ^ model.Mix64(ev.Content))
}

// learnSends adds to the habits, if the search keeps them, that a delivery of habit key
// k sent sends. Out of line: inlined into take, it made exhaustive search, which keeps
// no habits, 5–11% slower on small runs (BenchmarkCheckSmallSearch, commit 7346b52).
//
//go:noinline
func (e *engine) learnSends(k, sends uint64) {
	if e.habits == nil {
		return
	}
	h, known := e.habits[k]
	if h, changed := h.after(sends, known); changed {
		e.habits[k] = h
	}
}

// after returns the habit h (known: one was kept) once a delivery sent sends, and
// whether that changed it.
func (h sendsHabit) after(sends uint64, known bool) (sendsHabit, bool) {
	switch {
	case !known:
		return sendsHabit{Sends: sends, N: 1}, true
	case h.Varies:
		return h, false
	case h.Sends != sends:
		h.Varies = true
	case h.N >= habitTrusted:
		return h, false
	default:
		h.N++
	}
	return h, true
}

// sendsHook, when set (by tests), replaces what SendsTo answers.
var sendsHook func(sends uint64) uint64

func hookSends(sends uint64) uint64 {
	if sendsHook != nil {
		return sendsHook(sends)
	}
	return sends
}

// NextFingerprint implements dpor.Lookahead: the fingerprint of the state delivering
// event k of the top node leads to, found by running it (peek, kept for when the search
// explores it).
func (e *engine) NextFingerprint(k int) (uint64, bool) {
	p := e.peek(k, true)
	switch {
	case p.dropped:
		return p.fp, true // stateless: the state is not kept, its fingerprint is
	case p.next == nil || p.fail != nil:
		return 0, false
	}
	return p.next.fingerprint(), true
}
