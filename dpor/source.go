package dpor

import (
	"math/bits"
	"slices"

	"github.com/ravelmc/ravel/model"
)

// DPOR returns dynamic partial-order reduction with source sets and sleep sets (Abdulla,
// Aronis, Jonsson and Sagonas, "Optimal dynamic partial order reduction", POPL 2014,
// Algorithm 1), over the relation dep: the refinement of Flanagan and Godefroid's DPOR
// (POPL 2005) that reverses every race of a step, not only its last one. With History it
// explores at least one schedule of every class of schedules that differ only in the
// order of adjacent independent steps — so every canonical history — and never more than
// exhaustive search.
//
// Why not Flanagan and Godefroid's rule as it stands: it reverses only the latest race of
// a message, and with sleep sets that loses classes. On the erroneous register (2r1w),
// take the schedule "c1 reads; c0's write arrives; WriteReplica to n1; WriteReplica to n2;
// n1's ack returns the write; c2 reads at n2". The read races with the ack (a response
// against an invocation) and, earlier, with the WriteReplica to n2. Reversing only the
// latest race never yields "… n1's ack returns the write; c2 reads at n2 (0); WriteReplica
// to n2", a non-linearizable history: the fix for the earlier race must put the ack
// before the read, which is what the initials of notdep(e)·p below do.
// Its name is dpor-source: the catalog's dpor is Optimal.
func DPOR(dep Dependence) Strategy { return &source{dep: dep, name: "dpor-source"} }

type source struct {
	dep  Dependence
	name string // empty: "dpor" (the stateful variant's)
	// byClass, when set, stands for dep between steps of the path: the stateful variant
	// answers from its table of classes (classdep.go).
	byClass *classTable
	// slept, when set, keeps the sleep sets in place of Node.SleepInfo and wakes their
	// events (the stateful variant, whose states keep the sleep set they were explored
	// under).
	slept sleepRecord
}

// sleepRecord is where a strategy keeps what the events of a node's sleep set did.
type sleepRecord interface {
	// sleptAs returns what the event id, asleep at depth e of the path, did when it was
	// explored, as far as the relation looks (Returns and Answers); ok is false when it
	// is not in the record.
	sleptAs(nodes []Node, e int, id uint64) (returns bool, answers []model.RequestID, ok bool)
	// wakeAt takes Enabled[k] out of the sleep set of the node at depth e.
	wakeAt(nodes []Node, e, k int)
}

// classTable is what source DPOR needs of the stateful variant's table of classes to
// decide the dependence of two steps of the path: their classes, and which classes
// depend on which.
type classTable struct {
	path []int32 // by depth: the class of the step taken there
	rows []Bits  // by class: the classes dependent on it
	pos  []Set   // by class: the depths of the path whose step has it
	deps Set     // direct's answer, for the step at depth depsFor
	// depsFor is the depth deps is for, or −1: before and races ask about the same step.
	depsFor int
}

// setStep records that the step at depth d of the path has class c, forgetting the steps
// at d and beyond.
func (t *classTable) setStep(d int, c int32) {
	for len(t.pos) <= int(c) {
		t.pos = append(t.pos, Set{})
	}
	for k := range t.pos {
		t.pos[k].Truncate(d)
	}
	t.path = append(t.path[:d], c)
	t.pos[c].Add(d)
	t.depsFor = -1
}

// direct returns the depths below d of the steps of the path that the step at d depends
// on: the union of the depths of the classes its class depends on. The set is valid until
// the next call.
func (t *classTable) direct(d int) *Set {
	if t.depsFor == d {
		return &t.deps
	}
	t.deps.Clear()
	for k, w := range t.rows[t.path[d]] {
		for ; w != 0; w &= w - 1 {
			if c := k*64 + bits.TrailingZeros64(w); c < len(t.pos) {
				t.deps.Union(&t.pos[c])
			}
		}
	}
	t.deps.Truncate(d)
	t.depsFor = d
	return &t.deps
}

// dependent reports whether steps i < j of the path are dependent.
func (s *source) dependent(nodes []Node, i, j int) bool {
	return s.dep.Dependent(nodes[i].Step(), nodes[j].Step())
}

func (s *source) Name() string {
	if s.name == "" {
		return "dpor"
	}
	return s.name
}
func (s *source) Relation() Dependence { return s.dep }
func (s *source) Needs() Needs         { return Needs{Keys: s.dep.NeedsKeys(), Sleep: true} }

func (s *source) Arrive(p Path) {
	nodes := p.Nodes()
	n := len(nodes) - 1
	if n > 0 {
		s.before(nodes, n-1)
		s.races(nodes, n-1)
		inheritSleep(nodes, s.dep)
		backtrackDisabled(nodes)
	}
	top := &nodes[n]
	for k := range top.Enabled {
		if !top.Final && !top.Sleep.Has(k) {
			top.Backtrack.Add(k)
			break
		}
	}
}

// before fills in which steps happen before step d: its causal parent and every earlier
// step it depends on, with what happens before those.
func (s *source) before(nodes []Node, d int) {
	st := nodes[d].Step()
	st.Before.Clear()
	if p := st.Event.Parent; p >= 0 {
		st.Before.Add(p)
		st.Before.Union(&nodes[p].Step().Before)
	}
	if t := s.byClass; t != nil {
		// The same walk over the steps the class table says this one depends on.
		deps := t.direct(d)
		for j := deps.Below(d); j >= 0; j = deps.Below(j) {
			if !st.Before.Has(j) {
				st.Before.Add(j)
				st.Before.Union(&nodes[j].Step().Before)
			}
		}
		return
	}
	for j := d - 1; j >= 0; j-- {
		if st.Before.Has(j) {
			continue
		}
		if s.dependent(nodes, j, d) {
			st.Before.Add(j)
			st.Before.Union(&nodes[j].Step().Before)
		}
	}
}

// races reverses every race of step d: every earlier step e it depends on directly, that
// did not lead to its message, with no step between them that happens after e and before
// d. For each, it makes sure that from the state before e some first step of
// notdep(e)·d — the steps after e that do not happen after it, then d — is explored.
//
// An initial other than d that is asleep at e's node is left out, as firstNotAfter
// (stateful.go) leaves it out: under sleep sets such an event runs below the node only
// after a dependent step woke it, which puts it after that step and so after e or after
// an earlier initial; so it was woken by the stateful variant's quiet actor's rule
// (quietfirst.go), and neither stands for the reversal nor, when an earlier race put it
// in the node's backtrack set, makes the race handled. d asleep there is the sleep set's
// own case: the schedules starting with it were explored before.
func (s *source) races(nodes []Node, d int) {
	pd := nodes[d].Step()
	var buf [2][32]int // initials' scratch, on the stack for paths of up to 32 steps
	var deps *Set      // with a class table: the steps step d depends on
	if t := s.byClass; t != nil {
		deps = t.direct(d)
	}
	for e := d - 1; e >= 0; e-- {
		if deps != nil {
			// Every step d depends on happens before it: only they can race with it.
			if e = deps.Below(e + 1); e < 0 {
				break
			}
		} else if !pd.Before.Has(e) || !s.dependent(nodes, e, d) {
			continue
		}
		if PrecedesSendIn(nodes, e, &pd.Event) {
			continue
		}
		if s.covered(nodes, e, d) {
			continue
		}
		pre := &nodes[e]
		chosen, handled := -1, false
		for _, x := range initials(nodes, e, d, buf[0][:0], buf[1][:0]) {
			k := pre.Find(nodes[x].Step().Event.ID)
			if k < 0 || (x != d && pre.Sleep.Has(k)) {
				continue // gone, or woken below e's node
			}
			if pre.Backtrack.Has(k) {
				chosen, handled = k, true // already to be explored
				break
			}
			if chosen == -1 || (pre.Sleep.Has(chosen) && !pre.Sleep.Has(k)) {
				chosen = k
			}
		}
		if chosen < 0 {
			continue
		}
		if pre.Sleep.Has(chosen) && s.moves(nodes, e, chosen, pd.Returns, pd.Answers) {
			s.wake(nodes, e, chosen)
		}
		if !handled {
			pre.Backtrack.Add(chosen)
		}
	}
}

// moves reports whether Enabled[k] of the node at depth e, asleep there, did when it was
// explored something the relation looks at that step d, the same event run later, does
// not; returns and answers are what d returned and answered. What a step returns and
// answers depends on its receiver's state, which the steps delivered there before it
// decide. When d's race is with a step e at its own receiver,
// d runs before e in the reversal and does what it did asleep, not what it did at d. The
// sleep set covers the schedules that start with it; but the schedules in which it comes
// after a step it depends on only as it runs there — a request at another actor, before a
// response that only that order gives — are reached only by reversing that step's race
// with it, which no schedule explored below e's node shows, since there it runs after e
// and does not respond. The event is then woken (wake), and its own races, run before e,
// reverse them. Random cyclic system 3195 lost 2 of its 219 final states so, and a four
// actor system of the explorer's tests lost a canonical history under both source-set
// and optimal DPOR (explorer's TestDPORReachesEveryHistoryOfAMovingResponse).
func (s *source) moves(nodes []Node, e, k int, returns bool, answers []model.RequestID) bool {
	if !s.dep.NeedsReturns() {
		return false
	}
	id := nodes[e].Enabled[k].ID
	var ret, ok bool
	var ans []model.RequestID
	if s.slept != nil {
		ret, ans, ok = s.slept.sleptAs(nodes, e, id)
	} else {
		ret, ans, ok = answersOf(sleepInfoOf(&nodes[e], id))
	}
	return ok && !sameAnswers(ret, ans, returns, answers)
}

// sleepInfoOf returns what the event id, asleep at n, did when it was explored
// (n.SleepInfo), or nil.
func sleepInfoOf(n *Node, id uint64) *StepInfo {
	for i := range n.SleepInfo {
		if n.SleepInfo[i].Event.ID == id {
			return &n.SleepInfo[i]
		}
	}
	return nil
}

// answersOf returns what c records of the history — whether it returned, and which
// requests it answered — and false when c is nil.
func answersOf(c *StepInfo) (bool, []model.RequestID, bool) {
	if c == nil {
		return false, nil, false
	}
	return c.Returns, c.Answers, true
}

// sameAnswers reports whether two steps of one event did the same to the history, as
// far as a relation that looks at returns sees it.
func sameAnswers(r1 bool, a1 []model.RequestID, r2 bool, a2 []model.RequestID) bool {
	return r1 == r2 && slices.Equal(a1, a2)
}

// wake takes Enabled[k] out of the sleep set of the node at depth e (moves).
func (s *source) wake(nodes []Node, e, k int) {
	if s.slept != nil {
		s.slept.wakeAt(nodes, e, k)
		return
	}
	nodes[e].Sleep.Remove(k)
}

// covered reports whether some step strictly between e and d happens after e and before
// d, in which case e and d are not in a race.
func (s *source) covered(nodes []Node, e, d int) bool {
	pd := nodes[d].Step()
	for k := e + 1; k < d; k++ {
		if pd.Before.Has(k) && nodes[k].Step().Before.Has(e) {
			return true
		}
	}
	return false
}

// initials lists the steps of v = notdep(e)·d that no earlier step of v happens before,
// appending to out and using v as scratch.
func initials(nodes []Node, e, d int, v, out []int) []int {
	for k := e + 1; k <= d; k++ {
		if k < d && nodes[k].Step().Before.Has(e) {
			continue
		}
		v = append(v, k)
	}
	for i, x := range v {
		first := true
		for _, y := range v[:i] {
			if nodes[x].Step().Before.Has(y) {
				first = false
				break
			}
		}
		if first {
			out = append(out, x)
		}
	}
	return out
}

// PrecedesSendIn reports whether step i of the path sent m or happens before the step that
// did, by the strategy's own happens-before (StepInfo.Before).
func PrecedesSendIn(path []Node, i int, m *Event) bool {
	p := m.Parent
	return p >= 0 && (p == i || path[p].Step().Before.Has(i))
}

// inheritSleep fills the last node's sleep set: the events asleep at its parent or
// explored from the parent before the step that led here, that are independent of that
// step and still enabled.
func inheritSleep(nodes []Node, dep Dependence) {
	n := len(nodes) - 1
	top, parent := &nodes[n], &nodes[n-1]
	taken := parent.Step()
	add := func(c StepInfo) {
		if dep.Dependent(&c, taken) {
			return
		}
		if k := top.Find(c.Event.ID); k >= 0 && !top.Sleep.Has(k) {
			c.Clock, c.Before = nil, Set{}
			top.Sleep.Add(k)
			top.SleepInfo = append(top.SleepInfo, c)
		}
	}
	for _, c := range parent.SleepInfo {
		add(c)
	}
	for _, c := range parent.Tried[:len(parent.Tried)-1] {
		if parent.Cycled.Len() > 0 && parent.Cycled.Has(parent.Find(c.Event.ID)) {
			continue
		}
		add(c)
	}
}

// Failed reverses the races of the step that failed, the last explored from the last node
// of p, and expands that node fully (FailureAware).
func (s *source) Failed(p Path) {
	nodes := p.Nodes()
	d := len(nodes) - 1
	s.before(nodes, d)
	s.races(nodes, d)
	nodes[d].Backtrack.AddAll(len(nodes[d].Enabled))
}
