package wgl

import (
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// CheckBruteForce decides linearizability by exhaustive enumeration. It exists as an
// oracle for testing Check and takes time exponential in the number of operations: use
// it only on histories of a dozen operations or so.
//
// It is written to be obviously correct rather than fast, and shares nothing with Check
// but the specification. For each partition (split by spec.Partition when set;
// linearizability is compositional) it builds orders one operation at a time, trying
// every operation not yet placed that no unplaced completed operation precedes in real
// time (histories.Precedes), replaying each through spec.Apply from spec.Init() and
// dropping an order as soon as a completed operation gets another output than recorded.
// An order succeeds once every completed operation is placed; the open operations are
// placed or not, as each order goes. An order's future depends only on which operations
// it has placed and the state it reached, so a pair (placed set, state) that failed once
// is not tried again — this keeps a dozen operations within reach without changing what
// is enumerated.
//
// The verdict is Unknown when spec is invalid, a completed operation returns before it
// is called, or a partition has more than 63 operations. Unlike Check, it lets a panic of
// spec.Apply escape: it is a test oracle.
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
		if len(group) > 63 {
			return Unknown
		}
		b := bruteForce[S, I, O]{spec: spec, ops: group, failed: map[bruteKey[S]]bool{}}
		for i, op := range group {
			if !op.Open {
				b.completed |= 1 << i
			}
		}
		if !b.extend(0, spec.Init()) {
			return NotLinearizable
		}
	}
	return Linearizable
}

// bruteKey is a partial order: the operations placed, and the state they lead to.
type bruteKey[S comparable] struct {
	placed uint64
	state  S
}

// bruteForce enumerates the orders of one partition.
type bruteForce[S, I, O comparable] struct {
	spec      specs.Spec[S, I, O]
	ops       []histories.Operation[I, O]
	completed uint64 // the completed operations, as a set
	failed    map[bruteKey[S]]bool
}

// extend reports whether the order that placed the operations in placed, reaching
// state, can be completed.
func (b *bruteForce[S, I, O]) extend(placed uint64, state S) bool {
	if placed&b.completed == b.completed {
		return true
	}
	key := bruteKey[S]{placed, state}
	if b.failed[key] {
		return false
	}
	for i, op := range b.ops {
		if placed&(1<<i) != 0 || !b.mayComeNext(placed, i) {
			continue
		}
		next, out := b.spec.Apply(state, op.Input)
		if !op.Open && out != op.Output {
			continue
		}
		if b.extend(placed|1<<i, next) {
			return true
		}
	}
	b.failed[key] = true
	return false
}

// mayComeNext reports whether no unplaced operation precedes ops[i] in real time.
func (b *bruteForce[S, I, O]) mayComeNext(placed uint64, i int) bool {
	for j := range b.ops {
		if j != i && placed&(1<<j) == 0 && histories.Precedes(b.ops[j], b.ops[i]) {
			return false
		}
	}
	return true
}
