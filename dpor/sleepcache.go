package dpor

import (
	"math/bits"
	"slices"
)

// Sleep sets with state caching (Godefroid, "Partial-order methods for the verification
// of concurrent systems", LNCS 1032, 1996, §6.2). A sleep set depends on the path, not
// only on the state: a state first explored under sleep set Z was not explored along
// the events of Z, so a later path that reaches it with a sleep set Z' lacking some of
// them may not stop there. Each visited state therefore keeps the sleep set it was
// explored under, by content (the graph's steps: a sleep set's events were explored
// elsewhere, so what they do is known); a path that reaches the state again stops there
// only when that set is a subset of its own. Otherwise the state is explored again, as a
// new state, under Z' — the successors decide for themselves whether they need exploring
// again — and keeps Z ∩ Z': together the two explorations cover every trace from it but
// those that start with an event of both sets. Each exploration again shrinks the set,
// so a state is explored at most |Z|+1 times, and a search of a cyclic state space still
// ends. A state still on the path (a cycle) is explored again in the same way, nested:
// the graph leaves it when its first occurrence is left (Graph.leave).
//
// Exploring only Z \ Z' again (Godefroid's T), with the events explored before kept out
// of the new sleep sets, was tried: it explored more (abd 1w2r-seq: 170,463 states and
// 641,415 steps against 134,373 and 503,012), since the new children's sleep sets lack
// every event explored before and their own successors are explored again in turn.
//
// The summary of a state explored again is the union of what both explorations reach
// (visitedState.old() keeps the first one's until the state is left). The summaries of the
// states that reach it are not updated, and need not be: an event t that the earlier
// exploration of s slept on was asleep because it had been explored from a state x above
// s on that path and is independent of every step from x to s, so a path through s
// followed by t and a continuation w is equivalent to one through x that takes t first,
// which x's exploration covered — with the same events, and so the same steps of the
// graph — or t was asleep above the state whose summary is read, and then it is asleep
// on the path that reads it too.

// sleeper is an event of a sleep set, or one explored from a node: its step in the
// graph and its identity on the path.
type sleeper struct {
	step int32
	id   uint64
}

// sleepKey is a path's sleep set as the graph's steps: a bit mask when every step is below
// 63 (small), else the steps in increasing order.
type sleepKey struct {
	mask  uint64
	list  []int32
	small bool
}

// sleep fills the sleep set of the last node of the path, reached by step t of the graph
// (−1 at the root), and returns it as the graph's steps, valid until the next call
// (kept only when a state keeps it: most arrivals are revisits). The
// sleep set is source DPOR's (inheritSleep): the events asleep at the parent or explored
// from it before t that are independent of t and still enabled. When the relation
// decides from classes (summaryOnly) it is computed from the graph's steps, by the class
// table's bit rows, with no StepInfo copied.
func (s *stateful) sleep(nodes []Node, t int32) sleepKey {
	n := len(nodes) - 1
	for len(s.slpAt) <= n {
		s.slpAt = append(s.slpAt, nil)
		s.triedAt = append(s.triedAt, nil)
	}
	s.slpAt[n], s.triedAt[n] = s.slpAt[n][:0], s.triedAt[n][:0]
	if n == 0 {
		return sleepKey{small: true}
	}
	s.triedAt[n-1] = append(s.triedAt[n-1], sleeper{t, nodes[n-1].Step().Event.ID})
	if !s.memo {
		inheritSleep(nodes, s.dep)
		return keyOf(s.sleepSteps(&nodes[n]))
	}
	top := &nodes[n]
	row := s.cls.rows[s.g.class[t]]
	out := s.slpAt[n]
	tried := s.triedAt[n-1]
	cycled := &nodes[n-1].Cycled
	for l, list := range [2][]sleeper{s.slpAt[n-1], tried[:len(tried)-1]} {
		for _, e := range list {
			if l == 1 && cycled.Len() > 0 && cycled.Has(nodes[n-1].Find(e.id)) {
				continue
			}
			k := top.Find(e.id)
			if k < 0 || top.Sleep.Has(k) {
				continue
			}
			if row.Has(int(s.g.class[e.step])) && !s.commutes(n-1, e, t) {
				continue
			}
			top.Sleep.Add(k)
			out = append(out, e)
		}
	}
	s.slpAt[n] = out
	var mask uint64
	for _, e := range out {
		if e.step >= 63 {
			s.slpBuf = s.slpBuf[:0]
			for _, e := range out {
				s.slpBuf = append(s.slpBuf, e.step)
			}
			slices.Sort(s.slpBuf)
			return sleepKey{list: slices.Compact(s.slpBuf)}
		}
		mask |= 1 << e.step
	}
	return sleepKey{mask: mask, small: true}
}

// keyOf returns the sleepKey of the sorted steps b.
func keyOf(b []int32) sleepKey {
	if len(b) > 0 && b[len(b)-1] >= 63 {
		return sleepKey{list: b}
	}
	var mask uint64
	for _, v := range b {
		mask |= 1 << v
	}
	return sleepKey{mask: mask, small: true}
}

// steps returns z's steps in increasing order, in *buf when z is a mask (which it grows
// as needed); the caller must not modify them.
func (z *sleepKey) steps(buf *[]int32) []int32 {
	if !z.small {
		return z.list
	}
	*buf = maskSteps(z.mask, *buf)
	return *buf
}

func maskSteps(m uint64, buf []int32) []int32 {
	buf = buf[:0]
	for ; m != 0; m &= m - 1 {
		buf = append(buf, int32(bits.TrailingZeros64(m)))
	}
	return buf
}

// A state keeps the sleep set it was explored under in one word (visitedState.slp): the
// bit mask of its steps when they are all below 63, else slpIndexed and the index of the
// set interned. The mask needs no table: most sleep sets, and every one on the shipped
// systems but adr 2r2w's and paxos 2r2w's larger graphs, are kept that way.
const slpIndexed = 1 << 63

// keepSleep returns how a state keeps the sleep set z.
func (g *Graph) keepSleep(z *sleepKey) uint64 {
	if z.small {
		return z.mask
	}
	return g.keepSteps(z.list)
}

// keepSteps returns how a state keeps the sleep set of the sorted steps b.
func (g *Graph) keepSteps(b []int32) uint64 {
	if z := keyOf(b); z.small {
		return z.mask
	}
	return slpIndexed | uint64(uint32(g.internSleep(b)))
}

// keptSteps returns the steps of a kept sleep set in increasing order, in *buf when it is
// a mask (which it grows as needed); the caller must not modify them: they may be the
// table's.
func (g *Graph) keptSteps(x uint64, buf *[]int32) []int32 {
	if x&slpIndexed != 0 {
		return g.sleepSet(int32(uint32(x)))
	}
	*buf = maskSteps(x, *buf)
	return *buf
}

// keptIn reports whether the kept sleep set x is a subset of z.
func (s *stateful) keptIn(x uint64, z *sleepKey) bool {
	switch {
	case x == 0:
		return true
	case x&slpIndexed == 0 && z.small:
		return x&^z.mask == 0
	}
	return subsetSorted(s.g.keptSteps(x, &s.bufA), z.steps(&s.bufB))
}

// keptMeet returns the kept form of the intersection of the kept sleep set x and z.
func (s *stateful) keptMeet(x uint64, z *sleepKey) uint64 {
	if x&slpIndexed == 0 && z.small {
		return x & z.mask
	}
	s.meetBuf = meetSorted(s.g.keptSteps(x, &s.bufA), z.steps(&s.bufB), s.meetBuf)
	return s.g.keepSteps(s.meetBuf)
}

// sleepSteps returns the node's sleep set as the graph's steps of the events of
// nd.SleepInfo, in increasing order.
func (s *stateful) sleepSteps(nd *Node) []int32 {
	s.slpBuf = s.slpBuf[:0]
	for i := range nd.SleepInfo {
		s.slpBuf = append(s.slpBuf, s.g.intern(&nd.SleepInfo[i]))
	}
	slices.Sort(s.slpBuf)
	return slices.Compact(s.slpBuf)
}

// sleepSet returns the steps of interned sleep set k, in increasing order; the caller
// must not modify it.
func (g *Graph) sleepSet(k int32) []int32 { return g.slps.get(k) }

// internSleep returns the index of the sleep set holding the sorted steps b (which it
// does not keep). Index 0 is the empty set.
func (g *Graph) internSleep(b []int32) int32 {
	if len(b) == 0 {
		return 0
	}
	k, _ := g.slps.intern(b)
	return k
}

// subsetSorted reports whether the sorted steps x are a subset of the sorted steps y.
func subsetSorted(x, y []int32) bool {
	if len(x) > len(y) {
		return false
	}
	j := 0
	for _, v := range x {
		for j < len(y) && y[j] < v {
			j++
		}
		if j == len(y) || y[j] != v {
			return false
		}
	}
	return true
}

// meetSorted appends to buf[:0] the steps both sorted x and y hold, in order.
func meetSorted(x, y, buf []int32) []int32 {
	buf = buf[:0]
	j := 0
	for _, v := range x {
		for j < len(y) && y[j] < v {
			j++
		}
		if j < len(y) && y[j] == v {
			buf = append(buf, v)
		}
	}
	return buf
}

// reopen makes the visited state k, which the search is about to explore again, a state
// being explored: a summarized state gets a new discovery order and keeps its summary in
// old, to be joined with what the new exploration reaches; a state left but waiting for
// its component's summary keeps its place and its edges (Graph.leave).
func (g *Graph) reopen(k int32) {
	st := g.st(k)
	if st.sum < 0 {
		return
	}
	if st.sum == sumInline {
		st.sum = oldInline // sw keeps it
	} else {
		st.sum = -2 - st.sum
	}
	g.opening(st) // no edges, not yet discovered
}

// StatefulDPORWithoutSleep is StatefulDPOR without sleep sets, as it was before they were
// combined with caching: for measurements of what they save.
func StatefulDPORWithoutSleep(dep Dependence) Revisiter {
	s := StatefulDPOR(dep).(*stateful)
	s.noSleep = true
	return s
}
