package wgl

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// parallelAbove is the number of operations above which the partitions of a history are
// checked on several goroutines; below it starting goroutines costs more than it saves.
// Tests raise it to compare with the one-goroutine path.
var parallelAbove = 100

// Check reports whether ops is linearizable with respect to spec. It is CheckContext
// with a context that is never done, so its verdict is never Unknown unless the
// specification or the history is invalid, or the specification panics (Result.Err is
// then a *SpecPanicError).
func Check[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O]) Result {
	return CheckContext(context.Background(), spec, ops)
}

// CheckContext reports whether ops is linearizable with respect to spec: whether there is
// an order of the operations — each completed one, and any subset of the Open ones — that
// respects real time (A before B whenever A.Return < B.Call) and in which spec.Apply,
// from spec.Init(), gives every completed operation its recorded Output.
//
// The verdict is Unknown, with Result.Err set, when ctx is done before the check ends,
// when spec is invalid (specs.Spec.Validate), when a completed operation returns before
// it is called, when spec's Init, Apply or Partition panics (a *SpecPanicError: the
// panic does not reach the caller), when a state holds a value that cannot be hashed
// or compared (an *UncomparableStateError; an input or output that does is an error
// before the search), or when Apply changes the state it is given (a
// *SpecMutationError, looked for on its first calls when S holds pointers). The order of ops does not matter except to break
// ties, which keeps the result (witness included) deterministic. ops is not modified; spec.Apply
// may be called from several goroutines at once, which its purity allows.
func CheckContext[S, I, O comparable](
	ctx context.Context, spec specs.Spec[S, I, O], ops []histories.Operation[I, O],
) Result {
	return CheckLimited(ctx, spec, ops, 0)
}

// CheckLimited is CheckContext with a bound on the memory of the process: when the
// memory the Go runtime holds exceeds memLimit bytes, the check stops with the verdict
// Unknown and Result.Err ErrMemLimit, instead of going on until the system kills the
// process. memLimit 0 or negative means no bound. The bound is looked at about every
// 65,000 search steps, so the process may pass it by a little.
func CheckLimited[S, I, O comparable](
	ctx context.Context, spec specs.Spec[S, I, O], ops []histories.Operation[I, O], memLimit int64,
) (res Result) {
	// Only the specification's functions can panic here; a worker goroutine of the race
	// catches its own (race.work).
	defer func() {
		if v := recover(); v != nil {
			res = Result{Err: specPanic[S](spec.Name, v), Stuck: -1}
		}
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := spec.Validate(); err != nil {
		return Result{Err: fmt.Errorf("wgl: %w", err), Stuck: -1}
	}
	for i := range ops {
		if op := &ops[i]; !op.Open && op.Return < op.Call {
			return Result{Err: fmt.Errorf("wgl: operation %d (client %d) returns at %d, before its call at %d",
				i, op.Client, op.Return, op.Call), Stuck: -1}
		}
	}
	if err := comparableValues(ops); err != nil {
		return Result{Err: err, Stuck: -1}
	}
	if err := ctx.Err(); err != nil {
		return Result{Err: err, Stuck: -1}
	}
	var stop func() bool
	var mem *memWatch
	if memLimit > 0 {
		mem = newMemWatch(memLimit)
		if mem.over() {
			return Result{Err: ErrMemLimit, Stuck: -1}
		}
	}
	if done := ctx.Done(); done != nil || mem != nil {
		stop = func() bool {
			if mem != nil && mem.poll() {
				return true
			}
			select {
			case <-done:
				return true
			default:
				return false
			}
		}
	}
	// cause is why a search stopped without an answer.
	cause := func() error {
		if mem != nil && mem.exceeded.Load() {
			return ErrMemLimit
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		return context.Canceled // cannot happen: only ctx or the limit stop a search
	}
	parts := partition(spec, ops)
	if len(parts) == 1 {
		// One partition: nothing to race against.
		s := newSplitSearch(spec, ops, parts[0].idx, nil)
		if !s.run(-1, stop) {
			return Result{Err: cause(), Stuck: -1}
		}
		failed := -1
		if s.verdict == NotLinearizable {
			failed = 0
		}
		return resultOf(ops, parts, []outcome{s.outcome()}, failed)
	}
	r := &race[S, I, O]{spec: spec, ops: ops, parts: parts, stop: stop,
		searchers: make([]*splitSearch[S, I, O], len(parts)), outcomes: make([]outcome, len(parts))}
	workers := 1
	if len(parts) > 1 && len(ops) > parallelAbove {
		workers = min(runtime.GOMAXPROCS(0), len(parts))
	}
	r.run(workers)
	return r.result(cause)
}

// firstRound is the step budget of a partition's search in the first round; each round
// multiplies it by 4. Tests lower it to interleave small searches.
var firstRound int64 = 1 << 12

// part is the operations of one key, as indices into the history in history order.
type part struct {
	key string
	idx []int
}

// partition splits ops by spec.Partition, the parts sorted by key; without a Partition
// function there is one part with the key "".
func partition[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O]) []part {
	if spec.Partition == nil {
		idx := make([]int, len(ops))
		for i := range idx {
			idx[i] = i
		}
		return []part{{idx: idx}}
	}
	// Two passes, so that every part's indices are carved from one slice.
	byKey := make(map[string]int)
	of := make([]int, len(ops)) // the part of each operation
	var parts []part
	var sizes []int
	for i := range ops {
		k := spec.Partition(ops[i].Input)
		j, ok := byKey[k]
		if !ok {
			j = len(parts)
			byKey[k] = j
			parts = append(parts, part{key: k})
			sizes = append(sizes, 0)
		}
		of[i] = j
		sizes[j]++
	}
	all := make([]int, 0, len(ops))
	for j := range parts {
		parts[j].idx = all[len(all) : len(all) : len(all)+sizes[j]]
		all = all[:len(all)+sizes[j]]
	}
	for i, j := range of {
		parts[j].idx = append(parts[j].idx, i)
	}
	slices.SortFunc(parts, func(a, b part) int { return cmp.Compare(a.key, b.key) })
	return parts
}

// race searches the partitions of a history side by side, so that a partition that
// fails quickly ends the check quickly however long the others would take. Each
// partition's search goes in rounds: round r takes it up to firstRound·4^(r-1) steps in
// all, and a partition that fails is said to fail in the round in which it does. The
// report is the failure with the smallest (round, key order): which partitions fail in
// which round does not depend on timing, so neither does the report. To get there
// quickly, the next turn always goes to the partition with the smallest (next round,
// key order), and a partition stops as soon as it can no longer beat a failure already
// found. There is no barrier between rounds: a goroutine that finds nothing left of one
// round takes a turn of the next.
type race[S, I, O comparable] struct {
	spec      specs.Spec[S, I, O]
	ops       []histories.Operation[I, O]
	parts     []part
	stop      func() bool
	searchers []*splitSearch[S, I, O] // created on a partition's first turn, dropped at its end
	outcomes  []outcome               // of the searches that have ended

	mu      sync.Mutex
	wake    *sync.Cond
	rounds  []int   // by partition: the rounds it has completed
	waiting keyHeap // the roundKey of every partition that is neither running nor ended
	left    int     // partitions whose search has not ended
	running int     // goroutines running a turn
	stopped bool    // stop said to stop
	// panicked is the specification's panic in a worker, which ends the race.
	panicked atomic.Pointer[error]
	// best is the smallest (round, partition) of a failure so far, as round<<32 |
	// partition; noFailure when none.
	best atomic.Int64
}

const noFailure = 1<<63 - 1

// roundKey orders the turns and the failures: by round, then by key order.
func roundKey(round, part int) int64 { return int64(round)<<32 | int64(part) }

// roundBudget is the number of steps a partition's search may have taken by the end of
// round r (r ≥ 1).
func roundBudget(r int) int64 {
	if r > 20 {
		return noFailure
	}
	return firstRound << (2 * (r - 1))
}

// failRound is the round in which a search that ended after steps steps ended.
func failRound(steps int64) int {
	r := 1
	for roundBudget(r) <= steps {
		r++
	}
	return r
}

// run searches the partitions with the given number of goroutines until every search
// that could change the outcome has ended, or stop says to stop.
func (r *race[S, I, O]) run(workers int) {
	n := len(r.parts)
	r.best.Store(noFailure)
	r.rounds, r.left = make([]int, n), n
	r.waiting = make(keyHeap, n)
	for i := range n {
		r.waiting[i] = roundKey(1, i) // in key order: a heap already
	}
	r.wake = sync.NewCond(&r.mu)
	if workers == 1 {
		r.work()
		return
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(r.work)
	}
	wg.Wait()
}

// turn picks the next partition to run and the steps it may take, waiting while
// others run if nothing is free; it reports false when nothing is left to do.
func (r *race[S, I, O]) turn() (int, int64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		if len(r.waiting) > 0 && !r.stopped && r.waiting[0] < r.best.Load() {
			pick := int(r.waiting.pop() & (1<<32 - 1))
			r.running++
			budget := int64(-1) // the last search, with no failure to beat, needs no limit
			if r.left > 1 || r.best.Load() != noFailure {
				budget = roundBudget(r.rounds[pick] + 1)
				if s := r.searchers[pick]; s != nil {
					budget -= s.stepsSoFar()
				}
			}
			return pick, budget, true
		}
		if r.running == 0 {
			r.wake.Broadcast()
			return 0, 0, false
		}
		r.wake.Wait()
	}
}

// work runs turns until none is left.
func (r *race[S, I, O]) work() {
	defer func() {
		// A panic can only come from the specification, during a turn (running counts
		// it) and outside the lock.
		if v := recover(); v != nil {
			err := specPanic[S](r.spec.Name, v)
			r.panicked.CompareAndSwap(nil, &err)
			r.mu.Lock()
			r.running--
			r.stopped = true
			r.wake.Broadcast()
			r.mu.Unlock()
		}
	}()
	var spare *splitSearch[S, I, O] // one that has ended, for the next to reuse
	for {
		i, budget, ok := r.turn()
		if !ok {
			return
		}
		s := r.searchers[i]
		if s == nil {
			s, spare = newSplitSearch(r.spec, r.ops, r.parts[i].idx, spare), nil
			r.searchers[i] = s
		}
		key := roundKey(r.rounds[i]+1, i)
		ended := s.run(budget, func() bool {
			return key >= r.best.Load() || r.panicked.Load() != nil || (r.stop != nil && r.stop())
		})
		r.mu.Lock()
		r.running--
		switch {
		case ended:
			r.left--
			r.outcomes[i], r.searchers[i], spare = s.outcome(), nil, s
			if s.verdict == NotLinearizable {
				k := roundKey(failRound(s.steps), i)
				for {
					b := r.best.Load()
					if k >= b || r.best.CompareAndSwap(b, k) {
						break
					}
				}
			}
		case budget >= 0 && s.stepsSoFar() == roundBudget(r.rounds[i]+1):
			r.rounds[i]++ // the budget ran out: the round is complete
			r.waiting.push(roundKey(r.rounds[i]+1, i))
		case r.stop != nil && r.stop():
			r.stopped = true
		}
		// A search stopped because it could no longer beat a failure found meanwhile
		// is not put back: it never will.
		r.wake.Broadcast()
		r.mu.Unlock()
	}
}

// keyHeap is a min-heap of roundKeys.
type keyHeap []int64

func (h *keyHeap) push(k int64) {
	*h = append(*h, k)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p] <= a[i] {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *keyHeap) pop() int64 {
	a := *h
	top := a[0]
	a[0] = a[len(a)-1]
	a = a[:len(a)-1]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(a) && a[l] < a[m] {
			m = l
		}
		if l+1 < len(a) && a[l+1] < a[m] {
			m = l + 1
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}

// result turns the partitions' outcomes into the history's: not linearizable if some
// partition is, else unknown if some partition did not finish, else linearizable with
// the partitions' witnesses merged into one.
func (r *race[S, I, O]) result(cause func() error) Result {
	if p := r.panicked.Load(); p != nil {
		return Result{Err: *p, Stuck: -1}
	}
	failed := -1
	if b := r.best.Load(); b != noFailure {
		failed = int(b & (1<<32 - 1))
	} else {
		for _, o := range r.outcomes {
			if o.verdict != Linearizable {
				return Result{Err: cause(), Stuck: -1}
			}
		}
	}
	return resultOf(r.ops, r.parts, r.outcomes, failed)
}

// resultOf makes the Result of searches that have all ended linearizable (failed < 0)
// or of which outcomes[failed] is not linearizable.
func resultOf[I, O any](ops []histories.Operation[I, O], parts []part, outcomes []outcome, failed int) Result {
	if failed >= 0 {
		s, idx := &outcomes[failed], parts[failed].idx
		prefix := make([]int, len(s.prefix))
		for k, local := range s.prefix {
			prefix[k] = idx[local]
		}
		stuck := -1
		if s.stuck != none {
			stuck = idx[s.stuck]
		}
		return Result{Verdict: NotLinearizable, Partition: parts[failed].key, Prefix: prefix, Stuck: stuck}
	}
	return Result{Verdict: Linearizable, Witness: mergeWitnesses(ops, parts, outcomes), Stuck: -1}
}

// mergeWitnesses interleaves the parts' linearizations into one for the whole history.
//
// Each part's order gets linearization points in time: the k-th operation's point is the
// largest call time among the first k. A point lies inside its operation's interval — it
// is the call of an operation at or before it in the order, which cannot start after it
// returns since the order respects real time — and points do not decrease along the
// order. Sorting all operations by point (ties by part, then by position) keeps every
// part's order, and if A returns before B is called then point(A) ≤ A.Return < B.Call ≤
// point(B), so real-time order is kept across parts too (Herlihy and Wing's locality).
func mergeWitnesses[I, O any](ops []histories.Operation[I, O], parts []part, outcomes []outcome) []int {
	if len(parts) == 1 {
		w := make([]int, len(outcomes[0].witness))
		for k, local := range outcomes[0].witness {
			w[k] = parts[0].idx[local]
		}
		return w
	}
	// Each part's operations come in order of their points already: merge the parts,
	// taking at each turn the part whose next point is smallest (ties to the first
	// part), with a heap of the parts by their next point.
	points := make([][]int64, len(parts))
	total := 0
	for pi, o := range outcomes {
		points[pi] = make([]int64, len(o.witness))
		var point int64
		for k, local := range o.witness {
			if c := ops[parts[pi].idx[local]].Call; k == 0 || c > point {
				point = c
			}
			points[pi][k] = point
		}
		total += len(o.witness)
	}
	next := make([]int, len(parts)) // by part: the position of its next operation
	less := func(a, b int) bool {
		return points[a][next[a]] < points[b][next[b]] || (points[a][next[a]] == points[b][next[b]] && a < b)
	}
	var heap []int
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < len(heap) && less(heap[l], heap[m]) {
				m = l
			}
			if l+1 < len(heap) && less(heap[l+1], heap[m]) {
				m = l + 1
			}
			if m == i {
				return
			}
			heap[i], heap[m] = heap[m], heap[i]
			i = m
		}
	}
	for pi := range parts {
		if len(points[pi]) > 0 {
			heap = append(heap, pi)
		}
	}
	for i := len(heap)/2 - 1; i >= 0; i-- {
		down(i)
	}
	w := make([]int, 0, total)
	for len(heap) > 0 {
		pi := heap[0]
		w = append(w, parts[pi].idx[outcomes[pi].witness[next[pi]]])
		next[pi]++
		if next[pi] == len(points[pi]) {
			heap[0] = heap[len(heap)-1]
			heap = heap[:len(heap)-1]
		}
		down(0)
	}
	return w
}
