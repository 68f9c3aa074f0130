package dpor

import "slices"

// Optimal returns optimal DPOR: source sets with wakeup trees (Abdulla, Aronis, Jonsson
// and Sagonas, "Source sets: a foundation for optimal dynamic partial order reduction",
// JACM 2017, Algorithm 2, "Optimal-DPOR"), over the relation dep.
//
// Where source-set DPOR (DPOR) reverses a race by adding one first step of the reversal
// to a backtrack set and leaves the rest to chance — so that the search may run into a
// state every enabled event of which is asleep, a schedule begun and thrown away — this
// strategy keeps, for every state on the path, a wakeup tree: the whole sequences that
// reverse its races, in order, and follows them. When a schedule ends it looks at every
// race of it, e before e', and inserts notdep(e)·e' — the steps after e that do not
// happen after it, then e' — into the wakeup tree of the state before e, unless a sleep
// set there already covers it. So it explores exactly one schedule of every class of
// schedules equivalent under dep (Mazurkiewicz traces), and no schedule ends blocked by
// its sleep set; with History it keeps every canonical history, as DPOR does.
//
// Where Ravel departs from the paper's model: a message is a process of one step, and two
// messages to one actor race; the later step of such a race runs, in the reversal, in
// another state of its receiver, where what it returns and answers (which History looks
// at) may differ — see reversed. So may what the race's first step answers, when an
// event at its receiver runs before it; such an event, asleep or explored before, is then
// no cover of the reversal, nor is one that depends on that step (seq.covers). Two
// messages of one FIFO channel never race. Fault
// events break the paper's premise that an enabled event stays enabled until it runs
// (a drop disables a delivery, a crash every delivery to the crashed actor), and
// wakeup trees built on it lose histories: with faults the engine runs source-set DPOR
// instead (WithFaults).
func Optimal(dep Dependence) Strategy { return &optimal{source: source{dep: dep}} }

// Faulty is a strategy with a variant for systems with fault events, which the engine
// runs instead of it when faults are on.
type Faulty interface {
	Strategy
	WithFaults() Strategy
}

// WithFaults is source-set DPOR, still named dpor (see Optimal).
func (s *optimal) WithFaults() Strategy { return &source{dep: s.dep} }

// Picker is a strategy that chooses, itself, which event the engine explores next from
// a state and in which order: optimal DPOR must follow its wakeup trees in their order.
type Picker interface {
	Strategy
	// Pick is called each time the engine is at the last node of p, to explore an event
	// from it (after Arrive, and again each time the search comes back to it). It returns
	// the index in Enabled of the event to explore, having added it to Backtrack, or
	// false when nothing more is to be explored from there.
	Pick(p Path) (int, bool)
}

type optimal struct {
	source
	// roots[d] is the wakeup tree of the state at depth d of the path: its children are
	// what is still to be explored from there, in order.
	roots []*wnode
	// taken[d] is the child of roots[d] being explored: its children become the tree of
	// the state at depth d+1.
	taken []*wnode
	own   [][2]wnode
	// lost counts tree events that could not be explored where the tree put them (not
	// enabled, or asleep): never, under a relation that is exact (Actor).
	lost int64

	// fresh is the index of the first step of the path not yet looked at by races: the
	// steps below it are those of the schedule that ended last.
	fresh int

	vidx []int    // the path indices of the reversal being built, but its last step
	last StepInfo // its last step
	sq   seq
}

func (s *optimal) Name() string { return "dpor" }
func (s *optimal) Needs() Needs { return Needs{Keys: s.dep.NeedsKeys(), Sleep: true} }

// Stateful is the strategy's variant under state caching: source-set stateful DPOR (a
// wakeup tree is a path's, and a cut path at a visited state has no path beyond it).
func (s *optimal) Stateful() Revisiter { return StatefulDPOR(s.dep) }

// Lost reports how many events of wakeup trees could not be explored where the tree put
// them (see Optimal): 0 under the actor relation, which the oracle tests check.
func (s *optimal) Lost() int64 { return s.lost }

func (s *optimal) Arrive(p Path) {
	nodes := p.Nodes()
	n := len(nodes) - 1
	for len(s.roots) <= n {
		s.roots = append(s.roots, nil)
		s.taken = append(s.taken, nil)
		s.own = append(s.own, [2]wnode{})
	}
	// A state with no tree of its own gets depth n's root and first child, reused: what
	// pointed to them last is gone (the path below n has been left).
	root := &s.own[n][0]
	clear(root.children)
	root.children = root.children[:0]
	s.fresh = min(s.fresh, max(n-1, 0))
	if n > 0 {
		s.before(nodes, n-1)
		inheritSleep(nodes, s.dep)
		if parent := &nodes[n-1]; parent.Step().Disables {
			s.wakeDisabled(nodes)
		}
		if t := s.taken[n-1]; t != nil && t.info.Event.ID == nodes[n-1].Step().Event.ID {
			root = t
		}
		s.taken[n-1] = nil
	}
	s.roots[n] = root
	top := &nodes[n]
	if !top.Final && len(root.children) == 0 {
		for k := range top.Enabled {
			if !top.Sleep.Has(k) {
				c := &s.own[n][1]
				*c = wnode{info: StepInfo{Event: top.Enabled[k], Invokes: top.Enabled[k].Kind == Request}, children: c.children[:0]}
				root.children = append(root.children, c)
				break
			}
		}
	}
	if top.Final || len(root.children) == 0 {
		s.races(nodes)
	}
}

// Pick implements Picker: the first child of the state's wakeup tree.
func (s *optimal) Pick(p Path) (int, bool) {
	nodes := p.Nodes()
	d := len(nodes) - 1
	node, root := &nodes[d], s.roots[d]
	for len(root.children) > 0 {
		c := root.children[0]
		root.children[0] = nil
		root.children = root.children[1:]
		k := node.Find(c.info.Event.ID)
		if k < 0 || node.Done.Has(k) || node.Sleep.Has(k) {
			s.lost++
			continue
		}
		node.Backtrack.Add(k)
		s.taken[d] = c
		return k, true
	}
	return 0, false
}

// races inserts, for every race of the schedule that just ended whose later step is new
// (not a step of the schedule before), the sequence that reverses it into the wakeup
// tree of the state before its first step. The races between the steps the schedule
// shares with the one before were reversed when that one ended: the paper looks at them
// again, with the new schedule's steps after them in notdep(e); we do not, which keeps
// the work per schedule proportional to its new steps, as in source-set DPOR. The
// oracle tests (one schedule per trace, every canonical history) hold with it.
func (s *optimal) races(nodes []Node) {
	n := len(nodes) - 1
	from := max(s.fresh, 1)
	s.fresh = n
	for d := from; d < n; d++ {
		pd := nodes[d].Step()
		for e := d - 1; e >= 0; e-- {
			se := nodes[e].Step()
			if !pd.Before.Has(e) || !s.dep.Dependent(se, pd) || PrecedesSendIn(nodes, e, &pd.Event) {
				continue
			}
			if s.covered(nodes, e, d) || sameChannel(&se.Event, &pd.Event) {
				continue
			}
			s.reverse(nodes, e, d, n)
		}
	}
}

// reverse inserts v = notdep(e)·d — the steps of the schedule after e (to its end, n)
// that do not happen after e, then step d — into the wakeup tree of the state before e,
// unless an event asleep there is a weak initial of v: then a schedule equivalent to
// one starting with v has been, or will be, explored from that state.
func (s *optimal) reverse(nodes []Node, e, d, n int) {
	s.vidx = s.vidx[:0]
	for k := e + 1; k < n; k++ {
		if k != d && !nodes[k].Step().Before.Has(e) {
			s.vidx = append(s.vidx, k)
		}
	}
	s.reversed(nodes, e, d)
	var sender uint64
	if p := s.last.Event.Parent; p >= 0 {
		sender = nodes[p].Step().Event.ID
	}
	s.sq.fromPath(nodes, s.vidx, &s.last, sender, s.dep)
	s.sq.setRace(nodes[e].Step(), nodes[d].Step(), s.dep)
	pre := &nodes[e]
	for i := range pre.SleepInfo {
		if s.sq.covers(&pre.SleepInfo[i], s.dep) {
			return
		}
	}
	for i := range pre.Tried[:len(pre.Tried)-1] {
		if s.sq.covers(&pre.Tried[i], s.dep) {
			return
		}
	}
	s.sq.insert(s.roots[e], s.dep)
}

// sameChannel reports whether a and b are messages of one FIFO channel: the later can
// never be delivered before the earlier, so their race is not reversible.
func sameChannel(a, b *Event) bool {
	return a.FIFO && b.FIFO && a.From == b.From && a.To == b.To
}

// reversed sets s.last to step d as it runs before step e, its race. At another
// receiver than e's, d runs in the state it ran in: it does what it did. At e's receiver
// it runs before e, and what it returns and answers there is known only if it was tried
// from the state before e; otherwise what it did after e stands in for it (the same
// approximation source-set DPOR makes when it computes the initials of a reversal).
func (s *optimal) reversed(nodes []Node, e, d int) {
	st := nodes[d].Step()
	s.last = StepInfo{Event: st.Event, Invokes: st.Invokes, Returns: st.Returns, Answers: st.Answers}
	if !s.dep.NeedsReturns() || nodes[e].Step().Event.To != st.Event.To {
		return
	}
	pre := &nodes[e]
	for _, tried := range [][]StepInfo{pre.Tried[:len(pre.Tried)-1], pre.SleepInfo} {
		for i := range tried {
			if c := &tried[i]; c.Event.ID == st.Event.ID {
				s.last.Returns, s.last.Answers = c.Returns, c.Answers
				return
			}
		}
	}
}

// Failed reverses the races of the step that failed (FailureAware), the last explored
// from the last node of p, as races does when a schedule ends: the schedule ends at that
// step, with a terminal node after it that nothing is explored from. It then expands the
// node fully.
func (s *optimal) Failed(p Path) {
	nodes := p.Nodes()
	d := len(nodes) - 1
	s.before(nodes, d)
	// The failing step is new: no Arrive saw it (one after another, steps from one node
	// can fail with no state reached in between).
	s.fresh = min(s.fresh, d)
	s.races(append(nodes[:d+1:d+1], Node{Final: true}))
	// The full expansion (FailureAware): every event of the node not explored yet, not
	// asleep and not in its tree already, goes into its tree.
	node, root := &nodes[d], s.roots[d]
next:
	for k, ev := range node.Enabled {
		if node.Done.Has(k) || node.Sleep.Has(k) {
			continue
		}
		for _, c := range root.children {
			if c.info.Event.ID == ev.ID {
				continue next
			}
		}
		root.children = append(root.children, &wnode{info: StepInfo{Event: ev, Invokes: ev.Kind == Request}})
	}
}

// wakeDisabled adds to the wakeup tree of the last node but one, as branches of their
// own, the events enabled there that the step taken from it disabled by disarming a
// timer (StepInfo.Disables): no race shows them (wakeup trees take an enabled event to
// stay enabled until it runs), so the tree would never explore them first.
func (s *optimal) wakeDisabled(nodes []Node) {
	n := len(nodes) - 1
	parent, top, root := &nodes[n-1], &nodes[n], s.roots[n-1]
	for k, ev := range parent.Enabled {
		if k == parent.Taken || parent.Done.Has(k) || parent.Sleep.Has(k) || top.Find(ev.ID) >= 0 {
			continue
		}
		if slices.ContainsFunc(root.children, func(c *wnode) bool { return c.info.Event.ID == ev.ID }) {
			continue
		}
		root.children = append(root.children, &wnode{info: StepInfo{Event: ev, Invokes: ev.Kind == Request}})
	}
}
