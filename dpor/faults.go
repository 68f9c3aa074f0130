package dpor

import "github.com/ravelmc/ravel/model"

// Fault events (docs/faults.md). They are enabled events like deliveries, listed
// after the deliveries of a state, and every relation of this package treats them with the
// rules of faultDependent before its own.
const (
	// Drop loses the pending message Target (From, To and Msg are the message's).
	Drop EventKind = Timer + 1 + iota
	// Duplicate delivers the pending message Target to To and leaves a copy of it
	// pending.
	Duplicate
	// Crash crashes actor To.
	Crash
	// Restart brings the crashed actor To back.
	Restart
	// Partition cuts the actors in the bit set Target off from the others.
	Partition
	// Heal ends the partition.
	Heal
	// Timeout fires the timer of client From (model.Harness.Retrying): it sends the
	// client's outstanding request again, to To.
	Timeout
)

// IsFault reports whether k is a fault event rather than a delivery.
func (k EventKind) IsFault() bool { return k >= Drop }

func faultKindString(k EventKind) string {
	switch k {
	case Drop:
		return "drop"
	case Duplicate:
		return "duplicate"
	case Crash:
		return "crash"
	case Restart:
		return "restart"
	case Partition:
		return "partition"
	case Heal:
		return "heal"
	case Timeout:
		return "timeout"
	}
	return "unknown"
}

// faultDependent decides the dependence of two steps of which at least one is a fault;
// decided is false when neither is, and the relation's own rule applies. The rules keep
// every reduction sound: two steps it calls independent commute and neither enables or
// disables the other.
//
//   - A drop or duplication of m and any other step on m (its delivery, its drop, its
//     duplication): the first disables the second.
//   - Two faults of the same kind: they share a budget, so either may disable the other
//     (and only one partition holds at a time). Timeouts are the exception: each client
//     has its own budget, so two clients' timeouts commute.
//   - A restart or a heal with every step: a step that sends to the crashed actor, or
//     across the cut, loses its message before and not after.
//   - A crash of a with every step whose receiver is a (deliveries, timers, drops and
//     duplications of messages to a). A send to a commutes with the crash: the message is
//     lost either way.
//   - A partition with every delivery, drop and duplication of a message across its
//     cut. A send across the cut commutes with it, as for a crash.
//   - A client's timeout with every step that delivers that client's request (or a
//     retry of it: the invocation enables the timer) or answers one of its operations
//     (the answer disables it); a retry is a new message, which commutes with the rest.
//   - A duplication is a delivery for everything else: the relation's own rule decides.
//
// A drop commutes with everything not listed: it changes nothing but the pending set.
func faultDependent(a, b *StepInfo) (dependent, decided bool) {
	ka, kb := a.Event.Kind, b.Event.Kind
	if !ka.IsFault() && !kb.IsFault() {
		return false, false
	}
	if m := messageOf(&a.Event); m != 0 && m == messageOf(&b.Event) {
		return true, true
	}
	if ka == Restart || kb == Restart || ka == Heal || kb == Heal {
		return true, true
	}
	if ka == Timeout || kb == Timeout {
		if ka == kb {
			// Each client has a budget of its own (model.Harness.Retrying): one client's
			// timeout neither enables nor disables another's, and their retries are
			// distinct messages.
			return a.Event.From == b.Event.From, true
		}
		t, o := a, b
		if kb == Timeout {
			t, o = b, a
		}
		return clientStep(o, t.Event.From), true
	}
	if ka == kb {
		return true, true
	}
	if !ka.IsFault() || (kb.IsFault() && kb < ka) {
		a, b = b, a
		ka, kb = kb, ka
	}
	// a is a fault; b is a delivery or a fault of a later kind.
	switch ka {
	case Drop:
		switch kb {
		case Crash:
			return a.Event.To == b.Event.To, true
		case Partition:
			return crosses(b.Event.Target, &a.Event), true
		}
		return false, true
	case Duplicate:
		switch kb {
		case Crash:
			return a.Event.To == b.Event.To, true
		case Partition:
			return crosses(b.Event.Target, &a.Event), true
		}
		return false, false
	case Crash:
		if kb == Partition {
			return false, true
		}
		return a.Event.To == b.Event.To, true
	case Partition:
		return crosses(a.Event.Target, &b.Event), true
	}
	return true, true
}

// messageOf is the ID of the message an event delivers, drops or duplicates; 0 for the
// others (requests and timers are never dropped or duplicated).
func messageOf(e *Event) uint64 {
	switch e.Kind {
	case Message:
		return e.ID
	case Drop, Duplicate:
		return e.Target
	}
	return 0
}

// crosses reports whether e delivers, drops or duplicates a message between an actor in
// side and one outside it.
func crosses(side uint64, e *Event) bool {
	switch e.Kind {
	case Message, Drop, Duplicate:
	default:
		return false
	}
	if e.From < 0 || e.To < 0 {
		return false
	}
	return (side>>uint(e.From)&1 != side>>uint(e.To)&1)
}

// backtrackDisabled adds to the backtrack set of the last node but one every event that
// was enabled there and that the step taken from it disabled, when that event or the step
// is a fault: a drop and the delivery of its message, a crash and the deliveries to the
// crashed actor, two faults sharing the last of a budget; or when the step disarmed a
// timer (StepInfo.Disables). Such a pair never appears in one schedule, so no race
// between them is ever seen: without this, a reduction would explore only the
// alternative it happened to take first. (DPOR's race rule assumes that an enabled event
// stays enabled until it runs, which faults and disarmed timers break.) It reports
// whether the step disarmed a timer.
func backtrackDisabled(nodes []Node) bool {
	n := len(nodes) - 1
	if n < 1 {
		return false
	}
	parent, top := &nodes[n-1], &nodes[n]
	en := parent.Enabled
	disarms := len(parent.Tried) > 0 && parent.Step().Disables
	taken := disarms || en[parent.Taken].Kind.IsFault()
	if !taken && (len(en) == 0 || !en[len(en)-1].Kind.IsFault()) {
		return false // no fault on either side: faults are listed after deliveries
	}
	for k := range en {
		if k == parent.Taken || (!taken && !en[k].Kind.IsFault()) {
			continue
		}
		if parent.Backtrack.Has(k) || parent.Sleep.Has(k) || parent.Done.Has(k) {
			continue
		}
		if top.Find(en[k].ID) < 0 {
			parent.Backtrack.Add(k)
		}
	}
	return disarms
}

// clientStep reports whether step s delivers a request of client c or answers one.
func clientStep(s *StepInfo, c model.ID) bool {
	if s.Event.From == c && (s.Event.Kind == Request || s.Event.Kind == Message) {
		return true
	}
	for _, r := range s.Answers {
		if r.Client == c {
			return true
		}
	}
	return false
}
