package dpor

import (
	"math/bits"

	"github.com/ravelmc/ravel/model"
)

// Which event a node starts with. Source DPOR explores one event of a new state first
// and adds the others only where races ask for them; stateful DPOR's states depend on
// that first choice (docs/stateful-dpor-history.md, "Which targets hold": over orders drawn at
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
//
// Which of that actor's events, and which event when no actor is quiet: the one whose
// step sends to the most actors (the first among equals). That is measured, not derived:
// on the leader-based register it takes 1rw from 0.523 of exhaustive search's states to
// 0.496, and 1w1r from 0.246 to 0.213; abd 1w2r from 0.152 to 0.133 (twenty-first round,
// docs/strategies.md); no configuration of the table takes more than two states more
// (three, of under 300 states, do). Why is not established. The order never changes
// what is found: one random cyclic system in a drawn order lost 2 of its 219 final
// states under this rule and not under the first awake event, but the hole was in how
// the race analysis trusted sleep sets under the history relation, which the order only
// exposed (source.moves).

// A quiet actor whose every event is asleep is as likely a persistent set: its events
// were explored above, and nothing since has disturbed them. Sleep sets forbid starting
// with one; but a smaller sleep set is always sound — the node is explored as if the
// path had reached it with the smaller set, which covers more — so the rule may wake
// such an event and start with it. That pays when the event leads to a state visited
// before: the step ends at a revisit, whose races add what the node needs of its other
// events, which are not explored unless they do. Leading to a new state, it would
// explore again what its first exploration covered, so the rule then passes it by. The
// state keeps the smaller sleep set it is explored under (unsleep). Waking reorders the
// search more than the rules before it did, and it exposed a hole in a revisit's use of
// Flanagan and Godefroid's rule, closed since (fgSafe, stateful.go).

// firstEvent returns the index in top.Enabled of the event a node starts with, −1 when
// every event is asleep. With explore (the state is to be explored from here) and no
// fault events, it looks at the quiet actors, those with an enabled event that no
// enabled event at another actor sends to, asleep or not: the one with fewest enabled
// events (the lowest-numbered among equals) starts with its loudest awake event (loudest);
// when all of its events are asleep, with its first event, woken (s.woken), if that leads
// to a state visited before; else the node starts as with the quiet actors that have an
// event awake. When none of those is quiet, it starts with the loudest awake event of
// any actor. Otherwise (a state not to be explored, fault events, an event that is not a
// delivery to an actor, fewer than two actors with an enabled event) it starts with its
// first awake event.
func (s *stateful) firstEvent(p Path, top *Node, explore bool) int {
	s.woken = -1
	// What the node's events send, kept for Order when this looks it up; none else.
	at := s.sendsOf(len(p.Nodes()) - 1)
	*at = (*at)[:0]
	first := -1
	var actors, awake uint64 // actors with an enabled event, with one not asleep
	other := false           // an event that is not a delivery to an actor below 64
	for e := range top.Enabled {
		to := top.Enabled[e].To
		if to < 0 || to >= 64 {
			other = true
		} else {
			actors |= 1 << to
		}
		if top.Sleep.Has(e) {
			continue
		}
		if first < 0 {
			first = e
		}
		if to >= 0 && to < 64 {
			awake |= 1 << to
		}
	}
	if first < 0 || !explore || s.oldestFirst || s.faults || other || bits.OnesCount64(actors) < 2 {
		return first
	}
	sender, _ := p.(Sender)
	var loud uint64   // actors some enabled event at another actor would send to
	var count [64]int // enabled events by actor
	s.sends = (*at)[:0]
	for k := range top.Enabled {
		to := top.Enabled[k].To
		count[to]++
		var sends uint64
		if sender != nil {
			sends = sender.SendsTo(k)
		} else {
			sends = p.Next(k).SendsTo
		}
		s.sends = append(s.sends, sends)
		loud |= sends &^ (1 << to)
	}
	*at = s.sends
	quiet := actors &^ loud
	if quiet == 0 {
		return s.loudest(top, -1)
	}
	best := fewest(quiet, &count)
	if awake&(1<<best) == 0 {
		if e := s.wake(p, top, best); e >= 0 {
			return e
		}
		if quiet &= awake; quiet == 0 {
			return s.loudest(top, -1)
		}
		best = fewest(quiet, &count)
	}
	return s.loudest(top, best)
}

// loudest returns the awake event at top, of actor a or of any actor when a is −1, whose
// step sends to the most actors (s.sends), the first among equals; −1 when there is none.
func (s *stateful) loudest(top *Node, a int) int {
	best, most := -1, -1
	for e := range top.Enabled {
		if top.Sleep.Has(e) || (a >= 0 && int(top.Enabled[e].To) != a) {
			continue
		}
		if s.firstAwake {
			return e
		}
		if n := bits.OnesCount64(s.sends[e]); n > most {
			best, most = e, n
		}
	}
	return best
}

// The events a node explores after its first are taken in the same order: of those its
// backtrack set holds, neither done nor asleep, the loudest first, the first among
// equals (Order). That too is measured, not derived: against the engine's order (the
// oldest first) it takes leader 1rw from 0.501 of exhaustive search's states to 0.466,
// leader-buggy 1rw from 0.490 to 0.456, abd 1w2r from 0.134 to 0.115 (docs/stateful-dpor-history.md,
// thirty-seventh round). Which of them comes first changes only which sleep sets the later
// ones are explored under and which states they pass through: every one is explored, as
// in any order, and the races add what each leaves out. The answers are what the first
// event's rule found the node's events send when it was arrived at: ordering them runs
// no step.

// Order implements Orderer: the loudest event of top's backtrack set neither done nor
// asleep, the first among equals, as the node's first event is chosen (loudest), by what
// firstEvent found its events send when it looked (sendsAt); the first such event when
// it did not look, under faults and in the variants that keep an earlier rule (oldest
// first, first awake, the engine's order). It runs no step: the answers are firstEvent's,
// kept when the node was arrived at, so it needs no state of the path (a stateless search
// has none when it backtracks).
func (s *stateful) Order(p Path) (int, bool) {
	nodes := p.Nodes()
	top := &nodes[len(nodes)-1]
	first, ok := top.Backtrack.FirstNotInEither(&top.Done, &top.Sleep)
	if !ok || s.oldestFirst || s.firstAwake || s.faults || s.engineOrder {
		return first, ok
	}
	d := len(nodes) - 1
	if d >= len(s.sendsAt) || len(s.sendsAt[d]) != len(top.Enabled) {
		return first, true // firstEvent did not look at what they send
	}
	sends := s.sendsAt[d]
	best, most := first, -1
	for k := first; k < len(top.Enabled); k++ {
		if !top.Backtrack.Has(k) || top.Done.Has(k) || top.Sleep.Has(k) {
			continue
		}
		if n := bits.OnesCount64(sends[k]); n > most {
			best, most = k, n
		}
	}
	return best, true
}

// sendsOf returns the record of what the events of the node at depth n send, growing the
// records to hold it.
func (s *stateful) sendsOf(n int) *[]uint64 {
	for len(s.sendsAt) <= n {
		s.sendsAt = append(s.sendsAt, nil)
	}
	return &s.sendsAt[n]
}

// Orderer is a strategy that chooses which event the engine explores next from the last
// node of a path, among those of its backtrack set neither done nor asleep. Unlike a
// Picker's, the choice is an order only: the engine explores every such event in time,
// whichever comes first. A strategy whose order depends on more than the path's nodes
// keeps it as a Resumable, so that a resumed search takes the same order.
type Orderer interface {
	Strategy
	// Order returns the index in Enabled of the event the engine explores next from the
	// last node of p, one of its backtrack set neither done nor asleep; false when there
	// is none.
	Order(p Path) (int, bool)
}

// fewest returns the actor of the non-empty set that has fewest enabled events, the
// lowest-numbered among equals.
func fewest(actors uint64, count *[64]int) int {
	best := -1
	for q := actors; q != 0; q &= q - 1 {
		if a := bits.TrailingZeros64(q); best < 0 || count[a] < count[best] {
			best = a
		}
	}
	return best
}

// wake returns the first event of actor a at top, every one of which is asleep, woken —
// taken out of top.Sleep and recorded in s.woken — when it leads to a state visited
// before; else −1.
func (s *stateful) wake(p Path, top *Node, a int) int {
	la, ok := p.(Lookahead)
	if !ok || s.noWake {
		return -1
	}
	for e := range top.Enabled {
		if int(top.Enabled[e].To) != a {
			continue
		}
		if fp, ok := la.NextFingerprint(e); !ok || (!s.wakeAlways && !s.g.known(fp)) {
			return -1
		}
		top.Sleep.Remove(e)
		s.woken = e
		if s.counts != nil {
			s.counts.Woken++
		}
		return e
	}
	return -1
}

// Lookahead is a Path that can tell which state an enabled event of its last node leads
// to. firstEvent asks it about an event it may wake; the answer decides what is explored
// first and whether a sleeping event is explored again, never what the search finds.
type Lookahead interface {
	// NextFingerprint returns the fingerprint of the state Enabled[k] of the last node
	// leads to, as StatePath.Fingerprint will give it there, running the step if it has
	// not been (the engine keeps it for when the event is explored); ok is false when
	// the step fails.
	NextFingerprint(k int) (fp uint64, ok bool)
}

// unsleep takes the event woken at the top node (depth n, state k of the graph) out of
// the sleep set the state keeps: it is explored under the smaller set.
func (s *stateful) unsleep(nodes []Node, n int, k int32) {
	s.dropSleep(nodes, n, k, nodes[n].Enabled[s.woken].ID)
}

// sleptAs implements sleepRecord: with the class table the sleep sets are the graph's
// steps (slpAt), else the nodes' SleepInfo.
func (s *stateful) sleptAs(nodes []Node, e int, id uint64) (bool, []model.RequestID, bool) {
	if !s.memo {
		return answersOf(sleepInfoOf(&nodes[e], id))
	}
	for _, z := range s.slpAt[e] {
		if z.id == id {
			st := &s.g.Steps[z.step]
			return st.Returns, st.Answers, true
		}
	}
	return false, nil, false
}

// wakeAt implements sleepRecord: the event leaves the node's sleep set and the one its
// state keeps, which it is now explored under (as unsleep).
func (s *stateful) wakeAt(nodes []Node, e, k int) {
	nodes[e].Sleep.Remove(k)
	s.dropSleep(nodes, e, s.sts[e], nodes[e].Enabled[k].ID)
}

// dropSleep takes the event id, asleep at depth n of the path, out of the sleep set its
// state (k of the graph) keeps.
func (s *stateful) dropSleep(nodes []Node, n int, k int32, id uint64) {
	step := int32(-1)
	if s.memo {
		for _, e := range s.slpAt[n] {
			if e.id == id {
				step = e.step
			}
		}
	} else {
		if c := sleepInfoOf(&nodes[n], id); c != nil {
			step = s.g.intern(c)
		}
	}
	st := s.g.st(k)
	if step < 0 {
		return
	}
	if st.slp&slpIndexed == 0 {
		st.slp &^= 1 << step
		return
	}
	s.meetBuf = s.meetBuf[:0]
	for _, v := range s.g.keptSteps(st.slp, &s.bufA) {
		if v != step {
			s.meetBuf = append(s.meetBuf, v)
		}
	}
	st.slp = s.g.keepSteps(s.meetBuf)
}

// StatefulDPORWithoutWaking is StatefulDPOR that never wakes a quiet actor's sleeping
// event, as before the rule (for measurements and tests).
func StatefulDPORWithoutWaking(dep Dependence) Revisiter {
	s := StatefulDPOR(dep).(*stateful)
	s.noWake = true
	return s
}

// StatefulDPORWakingAlways is StatefulDPOR that wakes a quiet actor's sleeping event
// whatever state it leads to (for tests: waking must never lose what the search finds).
func StatefulDPORWakingAlways(dep Dependence) Revisiter {
	s := StatefulDPOR(dep).(*stateful)
	s.wakeAlways = true
	return s
}

// StatefulDPORFirstAwake is StatefulDPOR that starts a node with the first awake event
// of the quiet actor it picks, or of any actor when none is quiet, rather than the
// loudest: the rule of the sixteenth to the twentieth rounds (for tests: the order it
// gives found a hole in the race analysis that the loudest event's order hides; see
// firstNotAfter).
func StatefulDPORFirstAwake(dep Dependence) Revisiter {
	s := StatefulDPOR(dep).(*stateful)
	s.firstAwake = true
	return s
}

// StatefulDPORInEnginesOrder is StatefulDPOR exploring the events of a node after its
// first in the engine's order, the smallest index first, as before the thirty-seventh
// round, rather than the loudest first (Order; for measurements and tests).
func StatefulDPORInEnginesOrder(dep Dependence) Revisiter {
	s := StatefulDPOR(dep).(*stateful)
	s.engineOrder = true
	return s
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
