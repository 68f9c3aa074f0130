package dpor

import "github.com/ravelmc/ravel/model"

// EventKind says what delivering an event means.
type EventKind uint8

// The kinds of events.
const (
	Message EventKind = iota // a message between actors
	Request                  // a client's request: its delivery invokes an operation
	Timer                    // an armed timer firing
)

// String names the kind.
func (k EventKind) String() string {
	switch k {
	case Message:
		return "message"
	case Request:
		return "request"
	case Timer:
		return "timer"
	}
	return faultKindString(k)
}

// Event is one thing that can happen next: the delivery of a pending message to its
// receiver, or the firing of a timer.
type Event struct {
	// ID is the event's identity, stable across schedules (docs/design-notes.md, Message identity):
	// derived from the sender, the receiver, the payload and the step that sent it.
	ID       uint64
	Kind     EventKind
	From, To model.ID
	// Msg is the payload (for key-based dependence); Timer the timer's name.
	Msg   any
	Timer string
	// Parent is the index on the path of the step that sent the message (its causal
	// parent), or −1 when it was pending in the initial state.
	Parent int
	// Key is the message's key, when KeyKnown; Excluded marks a message of a type the
	// system declared non-interfering (model.Keys). Filled in only for strategies whose
	// Needs ask for keys.
	Key      string
	KeyKnown bool
	Excluded bool
	// Content hashes what the event is — kind, sender, receiver, timer name, payload —
	// without its causal history: two pending events with equal Content are the same to
	// the state fingerprint, so stateful strategies match events across revisits by it.
	Content uint64
	// Target is, for a drop or a duplication, the ID of the message it acts on, and for a
	// partition the bit set of the actors on one side of the cut (see faults.go).
	Target uint64
	// FIFO marks a message the network delivers in order with the other messages of its
	// channel (From, To): it never overtakes one sent before it.
	FIFO bool
}
