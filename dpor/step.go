package dpor

import "github.com/ravelmc/ravel/model"

// StepInfo is what strategies know about a step: the event it delivered and what the
// delivery did that matters for dependence.
type StepInfo struct {
	Event Event
	// Invokes: the step delivered a client's request, which records an invocation.
	Invokes bool
	// Returns: the step recorded a response.
	Returns bool
	// Disables: the step disarmed a timer that was armed (CancelTimer, or SetTimer with
	// another payload): it disabled an event, which DPOR's race analysis takes never to
	// happen (an enabled event stays enabled until it runs), so the strategies explore
	// the disabled event first at the state the step was taken from (backtrackDisabled).
	Disables bool
	// Answers lists the requests the step answered or tried to answer (a duplicate
	// answer is ignored, but which of two answers comes first decides the history).
	Answers []model.RequestID
	// SendsTo has bit a set when the step put a new event at actor a: sent it a message,
	// made a client's next request to it, or (a being the step's own actor) set a timer.
	// A message the network lost at once (a fault) is not a new event.
	SendsTo uint64
	// Clock is the step's vector clock, one entry per actor: Clock[a] is one more than the
	// index of the last step at actor a that happens before or is this step (0: none),
	// where happens-before is the transitive closure of "same receiver, earlier" and "sent
	// the message the later step receives" (docs/design-notes.md, Strategies). Filled in only for steps on
	// the path, and only for strategies whose Needs ask for clocks; shared with the engine,
	// so do not keep or modify it.
	Clock []int32
	// Before is for strategies to fill in: the path indices of the steps that happen
	// before this one under their own dependence relation.
	Before Set
}

// HappensBefore reports whether step i of the path happens before the step whose info
// is s, by s's vector clock: the transitive closure of "same receiver, earlier" and
// "sent the message the later step receives" (docs/design-notes.md, Strategies).
func HappensBefore(path []Node, i int, s *StepInfo) bool {
	a := path[i].Step().Event.To
	return int(s.Clock[a]) >= i+1
}

// PrecedesSend reports whether step i of the path sent event m, or happens before the
// step that did: "i →S m" of DS2 §3.1, the relation that keeps a race from being
// reversible. A message pending in the initial state is preceded by nothing.
func PrecedesSend(path []Node, i int, m *Event) bool {
	p := m.Parent
	if p < 0 {
		return false
	}
	return p == i || (p > i && HappensBefore(path, i, path[p].Step()))
}

// Needs says which of the engine's optional work a strategy uses, so that strategies
// that need none of it (exhaustive search) pay nothing for it.
type Needs struct {
	Clocks bool // vector clocks on every step of the path
	Keys   bool // message keys and exclusions
	Peek   bool // Path.Next: what an enabled event would do, before it is explored
	Sleep  bool // sleep sets: the engine skips Node.Sleep's events
	// SendOrder: what the strategy explores from a state depends on the order in which
	// each actor's pending messages and timers were sent, not only on which are pending
	// (delay-bounded search's scheduler takes an actor's oldest message first), so with
	// state caching the engine's visited key covers that order, which the state's
	// fingerprint does not.
	SendOrder bool
}
