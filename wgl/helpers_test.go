package wgl

import (
	"fmt"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// done is a completed operation.
func done[I, O any](client int, in I, out O, call, ret int64) histories.Operation[I, O] {
	return histories.Operation[I, O]{Client: client, Input: in, Output: out, Call: call, Return: ret}
}

// pending is an open operation called at call.
func pending[I, O any](client int, in I, call int64) histories.Operation[I, O] {
	return histories.Operation[I, O]{Client: client, Input: in, Call: call, Open: true}
}

// verifyWitness checks, independently of the search, that w is a linearization of ops:
// every completed operation exactly once, an open one at most once, no operation after
// one that precedes it in real time, and every recorded output reproduced by replaying w
// through spec (each partition from its own initial state).
func verifyWitness[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], w []int) error {
	seen := make([]bool, len(ops))
	for _, i := range w {
		if i < 0 || i >= len(ops) {
			return fmt.Errorf("witness index %d out of range", i)
		}
		if seen[i] {
			return fmt.Errorf("operation %d appears twice", i)
		}
		seen[i] = true
	}
	for i, op := range ops {
		if !op.Open && !seen[i] {
			return fmt.Errorf("completed operation %d is missing", i)
		}
	}
	for a := range w {
		for b := a + 1; b < len(w); b++ {
			if histories.Precedes(ops[w[b]], ops[w[a]]) {
				return fmt.Errorf("operation %d is placed after %d, which it precedes", w[b], w[a])
			}
		}
	}
	states := map[string]S{}
	for _, i := range w {
		key := ""
		if spec.Partition != nil {
			key = spec.Partition(ops[i].Input)
		}
		s, ok := states[key]
		if !ok {
			s = spec.Init()
		}
		next, out := spec.Apply(s, ops[i].Input)
		if !ops[i].Open && out != ops[i].Output {
			return fmt.Errorf("operation %d (%s) gives %s in the witness, recorded %s", i,
				spec.Input(ops[i].Input), spec.Output(ops[i].Input, out), spec.Output(ops[i].Input, ops[i].Output))
		}
		states[key] = next
	}
	return nil
}

// checkAndVerify runs Check and, when it says linearizable, verifies the witness.
func checkAndVerify[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O]) (Result, error) {
	res := Check(spec, ops)
	if res.Verdict == Linearizable {
		if err := verifyWitness(spec, ops, res.Witness); err != nil {
			return res, fmt.Errorf("bad witness %v: %w", res.Witness, err)
		}
	} else if res.Witness != nil {
		return res, fmt.Errorf("verdict %v with a witness %v", res.Verdict, res.Witness)
	}
	return res, nil
}
