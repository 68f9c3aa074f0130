package dpor

// Context-sensitive sleep sets. A static relation must call two events dependent when
// they fail to commute in *some* state: two acknowledgements of one write, one of which
// completes the quorum, or a heartbeat and a request at a leader. Where they meet, most
// such pairs commute all the same (83–94% of the pairs `history` orders on ABD and the
// leader-based register: docs/dependence.md). Stateful DPOR keeps a sleeping event asleep
// across a step the relation calls dependent when the path shows they commute at the
// state where that step was taken (Commuter): the idea of context-sensitive DPOR (Albert,
// Arenas, García de la Banda, Gómez-Zamalloa and Stuckey, CAV 2017), applied to the
// sleep sets only. Races, backtrack points and the revisit's rules still use the
// relation alone. It applies where stateful DPOR keeps its class table (the built-in
// relations, which decide from classes alone); with a user's relation the sleep sets
// follow the relation, as before.
//
// Why it is sound. An event a is asleep at a node n because a run that starts with a
// from n is equivalent to one explored elsewhere. Let t be the step taken from n to n'.
// When a stays asleep at n', the runs to cover are those from n' that start with a,
// n'·a·w = n·t·a·w. If a and t commute at n — both orders reach the same state
// (the fingerprint: actors, pending messages and their FIFO order, timers, faults, and
// the history event by event) — then n·t·a·w reaches what n·a·t·w reaches, state for
// state after the two steps, and n·a·t·w is a run from n that starts with a: covered,
// since a is asleep at n. That is the classical argument for sleep sets (Godefroid,
// LNCS 1032, §5), with independence judged in the state where it is used, which is what
// conditional independence asks (Katz and Peled). Two more conditions keep the
// relation's later judgements valid: a must do the same to the history (invoke, answer,
// record a response) after t as before, since the sleep set keeps what a did when it was
// explored and the relation judges a by that; and t must do the same after a as before,
// since the path keeps what t did. The state equality covers the history — its order, or
// with canonical states (explorer.Options.CanonicalStates) its canonical form — so the
// canonical histories below n'·a are those below n·a·t. Oracles: every test that
// compares stateful DPOR with exhaustive search (canonical histories, violations, final
// states, with faults, on random cyclic systems) runs with it.

// commutes reports whether the sleeping e commutes, where it meets it, with the step t
// of node d, which the relation calls dependent on it. A pair of classes that both
// record history is never asked (the orders' histories differ), and a pair that has not
// commuted in its first giveUpAfter meetings is not asked again: the answer "dependent"
// is the relation's own, always sound, and the runs a check costs are saved where
// commuting is rare or impossible.
func (s *stateful) commutes(d int, e sleeper, t int32) bool {
	if s.cs == nil {
		return false
	}
	k := [2]int32{s.g.class[e.step], s.g.class[t]}
	if !checkEveryPair && recordsHistory(&s.g.classInfo[k[0]]) && recordsHistory(&s.g.classInfo[k[1]]) {
		// Both orders record the two events' history entries, one before the other:
		// the chronological histories differ, and the fingerprint covers them, so the
		// answer is "dependent" without the three runs (or the runs change what one
		// records, and then it is "dependent" too). With canonical states two
		// invocations can commute; answering "dependent" stays sound, and asking
		// saved under 1% of the states (docs/stateful-dpor-history.md).
		return false
	}
	c := s.csTries[k]
	if c[0] >= giveUpAfter && c[1] == 0 {
		return false
	}
	ok := s.cs.CommutesAt(d, e.id)
	c[0]++
	if ok {
		c[1]++
	}
	if s.csTries == nil {
		s.csTries = make(map[[2]int32][2]int32)
	}
	s.csTries[k] = c
	return ok
}

// recordsHistory reports whether a step of class info adds an event to the history: an
// invocation or a response.
func recordsHistory(info *StepInfo) bool { return info.Invokes || info.Returns }

// checkEveryPair turns off commutes' answer for pairs that both record history: for the
// test that it changes nothing.
var checkEveryPair = false

// giveUpAfter is how many meetings of a pair of classes commutes asks about before it
// gives up on a pair that never commuted.
const giveUpAfter = 64

// Commuter is a Path that can run two events in both orders from a state of the path,
// for context-sensitive sleep sets.
type Commuter interface {
	// CommutesAt reports whether the event with identity id, enabled at the state of
	// node d and at the state after node d's step, commutes with that step at node d's
	// state: each still enabled after the other, both orders reach the same state
	// (fingerprint, history included), and each does the same to the history
	// (StepInfo's Invokes, Returns and Answers) in either order. A step that fails in
	// either order does not commute.
	CommutesAt(d int, id uint64) bool
}

// StatefulDPORStaticSleep is StatefulDPOR whose sleep sets follow the relation alone, as
// before context-sensitive sleep sets: for measurements of what they save.
func StatefulDPORStaticSleep(dep Dependence) Revisiter {
	s := StatefulDPOR(dep).(*stateful)
	s.staticSleep = true
	return s
}
