package histories

import (
	"github.com/ravelmc/ravel/model"
)

// Kind says whether an event invokes or returns an operation.
type Kind uint8

// The kinds of events.
const (
	Invoke Kind = iota // a request was delivered to the system
	Return             // an actor answered a request
)

// String names the kind.
func (k Kind) String() string {
	if k == Invoke {
		return "invoke"
	}
	return "return"
}

// Event is one entry of a history as the explorer records it: the invocation or the
// response of the harness's operation Req. An invocation's input is the harness's, so
// only a response carries a value.
type Event struct {
	Kind Kind
	Req  model.RequestID
	// Output is the response's value (Return only).
	Output any
	// OutputHash is Output's fingerprint (Return only): snapshot.Mode{}.Fingerprint(Output),
	// as the explorer records it. Hash, ChainHash and Canonical.Hash see an output only
	// through it, so events built by hand must set it: outputs with the same OutputHash
	// (0, left unset) hash alike. Canonical.Equal compares the outputs themselves.
	OutputHash uint64
}

// Hash is the event's fingerprint.
func (e Event) Hash() uint64 {
	var h model.Hasher
	h.Uint64(uint64(e.Kind))
	h.ID(e.Req.Client)
	h.Int(e.Req.Seq)
	h.Uint64(e.OutputHash)
	return h.Sum64()
}

// ChainHash extends prefix, the fingerprint of a sequence of events, by one event.
// Chronologically equal histories, and only those (up to hash collisions), have equal
// chains, so the chain identifies a chronological history.
func ChainHash(prefix uint64, e Event) uint64 {
	return model.Mix64(prefix*0x9E3779B97F4A7C15 + e.Hash())
}

// Operations turns the events of one execution into operations, in the order of their
// invocations. Times are event positions. An operation invoked and never answered is
// Open. The harness supplies each operation's input.
func Operations(h *model.Harness, events []Event) []Operation[any, any] {
	ops := make([]Operation[any, any], 0, len(events)/2+1)
	index := make(map[model.RequestID]int, len(events)/2+1)
	for t, e := range events {
		switch e.Kind {
		case Invoke:
			index[e.Req] = len(ops)
			c, _ := e.Req.Client.Client()
			ops = append(ops, Operation[any, any]{
				Client: c,
				Input:  h.InputOf(e.Req),
				Call:   int64(t),
				Open:   true,
			})
		case Return:
			i, ok := index[e.Req]
			if !ok || !ops[i].Open {
				continue // the explorer never records these; tolerate them in files
			}
			ops[i].Output = e.Output
			ops[i].Return = int64(t)
			ops[i].Open = false
		}
	}
	return ops
}

// Complete reports whether every operation of the harness was invoked and answered.
func Complete(h *model.Harness, events []Event) bool {
	returns := 0
	for _, e := range events {
		if e.Kind == Return {
			returns++
		}
	}
	return returns == h.NumOps()
}
