package dpor

import (
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/ravelmc/ravel/internal/words"
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

// edge is a step explored from a visited state: its summary (an index into Graph.Steps),
// the state it led to (an index into Graph.states), and the next edge from the same
// state (an index into Graph.edges, or −1): each state's edges form a list threaded
// through one array, so that the graph holds no pointers for the collector to scan.
type edge struct {
	step, to, next int32
}

// visitedState is a visited state's part of the graph: what it keeps for good. What the
// search needs of a state only until the state is summarized — its edges, its place on
// the path, Tarjan's numbers — is in an openState apart (Graph.opens), of which there
// are few at any time: the states on the path and those left but waiting for their
// component's summary (fewer than 40 at once on leader 1w1r, which visits 239,511
// states; TestStatefulDPORKeepsOpenPartsOnlyWhileOpen). A state kept all five in its own
// record before, 40 bytes where it is now 24.
type visitedState struct {
	// sw holds the summary itself when sum is sumInline: a set of steps below 64 whose
	// classes are below 64 is one word, which the state keeps rather than intern it
	// (Graph.leave). While the state is explored again it still holds the summary before,
	// when old is sumInline.
	sw uint64
	// slp is the sleep set the state was explored under, kept as slpIndexed says
	// (sleepcache.go).
	slp uint64
	// sum, once the search has left the state and every state it reaches, indexes the
	// graph's sums (or is sumInline): the set of steps reachable from it (Graph.leave).
	// Before, it is −1; or, while a summarized state is explored again, below −1, and
	// holds its summary before (visitedState.old).
	sum int32
	// open indexes the state's openState in Graph.opens while it is not summarized,
	// and is −1 once it is (and before the search first reaches it: Graph.state).
	open int32
}

// A visited state is three words: the graph holds millions.
var _ [24 - unsafe.Sizeof(visitedState{})]struct{}

// openState is what the search keeps of a state only until it is summarized.
type openState struct {
	first    int32 // its first edge, or −1
	depth    int32 // where it was last put on the path, or −1
	idx, low int32 // Tarjan's discovery order and low link (Graph.leave), or −1 before discover
	pend     bool  // left, and waiting on the pending stack for its component's summary
}

// closed is the open part every summarized state reads as (Graph.op): no edges, not on
// the path.
var closed = openState{first: -1, depth: -1, idx: -1, low: -1}

// sumInline, as a state's sum or old, says the summary is the state's sw. It is
// not negative, so that sum ≥ 0 still means summarized.
const sumInline = math.MaxInt32

// oldInline is the sum of a state explored again whose summary before is in sw.
const oldInline = math.MinInt32

// old returns the summary a state explored again had before (an index of the graph's
// sums, or sumInline), or −1: a state explored again keeps it in sum, encoded below −1
// (reopen), until it is summarized anew.
func (st *visitedState) old() int32 {
	switch {
	case st.sum >= -1:
		return -1
	case st.sum == oldInline:
		return sumInline
	}
	return -2 - st.sum
}

// Graph is stateful DPOR's record of the visited states: for each, by fingerprint, the
// steps explored from it and where they led, and a summary of the steps reachable from
// it; steps are interned, and so are summaries but those of one word, which the state
// keeps itself (visitedState.sw). States, edges and summaries live in flat arrays
// indexed by int32, with no pointers for the collector to scan, and a state is found by
// fingerprint once each time the search reaches it.
//
// A state's edges are needed only until it is summarized: then its summary stands for
// them. The states summarized together form a strongly connected component, and every
// edge added since the component's first state was reached comes from one of its states
// (the search is depth first, and a component closes only after those it reaches), so
// the edges are a stack, cut back when a component closes: the graph holds the edges of
// the states on the path and of the unsummarized states they reach, not of every state
// visited.
type Graph struct {
	Steps []StepSummary

	ids     fpTable          // states by fingerprint
	states  [][]visitedState // in chunks of stateChunk, never moved: st(k) is state k
	nstates int32
	slabs   []*words.Block // the memory of the chunks past heapChunks (addChunk)
	edges   []edge

	// The summaries: sum k is the bit set of steps sums.get(k), and its classes
	// clsData[clsOff[k]:clsOff[k+1]].
	sums    sliceTable[uint64]
	clsData []uint64
	clsOff  []int32

	class     []int32    // Steps[k]'s class: the step without its content
	classInfo []StepInfo // each class as the dependence relations take it
	classes   map[string]int32
	byContent fpTable // the first step of each content; stepNext chains the others
	stepNext  []int32
	depRow    []Bits // by class: the classes dependent on it (classDependent)
	clsSteps  []Bits // by class: the steps of that class

	// The sleep sets states were explored under, as steps in increasing order; set 0 is
	// empty (sleepcache.go).
	slps sliceTable[int32]

	// opens holds the open parts of the states not summarized (visitedState.open);
	// freeOpen, the slots of opens free for reuse.
	opens    []openState
	freeOpen []int32

	next              int32   // the next discovery order
	pending           []int32 // left states waiting for their component's summary
	scratch, cscratch Bits
}

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	g := &Graph{classes: map[string]int32{}, clsOff: []int32{0}}
	g.slps.intern(nil) // sleep set 0: the empty set
	return g
}

// AddStep interns a step summary and returns its index.
func (g *Graph) AddStep(sum StepSummary) int32 {
	last := int32(-1)
	for k := g.byContent.get(sum.Content); k >= 0; k = g.stepNext[k] {
		if g.Steps[k].equal(&sum) {
			return k
		}
		last = k
	}
	k := int32(len(g.Steps))
	g.Steps = append(g.Steps, sum)
	g.stepNext = append(g.stepNext, -1)
	if last >= 0 {
		g.stepNext[last] = k
	} else {
		g.byContent.getOrPut(sum.Content, k)
	}
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
	for len(g.clsSteps) <= int(c) {
		g.clsSteps = append(g.clsSteps, nil)
	}
	g.clsSteps[c].Set(int(k))
	return k
}

// firstWith returns the first step whose event has the given content, or −1; stepNext
// leads to the others.
func (g *Graph) firstWith(content uint64) int32 { return g.byContent.get(content) }

// addEdge records that step (an index AddStep returned) was explored from the state
// from and led to the state to (indices state returned).
func (g *Graph) addEdge(from, step, to int32) {
	o := g.opening(g.st(from))
	g.edges = append(g.edges, edge{step: step, to: to, next: o.first})
	o.first = int32(len(g.edges) - 1)
}

// op returns a copy of st's open part, closed's when it has none: for reading. Writers
// use opening, so that no write can reach a state that has no open part.
func (g *Graph) op(st *visitedState) openState {
	if st.open < 0 {
		return closed
	}
	return g.opens[st.open]
}

// opening returns st's open part, giving it one (as closed's) when it has none.
func (g *Graph) opening(st *visitedState) *openState {
	if st.open < 0 {
		if n := len(g.freeOpen); n > 0 {
			st.open = g.freeOpen[n-1]
			g.freeOpen = g.freeOpen[:n-1]
		} else {
			st.open = int32(len(g.opens))
			g.opens = append(g.opens, openState{})
		}
		g.opens[st.open] = closed
	}
	return &g.opens[st.open]
}

// closeOpen frees st's open part, once st is summarized.
func (g *Graph) closeOpen(st *visitedState) {
	if st.open >= 0 {
		g.freeOpen = append(g.freeOpen, st.open)
		st.open = -1
	}
}

// prefetchState starts loading what state(fp) will read first (fpTable.prefetch).
func (g *Graph) prefetchState(fp uint64) { g.ids.prefetch(fp) }

// state returns the index of the state fp, adding it if it is new, and whether it was
// there already.
func (g *Graph) state(fp uint64) (int32, bool) {
	k := g.nstates
	if got := g.ids.getOrPut(fp, k); got != k {
		return got, true
	}
	if k&(stateChunk-1) == 0 {
		g.addChunk()
	}
	*g.st(k) = visitedState{sum: -1, open: -1}
	g.nstates++
	return k, false
}

// known reports whether the state fp has been visited.
func (g *Graph) known(fp uint64) bool { return g.ids.get(fp) >= 0 }

// bytes estimates the memory the graph holds.
func (g *Graph) bytes() int64 {
	n := int64(len(g.states))*stateChunk*int64(unsafe.Sizeof(visitedState{})) +
		16*int64(len(g.ids.slots)+len(g.byContent.slots)) + g.sums.bytes() + g.slps.bytes() +
		int64(cap(g.edges))*int64(unsafe.Sizeof(edge{})) + int64(cap(g.opens))*int64(unsafe.Sizeof(openState{})) +
		8*int64(cap(g.clsData)) + 4*int64(cap(g.clsOff)) +
		int64(len(g.Steps))*int64(unsafe.Sizeof(StepSummary{}))
	return n
}

// stateChunk is the number of states in one chunk of Graph.states: growing the graph
// adds a chunk rather than copying every state into a larger array. 1,024 states (24
// KiB): with 4,096 a search of a few hundred states zeroed a 160 KiB chunk it hardly
// used, which in a loop of small searches (a test) the collector then had to handle.
const stateChunk = 1 << 10

// slabChunks is the number of chunks addChunk maps at once: 6 MiB, on huge pages.
const slabChunks = 256

// A slab must be mapped outside the Go heap, which words.Alloc does from 4 MiB: in the
// heap the states would be live data the collector lets the garbage grow with. (With
// 128 chunks of the 24-byte states a slab was 3 MiB, in the heap: leader 1w2r peaked
// at 5,385 MiB, against 5,061 with the 40-byte states before.)
var _ [slabChunks*stateChunk*unsafe.Sizeof(visitedState{}) - 4<<20]struct{}

// heapChunks is the number of chunks addChunk takes from the Go heap (a million states,
// 24 MiB) before it maps slabs outside it. Most searches' graphs fit, and there the
// states are a ballast: the collector lets the heap grow by its live size before it
// collects, and the engine allocates fast, so with the states outside the heap it
// collected far more often (abd 1w2r-seq, 134,373 states: 1.18x the CPU in
// BenchmarkStatefulDPOR at the default GOGC). Past it the ballast is enough, and a
// larger graph's states in the heap only let its garbage grow with them: a run's peak
// memory was twice the states' and the fingerprint table's (leader 1w2r: 953 MiB after
// 90 s, 8.9 million states).
var heapChunks = 1024

// addChunk appends a chunk of stateChunk zeroed states to g.states: from the Go heap up
// to heapChunks, then cut from slabs mapped outside it (words.NewBlock), which the graph
// frees once it is dropped.
func (g *Graph) addChunk() {
	if len(g.states) < heapChunks {
		g.states = append(g.states, make([]visitedState, stateChunk))
		return
	}
	i := (len(g.states) - heapChunks) % slabChunks
	if i == 0 {
		g.slabs = append(g.slabs, words.NewBlock(slabChunks*stateChunk*int(unsafe.Sizeof(visitedState{}))/8))
	}
	w := g.slabs[len(g.slabs)-1].W
	all := unsafe.Slice((*visitedState)(unsafe.Pointer(unsafe.SliceData(w))), slabChunks*stateChunk)
	g.states = append(g.states, all[i*stateChunk:(i+1)*stateChunk:(i+1)*stateChunk])
}

// st returns state k.
func (g *Graph) st(k int32) *visitedState { return &g.states[k/stateChunk][k%stateChunk] }

// discover gives the open state o its discovery order the first time the search
// reaches it.
func (g *Graph) discover(o *openState) {
	if o.idx < 0 {
		o.idx, o.low = g.next, g.next
		g.next++
	}
}

// sum returns the steps of summary k; the caller must not modify it.
func (g *Graph) sum(k int32) Bits { return g.sums.get(k) }

// sumOf returns the steps of st's summary (st.sum ≥ 0); the caller must not modify it.
func (g *Graph) sumOf(st *visitedState) Bits {
	if st.sum == sumInline {
		return Bits(unsafe.Slice(&st.sw, 1))
	}
	return g.sums.get(st.sum)
}

// oldOf returns the steps of st's summary before it was explored again (st.old() ≥ 0);
// the caller must not modify it.
func (g *Graph) oldOf(st *visitedState) Bits {
	o := st.old()
	if o == sumInline {
		return Bits(unsafe.Slice(&st.sw, 1))
	}
	return g.sums.get(o)
}

// inlineClasses returns the classes of the steps of the one-word summary w.
func (g *Graph) inlineClasses(w uint64) uint64 {
	var c uint64
	for ; w != 0; w &= w - 1 {
		c |= 1 << g.class[bits.TrailingZeros64(w)]
	}
	return c
}

// sumClasses returns the classes of the steps of summary k; the caller must not modify
// it.
func (g *Graph) sumClasses(k int32) Bits { return g.clsData[g.clsOff[k]:g.clsOff[k+1]] }

// leave records that the search has left the state at the top of path (the states on
// the search path) for good; pendAt is the length the stack of left, unsummarized states
// had when it was reached, edgeAt the number of edges then. The search is a depth-first
// walk of the graph, so Tarjan's algorithm finds its strongly connected components as it
// goes: when the first state reached of a component is left, every state of the
// component reaches the same steps, and each gets that set as its summary. A state left
// before then waits on the stack. Without this, a state on a cycle, and every state that
// reaches one, would keep no summary and every revisit would walk it again.
func (g *Graph) leave(path []int32, pendAt, edgeAt int) {
	k := path[len(path)-1]
	st := g.st(k)
	if st.sum >= 0 {
		return // summarized
	}
	o := g.opening(st) // it has one: Arrive gave it
	if o.depth >= 0 && o.depth < int32(len(path)-1) && path[o.depth] == k {
		// Explored again (sleepcache.go) while still on the path further up, where it
		// is left later, with the edges this exploration added.
		return
	}
	low := o.idx
	for e := o.first; e >= 0; e = g.edges[e].next {
		to := g.edges[e].to
		w := g.st(to)
		if w.sum >= 0 {
			continue
		}
		switch wo := g.op(w); {
		case wo.depth >= 0 && int(wo.depth) < len(path) && path[wo.depth] == to: // still on the path
			low = min(low, wo.idx)
		default:
			low = min(low, wo.low)
		}
	}
	if o.pend {
		// Explored again while its component is still open: left before, and on the
		// pending stack already. The edges this exploration added may reach a state
		// further up the path than its component's root, which its low must say: the
		// states above it take their low from it, and a state taken for a root too
		// early would be summarized without what the edges reach, and would drop the
		// edges that states further up hold, left dangling (random cyclic system
		// 1085, TestGraphComponentOfAStateExploredAgain).
		o.low = min(o.low, low)
		return
	}
	o.low = low
	if low < o.idx {
		o.pend = true
		g.pending = append(g.pending, k)
		return
	}
	members := append(g.pending[pendAt:], k)
	acc := g.scratch[:0]
	for _, m := range members {
		if st := g.st(m); st.old() >= 0 {
			acc.Or(g.oldOf(st))
		}
		for e := g.op(g.st(m)).first; e >= 0; e = g.edges[e].next {
			acc.Set(int(g.edges[e].step))
			if w := g.st(g.edges[e].to); w.sum >= 0 {
				acc.Or(g.sumOf(w))
			}
		}
	}
	g.scratch = acc
	acc = acc.trim()
	var sum int32
	var sw uint64
	if len(acc) <= 1 && len(g.classInfo) <= 64 {
		// One word: kept in the state, with no table to look it up in.
		sum = sumInline
		if len(acc) == 1 {
			sw = acc[0]
		}
	} else if sum = g.sameSum(members, acc); sum < 0 {
		sum = g.internSum(acc)
	}
	for _, m := range members {
		st := g.st(m)
		st.sum, st.sw = sum, sw
		g.closeOpen(st)
	}
	g.pending = g.pending[:pendAt]
	g.edges = g.edges[:edgeAt]
}

// sameSum returns the summary of a state some member's edge leads to when it equals b,
// or −1: such a summary needs no hashing. It is seldom there: a state's own steps are
// rarely reachable from its successors, since a message is delivered once (on abd
// 1w2r-seq and register 2r2w it never was; docs/stateful-dpor-history.md).
func (g *Graph) sameSum(members []int32, b Bits) int32 {
	for _, m := range members {
		for e := g.op(g.st(m)).first; e >= 0; e = g.edges[e].next {
			if w := g.st(g.edges[e].to).sum; w >= 0 && w != sumInline && slices.Equal(g.sum(w), b) {
				return w
			}
		}
	}
	return -1
}

// internSum returns the index of the summary holding the set b (which it does not keep).
func (g *Graph) internSum(b Bits) int32 {
	b = b.trim()
	k, added := g.sums.intern(b)
	if added {
		cls := g.cscratch[:0]
		b.Each(func(t int) { cls.Set(int(g.class[t])) })
		g.cscratch = cls
		g.clsData = append(g.clsData, cls...)
		g.clsOff = append(g.clsOff, int32(len(g.clsData)))
	}
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
