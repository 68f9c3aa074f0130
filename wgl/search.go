package wgl

import (
	"hash/maphash"
	"reflect"
	"slices"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// pollEvery is how many search steps pass between looks at whether to stop: often enough
// to stop within microseconds, rarely enough to cost nothing measurable. A power of two.
const pollEvery = 1024

// none marks the absence of a node or an operation.
const none int32 = -1

// The two list heads: node mainHead starts the list of call and return entries of the
// completed operations; node openHead starts the list of call entries of the open ones.
const (
	mainHead int32 = 0
	openHead int32 = 1
)

// opInfo is one operation of a partition.
type opInfo[I, O comparable] struct {
	in     I
	out    O     // the recorded output; the zero O for an open operation
	twin   int32 // an operation that must be linearized before this one, or none
	open   bool
	lifted bool // linearized in the current configuration
}

// node is an entry of the lists: the call or the return of an operation, or a head.
type node struct {
	next, prev int32
	op         int32 // the operation; none for a head
	pair       int32 // for the call of a completed operation its return, for a return its call; else none
	time       int64
	call       bool
}

// frame is one linearized operation on the search stack: its call node, the memo entry
// of the configuration before it, and, for an open operation, the time bound of the
// candidates it was chosen among.
type frame struct {
	node  int32
	prev  uint32
	limit int64
}

// searcher checks the operations of one partition on their own, starting from
// spec.Init(). It is resumable: run advances it by a number of steps and can be called
// again, which lets the partitions of a history share the processors fairly.
//
// The history becomes two doubly linked lists of entries (Knuth's dancing links: an
// unlinked entry keeps its own links, so undoing unlinks in reverse order restores the
// list exactly). The main list holds a call and a return entry per completed operation,
// in time order; the candidates for the next linearized operation are the calls before
// its first return entry (Lowe's just-in-time linearization). They are tried in list
// order, and only when every one has failed are the open operations called by then tried
// (open operations have no return entry, so they sit in a list of their own, by call):
// an open operation can usually be left out, and trying it first would multiply the
// configurations explored.
//
// Operations are pruned when another does the same job at least as well (each rule is
// justified where it is applied): an open operation that would leave the state as it
// is; an open operation whose input equals that of an earlier-called open one not yet
// linearized; and a completed operation whose input and output equal those of another
// that was called no later and returned no later, and that is not yet linearized.
type searcher[S, I, O comparable] struct {
	apply     func(S, I) (S, O)
	ops       []opInfo[I, O]
	nodes     []node // nodes 0 and 1 are the heads
	completed int    // operations that are not open

	memo memo[S]
	// States of a type without pointers (an int, a small struct) are usually few:
	// the first maxKnown distinct ones are numbered in known, so that a state is
	// found by a few comparisons instead of hashed. Each state keeps one way of being
	// named: known only grows, and only until it is full.
	fewStates bool
	known     []S

	// Where the search is.
	state  S      // the current state
	sh     uint64 // its hash
	cfg    uint32 // the memo entry of the current configuration
	stack  []frame
	lists  []int32  // scratch space of buildLists
	ranks  []int32  // each operation's rank, for the memo (see memo.rank)
	hashes []uint64 // scratch space of findTwins
	done   int      // completed operations linearized
	cur    int32    // the entry to look at next
	inOpen bool     // whether cur is in the open list
	limit  int64    // in the open list: the time of the first return entry
	steps  int64    // loop iterations so far

	// The longest linearizable prefix: the most operations ever on the stack, and the
	// stack and first pending return when that depth was first left.
	best      int
	bestSaved bool
	prefix    []int32
	stuck     int32

	verdict Verdict // Unknown until the search ends
	witness []int32

	// Several start states (a segment after a quiescent cut, see split.go): the
	// search goes from each in turn, sharing the memo, since a configuration's future
	// does not depend on where it started. from is the start of the current search,
	// prefixFrom that of the saved prefix, witnessFrom that of the witness.
	starts                  []S
	initial                 [1]S // starts, when it is spec.Init() alone
	from                    int
	prefixFrom, witnessFrom int
	// enumerate: instead of ending at the first linearization, record the state each
	// one leads to (once per state, since the memo holds (all operations, state) once)
	// and go on; the search ends when every start is exhausted, Linearizable if some
	// end was found. Only for operations none of which is open.
	enumerate bool
	ends      []S     // the states reached
	endFrom   []int32 // by end: the start it came from
	endPaths  []int32 // by end: its linearization, len(ops) operations
	overflow  bool    // more than maxEnds ends: the search stopped (see split.go)
}

// newSearcher prepares the search of the operations ops[idx[0]], ops[idx[1]], …; the
// searcher's operation i is ops[idx[i]]. If reuse is not nil, it is a searcher that has
// ended, whose memory the new one takes over (the checks of a history with many small
// partitions then allocate little); reuse must not be used afterwards.
func newSearcher[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], idx []int, reuse *searcher[S, I, O]) *searcher[S, I, O] {
	return newSearcherFrom(spec, ops, idx, reuse, nil, false)
}

// newSearcherFrom is newSearcher starting from each of starts in turn (spec.Init()
// when starts is nil), recording every end state when enumerate is set (see searcher).
// starts is kept, not copied.
func newSearcherFrom[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], idx []int,
	reuse *searcher[S, I, O], starts []S, enumerate bool) *searcher[S, I, O] {
	n := len(idx)
	completed := 0
	for _, j := range idx {
		if !ops[j].Open {
			completed++
		}
	}
	s := reuse
	if s == nil {
		s = &searcher[S, I, O]{}
	}
	*s = searcher[S, I, O]{
		ops:       resize(s.ops, n),
		nodes:     resize(s.nodes, 2+n+completed), // the heads, a call per operation, a return per completed one
		completed: completed,
		memo:      s.memo,
		known:     s.known[:0],
		stack:     resize(s.stack, n)[:0],
		lists:     resize(s.lists, n+completed),
		ranks:     resize(s.ranks, n),
		hashes:    s.hashes,
		stuck:     none,
		starts:    starts,
		enumerate: enumerate,
		ends:      s.ends[:0],
		endFrom:   s.endFrom[:0],
		endPaths:  s.endPaths[:0],
	}
	for i, j := range idx {
		op := &ops[j]
		s.ops[i] = opInfo[I, O]{in: op.Input, twin: none, open: op.Open}
		if !op.Open {
			s.ops[i].out = op.Output
		}
	}
	watchApply(spec, &s.apply)
	s.buildLists(ops, idx)
	if s.starts == nil {
		s.initial[0] = spec.Init()
		s.starts = s.initial[:]
	}
	s.fewStates = plainValue(reflect.TypeFor[S]())
	s.memo.init(s.ranks)
	s.from = -1
	s.nextStart()
	if s.completed == 0 {
		s.verdict, s.witness = Linearizable, []int32{}
	}
	return s
}

// nextStart begins the search from the next start state whose configuration (nothing
// linearized, that state) is not explored yet, and reports false when none is left.
func (s *searcher[S, I, O]) nextStart() bool {
	for s.from+1 < len(s.starts) {
		s.from++
		st := s.starts[s.from]
		sh := s.hash(st)
		e, isNew := s.memo.addNew(st, sh)
		if !isNew {
			continue
		}
		s.state, s.sh, s.cfg = st, sh, e
		s.cur, s.inOpen = s.nodes[mainHead].next, false
		return true
	}
	return false
}

// maxEnds bounds the end states an enumerating search records; beyond, it stops with
// overflow set. Tests lower it.
var maxEnds = 256

// recordEnd records the current state, every operation linearized, as an end.
func (s *searcher[S, I, O]) recordEnd() {
	s.ends = append(s.ends, s.state)
	s.endFrom = append(s.endFrom, int32(s.from))
	for _, f := range s.stack {
		s.endPaths = append(s.endPaths, s.nodes[f.node].op)
	}
	if len(s.ends) > maxEnds {
		s.overflow = true
	}
}

// resize returns a slice of length n, buf's memory if it is large enough.
func resize[T any](buf []T, n int) []T {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]T, n)
}

// outcome is what a search that has ended leaves: its verdict, the steps it took, and the
// witness or the longest prefix and stuck operation, in the searcher's operations.
type outcome struct {
	verdict Verdict
	steps   int64
	witness []int32
	prefix  []int32
	stuck   int32
}

// outcome returns the outcome of a search that has ended; the searcher may then be
// reused.
func (s *searcher[S, I, O]) outcome() outcome {
	o := outcome{verdict: s.verdict, steps: s.steps, witness: s.witness, prefix: s.prefix, stuck: s.stuck}
	s.witness, s.prefix = nil, nil // they belong to the outcome now
	return o
}

// buildLists makes the entry lists. In the main list, at equal times calls come before
// returns, because an operation that returns at the instant another is called is
// concurrent with it (precedence is Return < Call); the open list is by call time. Ties
// keep the order of the operations, so the search is deterministic. It also finds the
// twins.
func (s *searcher[S, I, O]) buildLists(ops []histories.Operation[I, O], idx []int) {
	for _, h := range []int32{mainHead, openHead} {
		s.nodes[h] = node{next: none, prev: none, op: none, pair: none}
	}
	lists := s.lists
	mainList, openList := lists[:0:2*s.completed], lists[2*s.completed:2*s.completed]
	c := int32(2)
	for i, j := range idx {
		op := &ops[j]
		s.nodes[c] = node{op: int32(i), pair: none, time: op.Call, call: true}
		if op.Open {
			openList = append(openList, c)
			c++
			continue
		}
		r := c + 1
		s.nodes[r] = node{op: int32(i), pair: c, time: op.Return}
		s.nodes[c].pair = r
		mainList = append(mainList, c, r)
		c += 2
	}
	sortEntries(mainList, s.nodes)
	sortEntries(openList, s.nodes)
	s.chain(mainHead, mainList)
	s.chain(openHead, openList)
	// The calls in list order, completed operations first; the space of the main list's
	// returns is reused.
	calls := mainList[:0]
	for _, c := range mainList {
		if s.nodes[c].call {
			s.ranks[s.nodes[c].op] = int32(len(calls))
			calls = append(calls, c)
		}
	}
	for k, c := range openList {
		s.ranks[s.nodes[c].op] = -1 - int32(k)
	}
	s.findTwins(calls, openList)
}

// sortEntries sorts the nodes of list by time, calls before returns at equal times and
// then by node. Recorded histories come nearly in order, which the sort exploits.
func sortEntries(list []int32, nodes []node) {
	less := func(a, b int32) bool {
		na, nb := &nodes[a], &nodes[b]
		if na.time != nb.time {
			return na.time < nb.time
		}
		if na.call != nb.call {
			return na.call
		}
		return a < b
	}
	// Insertion sort, which is linear on nearly sorted input; if the input turns out
	// far from sorted, the library's sort takes over.
	moves, limit := 0, 8*len(list)+64
	for k := 1; k < len(list) && moves <= limit; k++ {
		n := list[k]
		j := k
		for ; j > 0 && less(n, list[j-1]); j-- {
			list[j] = list[j-1]
		}
		list[j] = n
		moves += k - j
	}
	if moves > limit {
		slices.SortFunc(list, func(a, b int32) int {
			if less(a, b) {
				return -1
			}
			if less(b, a) {
				return 1
			}
			return 0
		})
	}
}

// minTwins is the smallest partition in which twins are looked for: in a smaller one
// the search is over before the pruning pays for the looking.
const minTwins = 8

// findTwins sets the twins, given the calls of the completed operations and then those
// of the open ones, each in list order. Two operations with equal inputs, and for
// completed ones equal outputs, have the same effect wherever they are linearized. If a
// was called no later than b and returned no later (an open operation never returns),
// then in any linearization that puts b before a the two can trade places: a moves
// earlier, to b's place, which no operation that must precede a can follow (they
// precede b too, as a.Call ≤ b.Call), and b moves later, to a's place, which no
// operation that must follow b can precede (they follow a too, as a.Return ≤ b.Return).
// Each trade undoes an inversion of the list order, so repeated trades end with every
// such pair in order: the search may require a to be linearized before b. It requires
// it of the nearest such a before b in list order.
func (s *searcher[S, I, O]) findTwins(completedCalls, openCalls []int32) {
	if len(s.ops) < minTwins {
		return
	}
	// Only operations that overlap can be in either order, so the nearest twin is
	// looked for among a window of the latest calls, which bounds the work; a hash of
	// each operation's input and output keeps most comparisons to one word.
	const window = 32
	s.hashes = resize(s.hashes, len(s.ops))
	hashes := s.hashes
	for o := range s.ops {
		op := &s.ops[o]
		hashes[o] = maphash.Comparable(stateSeed, op.in)
		if !op.open {
			hashes[o] ^= mix64(maphash.Comparable(stateSeed, op.out))
		}
	}
	for _, calls := range [][]int32{completedCalls, openCalls} {
		for k, c := range calls {
			nb := &s.nodes[c]
			b := &s.ops[nb.op]
			for j := k - 1; j >= max(0, k-window); j-- {
				na := &s.nodes[calls[j]]
				if hashes[na.op] != hashes[nb.op] {
					continue
				}
				a := &s.ops[na.op]
				if a.in != b.in {
					continue
				}
				if b.open || (a.out == b.out && s.nodes[na.pair].time <= s.nodes[nb.pair].time) {
					b.twin = na.op
					break
				}
			}
		}
	}
}

// chain links head and then the nodes of list, in order.
func (s *searcher[S, I, O]) chain(head int32, list []int32) {
	p := head
	for _, n := range list {
		s.nodes[p].next = n
		s.nodes[n].prev = p
		p = n
	}
	s.nodes[p].next = none
}

// unlink takes node n out of its list, leaving n's own links untouched.
func (s *searcher[S, I, O]) unlink(n int32) {
	p, q := s.nodes[n].prev, s.nodes[n].next
	s.nodes[p].next = q
	if q != none {
		s.nodes[q].prev = p
	}
}

// relink undoes unlink(n); unlinks must be undone in the reverse order.
func (s *searcher[S, I, O]) relink(n int32) {
	p, q := s.nodes[n].prev, s.nodes[n].next
	s.nodes[p].next = n
	if q != none {
		s.nodes[q].prev = n
	}
}

// maxReused is the largest memo, in entries, that a searcher that has ended keeps for
// reuse.
const maxReused = 1 << 12

// maxKnown bounds the states named by number rather than hashed.
const maxKnown = 16

// hash gives the hash of st that the memo uses.
func (s *searcher[S, I, O]) hash(st S) uint64 {
	if s.fewStates {
		for i := range s.known {
			if s.known[i] == st {
				return uint64(i)
			}
		}
		if len(s.known) < maxKnown {
			if s.known == nil {
				s.known = make([]S, 0, maxKnown)
			}
			s.known = append(s.known, st)
			return uint64(len(s.known) - 1)
		}
	}
	return hashState(st)
}

// plainValue reports whether values of type t hold no pointers, strings, interfaces or
// other indirections, so that comparing two is a few machine instructions.
func plainValue(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return t.Len() <= 4 && plainValue(t.Elem())
	case reflect.Struct:
		if t.NumField() > 8 {
			return false
		}
		for i := range t.NumField() {
			if !plainValue(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// lift tries to linearize the operation whose call node is c: it must give its recorded
// output (any output, when open) and lead to an unexplored configuration.
func (s *searcher[S, I, O]) lift(c int32, limit int64) bool {
	nd := &s.nodes[c]
	op := &s.ops[nd.op]
	if op.twin != none && !s.ops[op.twin].lifted {
		return false
	}
	next, out := s.apply(s.state, op.in)
	nsh := s.sh
	if next == s.state {
		// An open operation that leaves the state as it is can always be left out
		// instead: it never has to return, so linearizing it gains nothing.
		if op.open || out != op.out {
			return false
		}
	} else {
		if !op.open && out != op.out {
			return false
		}
		nsh = s.hash(next)
	}
	s.memo.flip(nd.op)
	e, isNew := s.memo.addNew(next, nsh)
	if !isNew {
		s.memo.flip(nd.op)
		return false
	}
	s.stack = append(s.stack, frame{node: c, prev: s.cfg, limit: limit})
	s.cfg = e
	if len(s.stack) > s.best {
		s.best, s.bestSaved = len(s.stack), false
	}
	s.state, s.sh = next, nsh
	s.unlink(c)
	op.lifted = true
	if r := nd.pair; r != none {
		s.unlink(r)
		s.done++
	}
	return true
}

// run advances the search by at most budget steps (no limit if budget is negative),
// looking at stop every pollEvery steps. It returns true when the search has ended
// (verdict is set), false when the budget ran out or stop said to stop; run may then be
// called again to go on. The number of steps a search takes to end does not depend on
// how it was divided into runs.
func (s *searcher[S, I, O]) run(budget int64, stop func() bool) bool {
	if s.verdict != Unknown {
		return true
	}
	end := s.steps + budget
	if budget < 0 || end < s.steps {
		end = 1<<63 - 1
	}
	nodes := s.nodes
	for ; ; s.steps++ {
		if s.steps == end {
			return false
		}
		if s.steps&(pollEvery-1) == pollEvery-1 && stop != nil && stop() {
			return false
		}
		if !s.inOpen {
			c := s.cur
			if nodes[c].call {
				if s.lift(c, 0) {
					if s.done == s.completed {
						if !s.enumerate {
							s.finish(Linearizable)
							return true
						}
						// Record the end and go on as if nothing followed: the
						// backtracking below.
						s.recordEnd()
						s.inOpen, s.cur = true, none
						if s.overflow {
							s.steps++
							return false
						}
						continue
					}
					s.cur = nodes[mainHead].next
				} else {
					s.cur = nodes[c].next
				}
				continue
			}
			// The first return entry of an operation not yet linearized: every
			// completed candidate has been tried; now the open ones called by then.
			s.inOpen, s.limit, s.cur = true, nodes[c].time, nodes[openHead].next
			continue
		}
		if c := s.cur; c != none && nodes[c].time <= s.limit {
			if s.lift(c, s.limit) {
				s.inOpen, s.cur = false, nodes[mainHead].next
			} else {
				s.cur = nodes[c].next
			}
			continue
		}
		// No candidate is left here: undo the last linearization and try the candidate
		// after it.
		if !s.bestSaved && len(s.stack) == s.best {
			s.savePrefix()
		}
		if len(s.stack) == 0 {
			if s.nextStart() {
				continue
			}
			if len(s.ends) > 0 {
				s.finish(Linearizable)
			} else {
				s.finish(NotLinearizable)
			}
			return true
		}
		f := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		en := s.memo.entry(f.prev)
		s.state, s.sh, s.cfg = en.s, en.sh, f.prev
		nd := &nodes[f.node]
		if r := nd.pair; r != none {
			s.relink(r)
			s.done--
		}
		s.relink(f.node)
		op := &s.ops[nd.op]
		op.lifted = false
		s.memo.flip(nd.op)
		s.inOpen, s.limit, s.cur = op.open, f.limit, nd.next
	}
}

// savePrefix records the stack as the longest linearizable prefix, and the operation of
// the first return entry as the one that cannot follow it. The search saves it when it
// first gives up a configuration of the greatest depth so far: every candidate there
// failed, and that operation, which must come next or after other candidates, gave a
// wrong output (had it succeeded, or led to a configuration already explored, the
// search would have been deeper before).
func (s *searcher[S, I, O]) savePrefix() {
	s.bestSaved = true
	s.prefixFrom = s.from
	if s.prefix == nil {
		s.prefix = make([]int32, 0, len(s.ops))
	}
	s.prefix = s.prefix[:0]
	for _, f := range s.stack {
		s.prefix = append(s.prefix, s.nodes[f.node].op)
	}
	s.stuck = none
	for c := s.nodes[mainHead].next; c != none; c = s.nodes[c].next {
		if !s.nodes[c].call {
			s.stuck = s.nodes[c].op
			break
		}
	}
}

// finish ends the search with verdict v.
func (s *searcher[S, I, O]) finish(v Verdict) {
	s.verdict = v
	if v == Linearizable && !s.enumerate {
		s.witnessFrom = s.from
		s.witness = make([]int32, len(s.stack))
		for i, f := range s.stack {
			s.witness[i] = s.nodes[f.node].op
		}
		s.prefix, s.stuck = nil, none
	}
	// Large tables are not needed any more: let them go before the other partitions
	// end. Small ones are kept for reuse (see newSearcher).
	var zero S
	s.state = zero
	if v == Linearizable && s.enumerate {
		s.prefix, s.stuck = nil, none
	}
	if s.memo.count > maxReused {
		s.memo, s.stack, s.known = memo[S]{}, nil, nil
	}
}
