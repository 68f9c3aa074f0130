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
// checked in parallel; below it starting goroutines costs more than it saves. Tests
// raise it to compare with the sequential path.
var parallelAbove = 100

// Check reports whether ops is linearizable with respect to spec. It is CheckContext
// with a context that is never done, so its verdict is never Unknown unless the
// specification or the history is invalid.
func Check[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O]) Result {
	return CheckContext(context.Background(), spec, ops)
}

// CheckContext reports whether ops is linearizable with respect to spec: whether there is
// an order of the operations — each completed one, and any subset of the Open ones — that
// respects real time (A before B whenever A.Return < B.Call) and in which spec.Apply,
// from spec.Init(), gives every completed operation its recorded Output.
//
// The verdict is Unknown, with Result.Err set, when ctx is done before the check ends,
// when spec is invalid (specs.Spec.Validate), or when a completed operation returns
// before it is called. The order of ops does not matter except to break ties, which
// keeps the result (witness included) deterministic. ops is not modified; spec.Apply
// may be called from several goroutines at once, which its purity allows.
func CheckContext[S, I, O comparable](
	ctx context.Context, spec specs.Spec[S, I, O], ops []histories.Operation[I, O],
) Result {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := spec.Validate(); err != nil {
		return Result{Err: fmt.Errorf("wgl: %w", err)}
	}
	for i := range ops {
		if op := &ops[i]; !op.Open && op.Return < op.Call {
			return Result{Err: fmt.Errorf("wgl: operation %d (client %d) returns at %d, before its call at %d",
				i, op.Client, op.Return, op.Call)}
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{Err: err}
	}
	parts := partition(spec, ops)
	results := make([]partResult, len(parts))
	if len(parts) > 1 && len(ops) > parallelAbove {
		checkParallel(ctx, spec, ops, parts, results)
	} else {
		for i, p := range parts {
			results[i] = checkOne(ctx, spec, ops, p, func() bool { return false })
			if results[i].verdict != Linearizable {
				break
			}
		}
	}
	return combine(ctx, ops, parts, results)
}

// part is the operations of one key, as indices into the history in history order.
type part struct {
	key string
	idx []int
}

// partResult is the outcome of one part; its witness is in indices into part.idx.
type partResult struct {
	verdict Verdict
	witness []int
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
	byKey := make(map[string]int)
	var parts []part
	for i := range ops {
		k := spec.Partition(ops[i].Input)
		j, ok := byKey[k]
		if !ok {
			j = len(parts)
			byKey[k] = j
			parts = append(parts, part{key: k})
		}
		parts[j].idx = append(parts[j].idx, i)
	}
	slices.SortFunc(parts, func(a, b part) int { return cmp.Compare(a.key, b.key) })
	return parts
}

// checkOne searches one part, stopping when ctx is done or stop says so.
func checkOne[S, I, O comparable](
	ctx context.Context, spec specs.Spec[S, I, O], ops []histories.Operation[I, O], p part, stop func() bool,
) partResult {
	done := ctx.Done()
	v, w := searchPartition(spec, ops, p.idx, func() bool {
		select {
		case <-done:
			return true
		default:
			return stop()
		}
	})
	return partResult{verdict: v, witness: w}
}

// checkParallel checks the parts with a few workers, handing them out in key order. Once
// part f is found not linearizable, parts after f no longer matter (the report names the
// smallest failing key), so they are skipped or stopped; parts before f always run to
// the end, which makes the reported part the same whatever the timing.
func checkParallel[S, I, O comparable](
	ctx context.Context, spec specs.Spec[S, I, O], ops []histories.Operation[I, O], parts []part, results []partResult,
) {
	workers := min(runtime.GOMAXPROCS(0), len(parts))
	var next atomic.Int64
	var firstFail atomic.Int64
	firstFail.Store(int64(len(parts)))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(parts) || int64(i) > firstFail.Load() {
					return
				}
				results[i] = checkOne(ctx, spec, ops, parts[i], func() bool { return int64(i) > firstFail.Load() })
				if results[i].verdict == NotLinearizable {
					for {
						f := firstFail.Load()
						if int64(i) >= f || firstFail.CompareAndSwap(f, int64(i)) {
							break
						}
					}
				}
			}
		}()
	}
	wg.Wait()
}

// combine turns the parts' outcomes into the history's: not linearizable if some part
// is not (the first in key order), else unknown if some part is unknown, else
// linearizable with the parts' witnesses merged into one.
func combine[I, O any](ctx context.Context, ops []histories.Operation[I, O], parts []part, results []partResult) Result {
	for i, r := range results {
		if r.verdict == NotLinearizable {
			return Result{Verdict: NotLinearizable, Partition: parts[i].key}
		}
	}
	for _, r := range results {
		if r.verdict != Linearizable {
			err := ctx.Err()
			if err == nil {
				err = context.Canceled // cannot happen: only ctx stops a search with no failure
			}
			return Result{Err: err}
		}
	}
	return Result{Verdict: Linearizable, Witness: mergeWitnesses(ops, parts, results)}
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
func mergeWitnesses[I, O any](ops []histories.Operation[I, O], parts []part, results []partResult) []int {
	if len(parts) == 1 {
		w := make([]int, len(results[0].witness))
		for k, local := range results[0].witness {
			w[k] = parts[0].idx[local]
		}
		return w
	}
	type placed struct {
		point    int64
		part, at int
		op       int
	}
	var all []placed
	for pi, r := range results {
		var point int64
		for k, local := range r.witness {
			op := parts[pi].idx[local]
			if k == 0 || ops[op].Call > point {
				point = ops[op].Call
			}
			all = append(all, placed{point: point, part: pi, at: k, op: op})
		}
	}
	slices.SortFunc(all, func(a, b placed) int {
		return cmp.Or(cmp.Compare(a.point, b.point), cmp.Compare(a.part, b.part), cmp.Compare(a.at, b.at))
	})
	w := make([]int, len(all))
	for k, p := range all {
		w[k] = p.op
	}
	return w
}
