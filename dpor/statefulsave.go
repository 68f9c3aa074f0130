package dpor

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ravelmc/ravel/model"
)

// Resumable is a strategy with state of its own beyond the path's nodes (Node's sets and
// steps, which the engine's checkpoints keep), that a checkpoint must keep too for a
// resumed search to go on as the interrupted one would have.
type Resumable interface {
	Strategy
	// SaveState appends to b the strategy's state as it stands between two steps of the
	// search, every node of the path arrived at.
	SaveState(b []byte) []byte
	// RestoreState makes a strategy that has seen nothing yet what the one that saved b
	// was. nodes is the path as the checkpoint restored it (sets and steps included); the
	// strategy is not told of its states again (no Arrive). An error says b is not a
	// state this strategy saved for this path.
	RestoreState(b []byte, nodes []Node) error
}

// statefulFormat opens stateful DPOR's saved state; a change of layout changes it.
const statefulFormat = "ravel-stateful-dpor/3"

// ErrSavedState is the cause of a RestoreState refused because the saved state is
// damaged, of another format, or of another path.
var ErrSavedState = errors.New("saved strategy state does not restore")

// SaveState appends the graph (its steps, states, fingerprint index, edges, summaries
// and sleep sets, from which everything else it holds is rebuilt) and the strategy's
// record of the path, including the depths above it whose states are still to be left.
func (s *stateful) SaveState(b []byte) []byte {
	g := s.g
	// Room for it all at once: it can be most of the memory the search holds, and
	// growing it by doubling would hold it up to three times over.
	b = slices.Grow(b, 64+48*len(g.Steps)+52*int(g.nstates)+16*len(g.edges)+10*len(g.sums.data)+
		5*len(g.slps.data)+5*len(g.pending)+20*len(s.sts))
	e := saver{b}
	e.str(statefulFormat)
	e.n(len(g.Steps))
	for i := range g.Steps {
		st := &g.Steps[i]
		e.word(st.Content)
		e.int(int64(st.To))
		e.n(int(st.Kind))
		e.n(int(flag(st.Invokes) | flag(st.Returns)<<1 | flag(st.KeyKnown)<<2 | flag(st.Excluded)<<3))
		e.n(len(st.Answers))
		for _, r := range st.Answers {
			e.int(int64(r.Client))
			e.int(int64(r.Seq))
		}
		e.str(st.Key)
	}
	// Each state with its fingerprint, so that the index is rebuilt in one order
	// whatever the table's layout.
	fps := make([]uint64, g.nstates)
	for _, sl := range g.ids.slots {
		if sl.fp != 0 {
			fps[sl.val] = sl.fp
		}
	}
	e.n(int(g.nstates))
	for k := range g.nstates {
		st := g.st(k)
		e.word(fps[k])
		o := g.op(st)
		e.int32s(o.first, st.sum, o.depth, o.idx, o.low)
		e.n(int(flag(o.pend)))
		e.word(st.sw)
		e.word(st.slp)
	}
	e.n(len(g.edges))
	for _, x := range g.edges {
		e.int32s(x.step, x.to, x.next)
	}
	e.n(max(len(g.sums.off)-1, 0))
	for k := range int32(max(len(g.sums.off)-1, 0)) {
		set := g.sums.get(k)
		e.n(len(set))
		for _, w := range set {
			e.word(w)
		}
	}
	e.n(len(g.slps.off) - 1)
	for k := int32(1); k < int32(len(g.slps.off)-1); k++ {
		e.int32List(g.slps.get(k))
	}
	e.int(int64(g.next))
	e.int32List(g.pending)

	e.int32List(s.sts)
	e.n(len(s.revisit))
	for _, r := range s.revisit {
		e.n(int(flag(r)))
	}
	e.int32List(s.pendAt)
	e.int32List(s.edgeAt)
	e.int32List(s.cls.path)
	// What each node's events send, where firstEvent looked: the order of its later
	// events (Order).
	e.n(min(len(s.sendsAt), len(s.sts)))
	for _, l := range s.sendsAt[:min(len(s.sendsAt), len(s.sts))] {
		e.n(len(l))
		for _, w := range l {
			e.word(w)
		}
	}
	for _, lists := range [2][][]sleeper{s.slpAt, s.triedAt} {
		e.n(len(lists))
		for _, l := range lists {
			e.n(len(l))
			for _, x := range l {
				e.int(int64(x.step))
				e.word(x.id)
			}
		}
	}
	// The context-sensitive checks asked so far by pair of classes (contextsleep.go),
	// which decide whether they are asked again.
	pairs := make([][2]int32, 0, len(s.csTries))
	for k := range s.csTries {
		pairs = append(pairs, k)
	}
	slices.SortFunc(pairs, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	e.n(len(pairs))
	for _, k := range pairs {
		c := s.csTries[k]
		e.int32s(k[0], k[1], c[0], c[1])
	}
	return e.b
}

// RestoreState rebuilds what SaveState saved into a strategy that has seen nothing. The
// graph's derived tables (steps by content, classes, their dependence rows, the
// summaries' classes, the interning indices) are rebuilt by adding the saved items in
// their order, which gives every item its saved index; the race levels are recomputed
// as the search needs them.
func (s *stateful) RestoreState(b []byte, nodes []Node) error {
	if s.g.nstates != 0 || len(s.g.Steps) != 0 || len(s.sts) != 0 {
		return fmt.Errorf("%w: the strategy has explored already", ErrSavedState)
	}
	d := loader{b: b}
	if f := d.str(); d.err == nil && f != statefulFormat {
		return fmt.Errorf("%w: format %q, this Ravel reads %q", ErrSavedState, f, statefulFormat)
	}
	g := s.g
	for i, n := 0, d.n(); i < n && d.err == nil; i++ {
		st := StepSummary{Content: d.word(), To: d.id(), Kind: EventKind(d.small(math.MaxUint8))}
		fl := d.small(15)
		st.Invokes, st.Returns, st.KeyKnown, st.Excluded = fl&1 != 0, fl&2 != 0, fl&4 != 0, fl&8 != 0
		if na := d.n(); na > 0 {
			st.Answers = make([]model.RequestID, 0, na)
			for range na {
				st.Answers = append(st.Answers, model.RequestID{Client: d.id(), Seq: int(d.int())})
			}
		}
		st.Key = d.str()
		if d.err == nil && g.AddStep(st) != int32(i) {
			d.fail("step %d is saved twice", i)
		}
	}
	nstates := d.n()
	for k := range int32(nstates) {
		if d.err != nil {
			break
		}
		if k&(stateChunk-1) == 0 {
			g.addChunk()
		}
		if fp := d.word(); g.ids.getOrPut(fp, k) != k {
			d.fail("fingerprint %#x is saved twice", fp)
		}
		st := g.st(k)
		var o openState
		o.first, st.sum, o.depth, o.idx, o.low = d.int32(), d.int32(), d.int32(), d.int32(), d.int32()
		o.pend = d.small(1) == 1
		st.sw, st.slp, st.open = d.word(), d.word(), -1
		if st.sum < 0 {
			// Not summarized: its open part as saved. A summarized state's is closed's
			// (checkpoints before the open parts were apart saved a summarized state's
			// last depth and Tarjan numbers, which nothing reads once it is summarized).
			*g.opening(st) = o
		}
		g.nstates = k + 1
	}
	for i, n := 0, d.n(); i < n && d.err == nil; i++ {
		g.edges = append(g.edges, edge{step: d.index(len(g.Steps)), to: d.index(nstates), next: d.int32()})
	}
	var set Bits
	for k, n := 0, d.n(); k < n && d.err == nil; k++ {
		set = set[:0]
		for range d.n() {
			set = append(set, d.word())
		}
		if d.err == nil && g.internSum(set) != int32(k) {
			d.fail("summary %d is saved twice", k)
		}
	}
	for k, n := 1, d.n(); k < n && d.err == nil; k++ {
		if got, added := g.slps.intern(d.int32List(len(g.Steps))); d.err == nil && (!added || got != int32(k)) {
			d.fail("sleep set %d is saved twice", k)
		}
	}
	g.next = d.int32()
	g.pending = d.int32List(nstates)

	s.sts = d.int32List(nstates)
	s.revisit = make([]bool, d.n())
	for i := range s.revisit {
		s.revisit[i] = d.small(1) == 1
	}
	s.pendAt = d.int32List(math.MaxInt32)
	s.edgeAt = d.int32List(math.MaxInt32)
	path := d.int32List(len(g.classInfo))
	for k, c := range path {
		s.cls.setStep(k, c)
	}
	s.sendsAt = make([][]uint64, d.n())
	for k := range s.sendsAt {
		for range d.n() {
			s.sendsAt[k] = append(s.sendsAt[k], d.word())
		}
	}
	for _, lists := range [2]*[][]sleeper{&s.slpAt, &s.triedAt} {
		*lists = make([][]sleeper, d.n())
		for k := range *lists {
			for range d.n() {
				(*lists)[k] = append((*lists)[k], sleeper{step: d.index(len(g.Steps)), id: d.word()})
			}
		}
	}
	if n := d.n(); n > 0 && d.err == nil {
		s.csTries = make(map[[2]int32][2]int32, n)
		for range n {
			k := [2]int32{d.index(len(g.classInfo)), d.index(len(g.classInfo))}
			s.csTries[k] = [2]int32{d.int32(), d.int32()}
		}
	}
	switch {
	case d.err != nil:
	case len(d.b) != 0:
		d.fail("%d bytes left over", len(d.b))
	case len(s.sts) < len(nodes) || len(s.revisit) != len(s.sts) || len(s.pendAt) != len(s.sts) || len(s.edgeAt) != len(s.sts):
		d.fail("a record of %d depths for a path of %d", len(s.sts), len(nodes))
	case len(s.sendsAt) > len(s.sts):
		d.fail("sends for %d depths of a record of %d", len(s.sendsAt), len(s.sts))
	case len(path) < len(nodes)-1:
		d.fail("classes for %d steps of a path of %d", len(path), len(nodes)-1)
	}
	if d.err == nil {
		g.check(&d)
	}
	if d.err != nil {
		return d.err
	}
	if s.memo {
		s.cls.rows = g.depRows(s.dep)
	}
	if s.faults {
		// What Arrive found at each depth, from the nodes the engine restored.
		s.fullTo = s.fullTo[:0]
		for k := range s.sts {
			full := k < len(nodes) && !nodes[k].Final && hasFault(nodes[k].Enabled) && (k == 0 || s.fullTo[k-1])
			s.fullTo = append(s.fullTo, full)
		}
	}
	return nil
}

// check fails d unless the graph's links stay within it: each state's first edge, its
// summary and the one it had before (visitedState.old), its sleep set, and each edge's
// next.
func (g *Graph) check(d *loader) {
	nsums := int32(max(len(g.sums.off)-1, 0))
	nedges := int32(len(g.edges))
	for k := range g.nstates {
		st := g.st(k)
		old := st.old()
		switch first := g.op(st).first; {
		case first < -1 || first >= nedges:
			d.fail("state %d: edge %d of %d", k, first, nedges)
		case st.sum >= nsums && st.sum != sumInline, old >= nsums && old != sumInline:
			d.fail("state %d: summary %d of %d", k, st.sum, nsums)
		case st.slp&slpIndexed != 0 && int(uint32(st.slp)) >= len(g.slps.off)-1:
			d.fail("state %d: sleep set %d of %d", k, uint32(st.slp), len(g.slps.off)-1)
		}
	}
	for i, x := range g.edges {
		if x.next < -1 || x.next >= nedges {
			d.fail("edge %d: next %d of %d", i, x.next, nedges)
		}
	}
}

// saver appends a saved state.
type saver struct{ b []byte }

func (e *saver) word(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *saver) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *saver) n(v int)       { e.b = binary.AppendUvarint(e.b, uint64(v)) }
func (e *saver) str(v string)  { e.n(len(v)); e.b = append(e.b, v...) }
func (e *saver) int32s(vs ...int32) {
	for _, v := range vs {
		e.int(int64(v))
	}
}
func (e *saver) int32List(vs []int32) {
	e.n(len(vs))
	e.int32s(vs...)
}

// loader reads a saved state; after the first error every read returns zero.
type loader struct {
	b   []byte
	err error
}

func (d *loader) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrSavedState, fmt.Sprintf(format, args...))
	}
	d.b = nil
}

func (d *loader) word() uint64 {
	if len(d.b) < 8 {
		d.fail("cut short")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

// int reads a signed number, zigzag-encoded as binary.AppendVarint writes it.
func (d *loader) int() int64 {
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *loader) uint() uint64 {
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail("cut short")
		return 0
	}
	d.b = d.b[k:]
	return v
}

// n reads a count of items, each at least a byte long: no more than the bytes left.
func (d *loader) n() int {
	v := d.uint()
	if v > uint64(len(d.b)) {
		d.fail("a count of %d with %d bytes left", v, len(d.b))
		return 0
	}
	return int(v)
}

// small reads a number no larger than limit.
func (d *loader) small(limit uint64) uint64 {
	v := d.uint()
	if v > limit {
		d.fail("%d where at most %d fits", v, limit)
		return 0
	}
	return v
}

func (d *loader) int32() int32 {
	v := d.int()
	if v < math.MinInt32 || v > math.MaxInt32 {
		d.fail("%d is not an int32", v)
		return 0
	}
	return int32(v)
}

// index reads an index below n.
func (d *loader) index(n int) int32 {
	v := d.int32()
	if v < 0 || int(v) >= n {
		d.fail("index %d of %d", v, n)
		return 0
	}
	return v
}

func (d *loader) id() model.ID { return model.ID(d.int()) }

func (d *loader) str() string {
	n := d.n()
	if d.err != nil {
		return ""
	}
	v := string(d.b[:n])
	d.b = d.b[n:]
	return v
}

// int32List reads a list of numbers from −1 up to below limit.
func (d *loader) int32List(limit int) []int32 {
	out := make([]int32, d.n())
	for i := range out {
		if out[i] = d.int32(); out[i] < -1 || int(out[i]) >= limit {
			d.fail("%d where below %d fits", out[i], limit)
		}
	}
	return out
}

var _ Resumable = (*stateful)(nil)
