package dpor

import "slices"

// Stateful DPOR on a system with fault events. Faults break two premises of the race
// analysis: that an event enabled before a race is still enabled after it (a drop
// disables a delivery, a crash every delivery to its actor, two faults the last of their
// budget), and that a class of step — a step without its content, which is what the graph
// keeps of the steps reachable from a visited state — decides the step's dependence (a
// drop's dependence is on the delivery of one message, its target). Two rules restore
// them, at the price of exploring the states where a fault may still happen with no
// reduction:
//
//   - Every node at which a fault event is enabled is expanded fully. A step disables
//     another only when one of the two is a fault, enabled at the node where the other is
//     taken; so every order the disabling hides is explored there, as the cycle proviso
//     explores the orders a cut hides. And when a fault f races with an earlier step i,
//     a fault was already enabled before i: the dependence of faultDependent needs f's
//     message to be pending before i (a drop or duplication of a message i delivers), or
//     i to be a fault itself, or a fault of f's kind to be possible then — the budgets
//     only shrink — for a crash, a partition, a restart, a heal or a client's timeout
//     whose client is waiting. Either way the node before i is expanded fully, and the
//     race needs nothing more.
//   - Faults are dependent on every step (faultsCoarse): a coarser relation is still a
//     valid one (independent steps commute), so the classes and the steps of the path
//     agree on every dependence the race analysis and the sleep sets ask about, whatever
//     a class forgets of a fault.
//
// Where no fault is enabled any more (budgets spent, or nothing left to act on) the
// search reduces as it does without faults. Oracles: explorer's
// TestStatefulDPORWithFaults compares canonical histories, violations and final states
// with exhaustive search with caching.

// faultsCoarse is a relation in which every fault event is dependent on every step, and
// the relation it wraps decides the rest.
type faultsCoarse struct{ Dependence }

func (f faultsCoarse) Dependent(a, b *StepInfo) bool {
	if a.Event.Kind.IsFault() || b.Event.Kind.IsFault() {
		return true
	}
	return f.Dependence.Dependent(a, b)
}

// WithFaults returns stateful DPOR for a system with fault events (see the comment above):
// s itself when it is already that. It must be called before the search starts.
func (s *stateful) WithFaults() Strategy {
	if s.faults {
		return s
	}
	t := StatefulDPOR(faultsCoarse{s.dep}).(*stateful)
	t.faults, t.counts, t.noSleep = true, s.counts, s.noSleep
	return t
}

// expandForFaults adds every event enabled at the node to its backtrack set when one of
// them is a fault, and reports whether it did.
func expandForFaults(n *Node) bool {
	if n.Final || !hasFault(n.Enabled) {
		return false
	}
	n.Backtrack.AddAll(len(n.Enabled))
	return true
}

// hasFault reports whether a fault event is among evs.
func hasFault(evs []Event) bool {
	return slices.ContainsFunc(evs, func(e Event) bool { return e.Kind.IsFault() })
}
