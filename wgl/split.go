package wgl

import (
	"cmp"
	"slices"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// minSegment is the fewest operations a segment between two quiescent cuts holds (the
// last one excepted): smaller segments are joined to the next, since a segment costs a
// new search and shorter ones save no memory worth it. Tests lower it to 1.
var minSegment = 64

// segmentSteps bounds the steps of an enumerating segment's search (see splitSearch):
// segmentSteps times its operations times its start states, plus a constant.
const segmentSteps = 256

// splitSearch checks the operations of one partition by cutting the history at
// quiescent points — instants that no operation spans, every operation before having
// returned and none after called yet — and checking the segments in turn. Every
// operation of a segment precedes every operation of the next in real time, so a
// linearization of the whole is one of each segment in turn, the state after one being
// the start of the next: the history is linearizable exactly when, carrying the SET of
// states the segments can end in from spec.Init() onward (a segment may end in several:
// two concurrent writes), the last segment has a linearization from some state of its
// set. The memo of a segment is dropped when it ends, so memory is that of the largest
// segment, not of the history.
//
// An open operation never returns, so no cut comes after the call of one: the segment
// that holds it runs to the end of the history. The segments before the last are
// searched exhaustively (searcher.enumerate) from every start state, which can cost more
// than the first linearization a plain search stops at: a segment whose search passes
// segmentSteps steps an operation, or whose end states pass maxEnds, is given up and the
// rest of the history, from that segment on, is searched as one (the plain search, from
// the segment's start states), so splitting costs at most a constant factor. Like the
// searcher, it is resumable, and the steps it takes to end do not depend on how its runs
// were divided.
type splitSearch[S, I, O comparable] struct {
	spec   specs.Spec[S, I, O]
	ops    []histories.Operation[I, O]
	idx    []int   // the partition's operations
	order  []int32 // positions in idx, by call
	cuts   []int   // the segments: segment k is order[cuts[k]:cuts[k+1]]
	oneCut [2]int  // cuts, when there is one segment
	k      int     // the segment being searched

	starts    []S     // the start states of segment k
	startLink []int32 // by start: the link of the linearization that led to it, or none
	links     []link
	arena     []int32 // the links' operations, positions in idx
	sub       []int   // segment k's operations, as indices into ops

	cur   *searcher[S, I, O] // segment k's search; nil between segments
	base  int64              // the steps of the segments before cur's
	spare *searcher[S, I, O]

	widest   int // the most start states of a segment so far
	segments int // the segments searched so far

	verdict Verdict
	steps   int64
	witness []int32 // positions in idx, as the other outcomes
	prefix  []int32
	stuck   int32
}

// link is one segment's linearization on the way to a start state: its operations are
// arena[off:off+n], after those of link parent (none for the first segment).
type link struct {
	parent int32
	off    int32
	n      int32
}

// newSplitSearch prepares the search of the operations ops[idx[0]], ops[idx[1]], …; the
// outcome's operations are positions in idx, as a searcher's. If reuse is not nil, it
// is a search that has ended, whose memory the new one takes over; reuse must not be
// used afterwards.
func newSplitSearch[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], idx []int, reuse *splitSearch[S, I, O]) *splitSearch[S, I, O] {
	d := reuse
	if d == nil {
		d = &splitSearch[S, I, O]{}
	}
	*d = splitSearch[S, I, O]{spec: spec, ops: ops, idx: idx, spare: d.spare, stuck: none}
	d.cuts = d.findCuts()
	if d.order != nil {
		d.starts, d.startLink = []S{spec.Init()}, []int32{none}
	}
	return d
}

// findCuts orders the operations by call and returns the segments' bounds in that
// order: 0, the cuts, len(idx). With one segment, order stays nil and the search is a
// plain searcher's.
//
// An open operation never returns, so every cut comes before the earliest call of one:
// only the operations called before it are sorted (recorded histories come nearly in
// order: a check that they are sorted usually spares the sort), and the others follow
// them in the last segment in any order.
func (d *splitSearch[S, I, O]) findCuts() []int {
	n := len(d.idx)
	d.oneCut = [2]int{0, n}
	if n < 2*minSegment {
		return d.oneCut[:]
	}
	firstOpen := int64(1<<63 - 1)
	for _, j := range d.idx {
		if op := &d.ops[j]; op.Open && op.Call < firstOpen {
			firstOpen = op.Call
		}
	}
	order := make([]int32, 0, n)
	for p, j := range d.idx {
		if d.ops[j].Call < firstOpen {
			order = append(order, int32(p))
		}
	}
	before := len(order)
	if before < 2*minSegment {
		return d.oneCut[:]
	}
	byCall := func(a, b int32) int { return cmp.Compare(d.ops[d.idx[a]].Call, d.ops[d.idx[b]].Call) }
	if !slices.IsSortedFunc(order, byCall) {
		slices.SortStableFunc(order, byCall)
	}
	cuts := []int{0}
	var last int64 // the latest return so far
	for j, p := range order {
		op := &d.ops[d.idx[p]]
		// A cut before j when everything before returned before op's call (strictly:
		// an operation returning at the instant op is called is concurrent with it).
		if j-cuts[len(cuts)-1] >= minSegment && n-j >= minSegment && last < op.Call {
			cuts = append(cuts, j)
		}
		if j == 0 || op.Return > last {
			last = op.Return
		}
	}
	if len(cuts) == 1 {
		return d.oneCut[:]
	}
	for p, j := range d.idx {
		if d.ops[j].Call >= firstOpen {
			order = append(order, int32(p))
		}
	}
	d.order = order
	return append(cuts, n)
}

// stepsSoFar is the steps taken so far.
func (d *splitSearch[S, I, O]) stepsSoFar() int64 {
	if d.cur != nil {
		return d.cur.steps
	}
	return d.base
}

// last reports whether segment k is the last.
func (d *splitSearch[S, I, O]) last() bool { return d.k == len(d.cuts)-2 }

// begin starts the search of segment k.
func (d *splitSearch[S, I, O]) begin() {
	if d.order == nil {
		d.cur = newSearcher(d.spec, d.ops, d.idx, d.spare)
		d.spare, d.segments, d.widest = nil, 1, 1
		return
	}
	seg := d.order[d.cuts[d.k]:d.cuts[d.k+1]]
	d.sub = resize(d.sub, len(seg))
	for i, p := range seg {
		d.sub[i] = d.idx[p]
	}
	d.cur = newSearcherFrom(d.spec, d.ops, d.sub, d.spare, d.starts, !d.last())
	d.spare = nil
	// The searcher's steps go on from the earlier segments', so that it looks at stop
	// as often as one search would.
	d.cur.steps = d.base
	d.segments++
	d.widest = max(d.widest, len(d.starts))
}

// pos is the position in idx of the current segment's operation i.
func (d *splitSearch[S, I, O]) pos(i int32) int32 {
	if d.order == nil {
		return i
	}
	return d.order[int32(d.cuts[d.k])+i]
}

// chain appends the linearization that led to start state from (positions in idx) to
// out.
func (d *splitSearch[S, I, O]) chain(out []int32, from int) []int32 {
	if d.order == nil {
		return out // one segment, from spec.Init()
	}
	var path []int32
	for l := d.startLink[from]; l != none; l = d.links[l].parent {
		path = append(path, l)
	}
	for _, l := range slices.Backward(path) {
		out = append(out, d.arena[d.links[l].off:d.links[l].off+d.links[l].n]...)
	}
	return out
}

// end ends the search with the current segment's verdict.
func (d *splitSearch[S, I, O]) end() {
	s := d.cur
	d.verdict, d.steps = s.verdict, s.steps
	if d.order == nil {
		// One segment: the searcher's operations are idx's positions already.
		d.witness, d.prefix, d.stuck = s.witness, s.prefix, s.stuck
	} else if s.verdict == Linearizable {
		d.witness = d.chain(nil, s.witnessFrom)
		for _, i := range s.witness {
			d.witness = append(d.witness, d.pos(i))
		}
	} else {
		d.prefix = d.chain(nil, s.prefixFrom)
		for _, i := range s.prefix {
			d.prefix = append(d.prefix, d.pos(i))
		}
		if s.stuck != none {
			d.stuck = d.pos(s.stuck)
		}
	}
	s.witness, s.prefix = nil, nil
	d.spare, d.cur = s, nil
	d.links, d.arena, d.starts, d.startLink = nil, nil, nil, nil
}

// next carries the end states of the segment just enumerated to the next segment.
func (d *splitSearch[S, I, O]) next() {
	s := d.cur
	size := int32(len(s.ops))
	starts := make([]S, len(s.ends))
	links := make([]int32, len(s.ends))
	for e := range s.ends {
		starts[e] = s.ends[e]
		links[e] = int32(len(d.links))
		d.links = append(d.links, link{parent: d.startLink[s.endFrom[e]], off: int32(len(d.arena)), n: size})
		for _, i := range s.endPaths[int32(e)*size : int32(e+1)*size] {
			d.arena = append(d.arena, d.pos(i))
		}
	}
	d.starts, d.startLink = starts, links
	d.base = s.steps
	d.spare, d.cur = s, nil
	d.k++
}

// giveUp joins segment k and every one after it into one, searched plainly.
func (d *splitSearch[S, I, O]) giveUp() {
	d.base = d.cur.steps
	d.spare, d.cur = d.cur, nil
	d.cuts = append(d.cuts[:d.k+1], len(d.idx))
}

// run advances the search by at most budget steps (no limit if negative), as
// searcher.run does, and returns true when it has ended.
func (d *splitSearch[S, I, O]) run(budget int64, stop func() bool) bool {
	end := d.stepsSoFar() + budget
	if budget < 0 || end < d.stepsSoFar() {
		end = 1<<63 - 1
	}
	for d.verdict == Unknown {
		if d.cur == nil {
			d.begin()
		}
		s := d.cur
		limit := end
		enumerating := s.enumerate
		if enumerating {
			limit = min(limit, d.base+segmentSteps*int64(len(s.ops))*int64(len(d.starts))+4*pollEvery)
		}
		if !s.run(limit-s.steps, stop) {
			switch {
			case s.overflow || (enumerating && s.steps == limit && limit < end):
				d.giveUp()
				continue
			}
			return false
		}
		if s.verdict == NotLinearizable || d.last() {
			d.end()
			break
		}
		d.next()
	}
	return true
}

// outcome returns the outcome of a search that has ended.
func (d *splitSearch[S, I, O]) outcome() outcome {
	o := outcome{verdict: d.verdict, steps: d.steps, witness: d.witness, prefix: d.prefix, stuck: d.stuck}
	d.witness, d.prefix = nil, nil
	return o
}
