package explorer

import (
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// The canonical key of a history prefix identifies its canonical form (histories.Canonical):
// its operations with their inputs and outputs, the ones still open, and which returned
// before which was invoked. Two prefixes with equal keys have equal canonical forms (up to
// hash collisions), and every continuation adds the same precedences to both, so with
// Options.CanonicalStates a state's fingerprint covers the key instead of the history's
// chain hash: the paths it merges reach the same canonical histories.
//
// A client has at most one operation open, and the operations another client had had
// answered when one was invoked are a prefix of that client's operations, so an
// operation's predecessors are the vector of how many operations each client had had
// answered at its invocation. The key is the sum of one term per operation invoked, of
// the client, the operation's number, that vector's hash, and the output or "open", so
// that an invocation adds a term and a response replaces one. An operation's input is the
// harness's for its client and number.

// openOutput stands for the output of an operation not yet answered.
const openOutput = 0x6f70656e6f70

// recordCanon adds history event e to n's canonical key (n.hist); n owns its clients, and
// for a return their answered counts already include e.
func (n *state) recordCanon(e histories.Event) {
	c, _ := e.Req.Client.Client()
	cl := &n.clients[c]
	switch e.Kind {
	case histories.Invoke:
		done := uint64(0)
		for i, o := range n.clients {
			done += model.Mix64(uint64(i)<<32 | uint64(uint32(o.answered)) + 0x646f6e65)
		}
		cl.open = model.Mix64(model.Mix64(uint64(c)<<32|uint64(uint32(e.Req.Seq))) ^ done)
		n.hist += model.Mix64(cl.open ^ openOutput)
	case histories.Return:
		n.hist += model.Mix64(cl.open^model.Mix64(e.OutputHash+0x6f7574)) - model.Mix64(cl.open^openOutput)
	}
}

// chronoOf returns the chain hash of events, the history of state s: s keeps it unless
// x keys histories canonically.
func (x *executor) chronoOf(s *state, events []histories.Event) uint64 {
	if !x.byCanon {
		return s.hist
	}
	h := uint64(0)
	for _, e := range events {
		h = histories.ChainHash(h, e)
	}
	return h
}
