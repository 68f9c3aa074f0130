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

// seq is a wakeup sequence during an insertion: its steps (on the path, or the reversed
// step), which happen before which (before[j] holds the positions i < j whose step
// happens before step j, transitively, within the sequence), and which have been matched
// already (gone).
type seq struct {
	steps  []*StepInfo
	before []Set
	gone   Set
	left   int
}

// fromPath makes s the sequence of the steps of the path at the indices idx, then last:
// the steps keep the happens-before of the path among them (a chain between two of them
// through a step not in idx would put that step in the sequence too, see reverse), and
// last — which runs in the sequence where it did not on the path — happens after the
// steps it depends on or that sent it (sender, the identity of the event whose step sent
// it; 0 for none), and what happens before those.
func (s *seq) fromPath(nodes []Node, idx []int, last *StepInfo, sender uint64, dep Dependence) {
	s.steps = s.steps[:0]
	for _, k := range idx {
		s.steps = append(s.steps, nodes[k].Step())
	}
	s.steps = append(s.steps, last)
	for len(s.before) < len(s.steps) {
		s.before = append(s.before, Set{})
	}
	s.before = s.before[:len(s.steps)]
	for j, k := range idx {
		b, pb := &s.before[j], &nodes[k].Step().Before
		b.Clear()
		for i := 0; i < j; i++ {
			if pb.Has(idx[i]) {
				b.Add(i)
			}
		}
	}
	j := len(idx)
	b := &s.before[j]
	b.Clear()
	for i := j - 1; i >= 0; i-- {
		if !b.Has(i) && (sender == s.steps[i].Event.ID || dep.Dependent(s.steps[i], last)) {
			b.Add(i)
			b.Union(&s.before[i])
		}
	}
	s.gone.Clear()
	s.left = len(s.steps)
}

// find returns the position of the event id among the steps not gone, or −1.
func (s *seq) find(id uint64) int {
	for j, st := range s.steps {
		if st.Event.ID == id && !s.gone.Has(j) {
			return j
		}
	}
	return -1
}

// initial reports whether the step at position j is an initial of what is left: no step
// left before it happens before it. Steps gone were initials when they went, so nothing
// left happens before them and no chain passes through them.
func (s *seq) initial(j int) bool {
	for i := 0; i < j; i++ {
		if !s.gone.Has(i) && s.before[j].Has(i) {
			return false
		}
	}
	return true
}

// independent reports whether x happens before none of the steps left: x is a weak
// initial of them without being one of them.
func (s *seq) independent(x *StepInfo, dep Dependence) bool {
	for j, st := range s.steps {
		if !s.gone.Has(j) && dep.Dependent(x, st) {
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
					s.gone.Add(j)
					s.left--
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
				if s.gone.Has(j) {
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
