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

// weakInitial reports whether x is a weak initial of what is left (WI of the paper):
// an initial of it, or independent of all of it.
func (s *seq) weakInitial(x *StepInfo, dep Dependence) bool {
	if j := s.find(x.Event.ID); j >= 0 {
		return s.initial(j)
	}
	return s.independent(x, dep)
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
			if s.independent(&c.info, dep) {
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
