package dpor

import (
	"math/bits"
	"slices"

	"github.com/ravelmc/ravel/model"
)

// StepSummary is what stateful DPOR keeps of a step explored from a visited state: what
// the dependence relations look at, and the content of the event it delivered.
type StepSummary struct {
	Content  uint64
	To       model.ID
	Kind     EventKind
	Invokes  bool
	Returns  bool
	Answers  []model.RequestID
	Key      string
	KeyKnown bool
	Excluded bool
}

// Edge is a step explored from a visited state: its summary (an index into Graph.Steps)
// and the fingerprint of the state it led to.
type Edge struct {
	Step int32
	To   uint64
}

// VisitedState is a visited state's part of the graph: the steps explored from it.
type VisitedState struct {
	Edges []Edge
	// Sum, once the search has left the state and every state it reaches, indexes in
	// Graph.Sums the set of steps reachable from it; −1 before (Graph.leave).
	Sum int32

	depth    int32 // where it was last put on the path
	mark     uint32
	idx, low int32 // Tarjan's discovery order and low link (Graph.leave)
}

// Graph is stateful DPOR's record of the visited states: for each, by fingerprint, the
// steps explored from it and where they led, and a summary of the steps reachable from
// it; steps and summaries are interned. It is plain data (Steps, Out, Sums), so that a
// checkpoint can save it; a resumed search rebuilds the rest with AddStep.
type Graph struct {
	Steps []StepSummary
	Out   map[uint64]*VisitedState
	Sums  []Bits

	class     []int32    // Steps[k]'s class: the step without its content
	classInfo []StepInfo // each class as the dependence relations take it
	classes   map[string]int32
	index     map[uint64][]int32 // steps by content
	sumIndex  map[uint64][]int32 // sums by hash

	next    int32    // the next discovery order
	pending []uint64 // left states waiting for their component's summary
	scratch Bits
}

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	return &Graph{Out: map[uint64]*VisitedState{}, index: map[uint64][]int32{}, classes: map[string]int32{}, sumIndex: map[uint64][]int32{}}
}

// AddStep interns a step summary and returns its index.
func (g *Graph) AddStep(sum StepSummary) int32 {
	for _, k := range g.index[sum.Content] {
		if g.Steps[k].equal(&sum) {
			return k
		}
	}
	k := int32(len(g.Steps))
	g.Steps = append(g.Steps, sum)
	g.index[sum.Content] = append(g.index[sum.Content], k)
	ck := sum.classKey()
	c, ok := g.classes[ck]
	if !ok {
		c = int32(len(g.classInfo))
		g.classes[ck] = c
		g.classInfo = append(g.classInfo, StepInfo{
			Event:   Event{To: sum.To, Kind: sum.Kind, Key: sum.Key, KeyKnown: sum.KeyKnown, Excluded: sum.Excluded},
			Invokes: sum.Invokes, Returns: sum.Returns, Answers: sum.Answers,
		})
	}
	g.class = append(g.class, c)
	return k
}

// AddEdge records that step (an index AddStep returned) was explored from the state
// from and led to the state to.
func (g *Graph) AddEdge(from uint64, step int32, to uint64) {
	st := g.state(from)
	st.Edges = append(st.Edges, Edge{Step: step, To: to})
	g.state(to)
}

func (g *Graph) state(fp uint64) *VisitedState {
	st := g.Out[fp]
	if st == nil {
		st = &VisitedState{Sum: -1, depth: -1, idx: -1}
		g.Out[fp] = st
	}
	return st
}

// discover gives st its discovery order the first time the search reaches it.
func (g *Graph) discover(st *VisitedState) {
	if st.idx < 0 {
		st.idx, st.low = g.next, g.next
		g.next++
	}
}

// leave records that the search has left the state st, at the top of path (the
// fingerprints of the states on the search path), for good; pendAt is the length the stack of left,
// unsummarized states had when it was reached. The search is a depth-first walk of the graph, so
// Tarjan's algorithm finds its strongly connected components as it goes: when the first
// state reached of a component is left, every state of the component reaches the same
// steps, and each gets that set as its summary. A state left before then waits on the
// stack. Without this, a state on a cycle, and every state that reaches one, would keep no
// summary and every revisit would walk it again.
func (g *Graph) leave(path []uint64, st *VisitedState, pendAt int) {
	fp := path[len(path)-1]
	if st.Sum >= 0 {
		return
	}
	low := st.idx
	for _, e := range st.Edges {
		w := g.Out[e.To]
		switch {
		case w == nil || w.Sum >= 0:
		case w.depth >= 0 && int(w.depth) < len(path) && path[w.depth] == e.To: // still on the path
			low = min(low, w.idx)
		default:
			low = min(low, w.low)
		}
	}
	st.low = low
	if low < st.idx {
		g.pending = append(g.pending, fp)
		return
	}
	members := append(g.pending[pendAt:], fp)
	acc := g.scratch[:0]
	for _, m := range members {
		for _, e := range g.Out[m].Edges {
			acc.Set(int(e.Step))
			if w := g.Out[e.To]; w.Sum >= 0 {
				acc.Or(g.Sums[w.Sum])
			}
		}
	}
	g.scratch = acc
	sum := g.internSum(acc)
	for _, m := range members {
		g.Out[m].Sum = sum
	}
	g.pending = g.pending[:pendAt]
}

// internSum returns the index in Sums of the set b (which it does not keep).
func (g *Graph) internSum(b Bits) int32 {
	b = b.trim()
	h := uint64(len(b))
	for _, w := range b {
		h = model.Mix64(h ^ w)
	}
	for _, k := range g.sumIndex[h] {
		if slices.Equal(g.Sums[k], b) {
			return k
		}
	}
	k := int32(len(g.Sums))
	g.Sums = append(g.Sums, slices.Clone(b))
	g.sumIndex[h] = append(g.sumIndex[h], k)
	return k
}

func (g *Graph) intern(si *StepInfo) int32 {
	ev := &si.Event
	return g.AddStep(StepSummary{
		Content: ev.Content, To: ev.To, Kind: ev.Kind, Invokes: si.Invokes, Returns: si.Returns,
		Answers: si.Answers, Key: ev.Key, KeyKnown: ev.KeyKnown, Excluded: ev.Excluded,
	})
}

func (a *StepSummary) equal(b *StepSummary) bool {
	return a.Content == b.Content && a.To == b.To && a.Kind == b.Kind && a.Invokes == b.Invokes && a.Returns == b.Returns &&
		a.Key == b.Key && a.KeyKnown == b.KeyKnown && a.Excluded == b.Excluded && slices.Equal(a.Answers, b.Answers)
}

// classKey is the summary without its content: what the dependence relations look at.
func (a *StepSummary) classKey() string {
	b := make([]byte, 0, 32+len(a.Key)+12*len(a.Answers))
	b = appendInt(b, int64(a.To))
	b = append(b, byte(a.Kind), flag(a.Invokes), flag(a.Returns), flag(a.KeyKnown), flag(a.Excluded))
	for _, r := range a.Answers {
		b = appendInt(b, int64(r.Client))
		b = appendInt(b, int64(r.Seq))
	}
	b = append(b, '|')
	b = append(b, a.Key...)
	return string(b)
}

func appendInt(b []byte, v int64) []byte {
	for i := 0; i < 8; i++ {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

func flag(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// Bits is a growable bit set (of step indices).
type Bits []uint64

// Set adds i.
func (b *Bits) Set(i int) {
	for len(*b) <= i/64 {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

// Has reports whether i is in the set.
func (b Bits) Has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

// Or adds every element of c.
func (b *Bits) Or(c Bits) {
	for len(*b) < len(c) {
		*b = append(*b, 0)
	}
	for i, w := range c {
		(*b)[i] |= w
	}
}

// Clear empties the set, keeping its memory.
func (b *Bits) Clear() { *b = (*b)[:0] }

// Each calls f with every element, in increasing order.
func (b Bits) Each(f func(int)) {
	for i, w := range b {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			f(i*64 + t)
			w &= w - 1
		}
	}
}

func (b Bits) trim() Bits {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}
