package dpor

// Wakeup trees (Abdulla, Aronis, Jonsson and Sagonas, "Source sets: a foundation for
// optimal dynamic partial order reduction", JACM 2017, §6.2): the ordered trees of event
// sequences that optimal DPOR must explore from a state, so that each reversed race is
// explored along a sequence that reverses it, never one a sleep set would block.

// wnode is a node of a wakeup tree: what the event leading to it did where the race
// analysis saw it (Clock and Before are not kept), and its children in order.
type wnode struct {
	info     StepInfo
	children []*wnode
}

// seq is a wakeup sequence during an insertion: steps of the path (at the path indices
// idx, increasing) and last, the step whose race it reverses. Among the path's steps
// happens-before is the path's (a chain between two of them through a step not in the
// sequence would put that step in it too, see reverse); last, which runs in the sequence
// where it did not on the path, happens after the steps it depends on or that sent it,
// and what happens before those: lastBefore, over path indices. Steps matched by the
// tree are gone: rem holds the path indices of the path's steps left, lastGone says
// whether last is gone.
type seq struct {
	idx        []int
	steps      []*StepInfo // the steps of idx, then last
	pos        map[uint64]int
	lastBefore Set
	rem        Set
	lastGone   bool
	left       int
	// first is the step whose race with last the sequence reverses (setRace); race is
	// the same step when that race rests on what it returns or answers and last runs at
	// another receiver: an event at its receiver, run before the sequence, may change
	// what it does there, so that the race is not there to reverse (moves).
	first, race *StepInfo
}

// setRace records e, the step whose race with d the sequence reverses, in s.first, and
// in s.race when that race rests on what e returns or answers under dep, at a receiver d
// does not share.
func (s *seq) setRace(e, d *StepInfo, dep Dependence) {
	s.first, s.race = e, nil
	if dep.NeedsReturns() && e.Event.To != d.Event.To && (e.Returns || len(e.Answers) > 0) {
		s.race = e
	}
}

// covers reports whether x, asleep at the state before the race or explored from it
// before, stands for the reversal: a weak initial of the sequence (WI of the paper) —
// and, under a relation that judges steps by what they return and answer, when x is
// none of its steps, not dependent on the race's first step (which rules out an event
// that moves it, at its receiver). The reversal is the sequence followed by that step;
// an event that depends on the step comes after it in every schedule the reversal
// stands for, so the schedules x's exploration covers, which start with x, are none of
// them. The paper counts on the races of those schedules to reach the reversal all the
// same; under such a relation they need not (random deferring system 1607 lost two
// canonical histories so), since what a step returns, and so what it races with, moves
// with the order of deliveries at its receiver.
func (s *seq) covers(x *StepInfo, dep Dependence) bool {
	if j := s.find(x.Event.ID); j >= 0 {
		return s.initial(j)
	}
	if !s.independent(x, dep) {
		return false
	}
	return !dep.NeedsReturns() || !dep.Dependent(x, s.first)
}

// moves reports whether x, an event not in the sequence, runs at the receiver of the
// step whose race the sequence reverses, where that race rests on what the step does
// (setRace): the step, run after x, may not race at all, so the schedules that start
// with x cover no reversal of the race — a branch of a wakeup tree holding x does not
// stand for the sequence (insert). What a step returns is decided by its receiver's
// state, which an event delivered there before it changes.
func (s *seq) moves(x *StepInfo) bool {
	return s.race != nil && x.Event.To == s.race.Event.To
}

// fromPath makes s the sequence of the steps of the path at the indices idx, then last,
// sent by the step whose event has identity sender (0: none).
func (s *seq) fromPath(nodes []Node, idx []int, last *StepInfo, sender uint64, dep Dependence) {
	s.idx = idx
	s.steps = s.steps[:0]
	if s.pos == nil {
		s.pos = map[uint64]int{}
	}
	clear(s.pos)
	s.rem.Clear()
	for i, k := range idx {
		st := nodes[k].Step()
		s.steps = append(s.steps, st)
		s.pos[st.Event.ID] = i
		s.rem.Add(k)
	}
	s.steps = append(s.steps, last)
	s.pos[last.Event.ID] = len(idx)
	lb := &s.lastBefore
	lb.Clear()
	for i := len(idx) - 1; i >= 0; i-- {
		k := idx[i]
		if lb.Has(k) {
			continue
		}
		if st := s.steps[i]; sender == st.Event.ID || dep.Dependent(st, last) {
			lb.Add(k)
			lb.Union(&st.Before)
		}
	}
	s.lastGone = false
	s.left = len(s.steps)
}

// gone reports whether the step at position j has been matched.
func (s *seq) gone(j int) bool {
	if j == len(s.idx) {
		return s.lastGone
	}
	return !s.rem.Has(s.idx[j])
}

// take marks the step at position j matched.
func (s *seq) take(j int) {
	if j == len(s.idx) {
		s.lastGone = true
	} else {
		s.rem.Remove(s.idx[j])
	}
	s.left--
}

// find returns the position of the event id among the steps not gone, or −1.
func (s *seq) find(id uint64) int {
	if j, ok := s.pos[id]; ok && !s.gone(j) {
		return j
	}
	return -1
}

// initial reports whether the step at position j is an initial of what is left: no step
// left before it happens before it. Steps gone were initials when they went, so nothing
// left happens before them and no chain passes through them.
func (s *seq) initial(j int) bool {
	if j == len(s.idx) {
		return !s.lastBefore.Intersects(&s.rem)
	}
	return !s.steps[j].Before.Intersects(&s.rem)
}

// independent reports whether x happens before none of the steps left: x is a weak
// initial of them without being one of them.
func (s *seq) independent(x *StepInfo, dep Dependence) bool {
	for j, st := range s.steps {
		if !s.gone(j) && dep.Dependent(x, st) {
			return false
		}
	}
	return true
}

// insert adds the sequence s to the wakeup tree under root (insert[E](w, B) of the
// paper): it follows, from the root, the first child whose event is a weak initial of
// what is left of s, removing it from s when it is one of its events. Reaching a leaf
// other than the root means the tree already holds a sequence that covers s; reaching a
// node none of whose children fits, what is left of s becomes that node's last child. It
// reports whether the tree grew.
func (s *seq) insert(root *wnode, dep Dependence) bool {
	n := root
	for {
		if len(n.children) == 0 && n != root {
			return false
		}
		if s.left == 0 {
			return false
		}
		var next *wnode
		for _, c := range n.children {
			if j := s.find(c.info.Event.ID); j >= 0 {
				if s.initial(j) {
					s.take(j)
					next = c
					break
				}
				continue
			}
			if s.independent(&c.info, dep) && !s.moves(&c.info) {
				next = c
				break
			}
		}
		if next == nil {
			for j, st := range s.steps {
				if s.gone(j) {
					continue
				}
				c := &wnode{info: *st}
				c.info.Clock, c.info.Before = nil, Set{}
				n.children = append(n.children, c)
				n = c
			}
			return true
		}
		n = next
	}
}
