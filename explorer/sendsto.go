package explorer

import "github.com/ravelmc/ravel/model"

// sendsSlots is the most slots of the table of what deliveries sent (SendsTo): 16,384
// entries of 16 bytes. A state's few enabled events look it up once each, when stateful
// DPOR picks the event a new state starts with.
const sendsSlots = 1 << 14

// SendsTo implements dpor.Sender: what delivering event k of the top node sends, looked
// up by the receiver's state, the event's content and the history, else found by running
// it (peek, whose result the search keeps for when it explores the event). The table is
// a slotCache: a miss costs a step, never an answer, so the answers and the search's
// choices do not depend on what it holds (a search resumed from a checkpoint, with the
// table empty, makes the same).
func (e *engine) SendsTo(k int) uint64 {
	d := len(e.states) - 1
	ev := &e.nodes[d].Enabled[k]
	s := e.states[d]
	if e.idx[d][k] < 0 || int(ev.To) >= len(s.ahash) {
		return hookSends(e.peek(k, true).info.SendsTo)
	}
	// What a handler sends depends on its actor's state and the event; a client's next
	// request, on whether it takes the answer, which the history decides.
	key := model.Mix64(s.ahash[ev.To] ^ model.Mix64(ev.Content) ^ model.Mix64(s.chrono+0x5e4d5))
	if sends, ok := e.sends.get(key); ok {
		return hookSends(sends)
	}
	sends := e.peek(k, true).info.SendsTo
	e.sends.put(key, sends)
	return hookSends(sends)
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
	if p.next == nil || p.fail != nil {
		return 0, false
	}
	return p.next.fingerprint(), true
}
