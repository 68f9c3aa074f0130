package wgl

import (
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// CheckBruteForce decides linearizability by exhaustive enumeration. It exists as an
// oracle for testing Check and takes time exponential in the number of operations: use
// it only on histories of a handful of operations.
//
// It is written to be obviously correct rather than fast. For each partition (split by
// spec.Partition when set; linearizability is compositional), for each subset of the
// open operations, it tries every order of the completed operations plus that subset in
// which no operation comes after one that precedes it in real time (histories.Precedes),
// replays the order through spec.Apply from spec.Init(), and accepts if every completed
// operation gets its recorded output. There is no memoization and no pruning beyond
// stopping a replay at its first wrong output.
//
// The verdict is Unknown when spec is invalid or a completed operation returns before it
// is called, as for Check.
func CheckBruteForce[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O]) Verdict {
	if spec.Validate() != nil {
		return Unknown
	}
	for _, op := range ops {
		if !op.Open && op.Return < op.Call {
			return Unknown
		}
	}
	groups := map[string][]histories.Operation[I, O]{}
	for _, op := range ops {
		key := ""
		if spec.Partition != nil {
			key = spec.Partition(op.Input)
		}
		groups[key] = append(groups[key], op)
	}
	for _, group := range groups {
		if !bruteForceGroup(spec, group) {
			return NotLinearizable
		}
	}
	return Linearizable
}

// bruteForceGroup tries every subset of the open operations of group.
func bruteForceGroup[S, I, O comparable](spec specs.Spec[S, I, O], group []histories.Operation[I, O]) bool {
	var open []int
	for i, op := range group {
		if op.Open {
			open = append(open, i)
		}
	}
	for subset := 0; subset < 1<<len(open); subset++ {
		var included []histories.Operation[I, O]
		for _, op := range group {
			if !op.Open {
				included = append(included, op)
			}
		}
		for k, i := range open {
			if subset&(1<<k) != 0 {
				included = append(included, group[i])
			}
		}
		if bruteForceOrder(spec, included, make([]bool, len(included)), spec.Init(), 0) {
			return true
		}
	}
	return false
}

// bruteForceOrder extends a partial order (the operations marked placed, applied to
// reach state) with every operation that may come next, depth first.
func bruteForceOrder[S, I, O comparable](
	spec specs.Spec[S, I, O], ops []histories.Operation[I, O], placed []bool, state S, n int,
) bool {
	if n == len(ops) {
		return true
	}
	for i := range ops {
		if placed[i] || !mayComeNext(ops, placed, i) {
			continue
		}
		next, out := spec.Apply(state, ops[i].Input)
		if !ops[i].Open && out != ops[i].Output {
			continue
		}
		placed[i] = true
		ok := bruteForceOrder(spec, ops, placed, next, n+1)
		placed[i] = false
		if ok {
			return true
		}
	}
	return false
}

// mayComeNext reports whether no unplaced operation precedes ops[i] in real time.
func mayComeNext[I, O any](ops []histories.Operation[I, O], placed []bool, i int) bool {
	for j := range ops {
		if j != i && !placed[j] && histories.Precedes(ops[j], ops[i]) {
			return false
		}
	}
	return true
}
