package dpor

import "math/bits"

// Which event a node starts with. Source DPOR explores one event of a new state first
// and adds the others only where races ask for them; stateful DPOR's states depend on
// that first choice (docs/strategies.md, "Which targets hold": over orders drawn at
// random, gossip rw visits 0.43 to 0.58 of exhaustive search's states).
//
// The choice that keeps races fewest is an actor whose enabled events form a persistent
// set (Godefroid 1996): one that nothing run before them will disturb, so no race
// reaches back to add another actor's event. Whether a set is persistent depends on
// every path from the state; but an actor that no step enabled now would send anything
// to is the likeliest, and that much is seen by running each enabled event once
// (Path.Next, whose result the engine keeps for when the event is explored). Among such
// quiet actors the one with fewest enabled events goes first, as the smallest persistent
// set would. The choice changes only the order: the search stays source DPOR, and its
// races still add whatever this first event leaves out.

// firstEvent returns the index in top.Enabled of the event a node starts with, −1 when
// every event is asleep: with explore (the state is to be explored from here) and no
// fault events, the first awake event of the quiet actor with fewest enabled events
// (the lowest-numbered among equals); otherwise, or when no actor with an awake event
// is quiet, the first awake event.
func (s *stateful) firstEvent(p Path, top *Node, explore bool) int {
	first := -1
	var awake uint64 // actors with an event not asleep
	for e := range top.Enabled {
		if top.Sleep.Has(e) {
			continue
		}
		if first < 0 {
			first = e
		}
		if to := top.Enabled[e].To; to >= 0 && to < 64 {
			awake |= 1 << to
		} else {
			return first
		}
	}
	if !explore || s.oldestFirst || s.faults || bits.OnesCount64(awake) < 2 {
		return first
	}
	sender, _ := p.(Sender)
	var loud uint64   // actors some enabled event at another actor would send to
	var count [64]int // enabled events by actor
	for k := range top.Enabled {
		to := top.Enabled[k].To
		if to < 0 || to >= 64 {
			return first
		}
		count[to]++
		var sends uint64
		if sender != nil {
			sends = sender.SendsTo(k)
		} else {
			sends = p.Next(k).SendsTo
		}
		if loud |= sends &^ (1 << to); awake&^loud == 0 {
			return first // no actor is quiet, whatever the rest send
		}
	}
	quiet := awake &^ loud
	if quiet == 0 {
		return first
	}
	best := -1
	for q := quiet; q != 0; q &= q - 1 {
		a := bits.TrailingZeros64(q)
		if best < 0 || count[a] < count[best] {
			best = a
		}
	}
	for e := range top.Enabled {
		if !top.Sleep.Has(e) && int(top.Enabled[e].To) == best {
			return e
		}
	}
	return first
}

// StatefulDPOROldestFirst is StatefulDPOR starting every node with its first event not
// asleep, the oldest pending, as it did before the quiet actor's rule (for measurements
// and tests).
func StatefulDPOROldestFirst(dep Dependence) Revisiter {
	s := StatefulDPOR(dep).(*stateful)
	s.oldestFirst = true
	return s
}

// Sender is a Path that can tell what an enabled event of its last node would send
// without running it, when a step run before delivered the same event to the same actor
// state with the same history: what a handler sends depends on nothing else, and a
// client's next request on whether it takes the answer, which the history decides.
// firstEvent uses the answer for an order only, which no answer could make unsound.
type Sender interface {
	// SendsTo is StepInfo.SendsTo of Enabled[k] of the last node, remembered from such
	// a step or found by Next.
	SendsTo(k int) uint64
}
