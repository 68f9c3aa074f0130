package main

import (
	"hash/maphash"
	"slices"

	"github.com/anishathalye/porcupine"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// The porcupine side of the comparison: models written against porcupine's documented
// Model API (Init, Step, Equal by ==, Hash, Partition), as a porcupine user would write
// them for the best speed — plain comparable states, a Hash function, and partitioning
// by key for the key-value store. Both checkers get the same parsed histories; an
// operation of unknown outcome (Open) is given to porcupine the way its documentation
// and tests do it: returning at the end of the history with an output marked unknown,
// which the model accepts whatever the state. Such an operation may then take effect
// anywhere after its call, or at the very end — which is as good as never.

// absent is the compare-and-set register's state before the first write. The etcd logs
// write only small non-negative integers.
const absent = -1 << 62

// casOutput is a compare-and-set output for porcupine, or unknown.
type casOutput struct {
	out     specs.CASOutput
	unknown bool
}

// casModel is the etcd register: read, write and compare-and-set, absent at first.
var casModel = porcupine.Model{
	Init: func() any { return absent },
	Step: func(state, input, output any) (bool, any) {
		st := state.(int)
		in := input.(specs.CASInput)
		out := output.(casOutput)
		switch in.Op {
		case specs.CASWrite:
			return true, in.A
		case specs.CASSwap:
			swapped := st != absent && st == in.A
			next := st
			if swapped {
				next = in.B
			}
			return out.unknown || out.out.OK == swapped, next
		default:
			if out.unknown {
				return true, st
			}
			if st == absent {
				return out.out.Absent, st
			}
			return !out.out.Absent && out.out.Value == st, st
		}
	},
	Hash: func(state any) uint64 { return uint64(state.(int)) },
}

// kvInput and kvOutput are the key-value store's, for porcupine.
type kvOutput struct {
	value   string
	unknown bool
}

var seed = maphash.MakeSeed()

// kvModel is the key-value store, one key's value per partition.
var kvModel = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		for _, op := range history {
			k := op.Input.(specs.KVInput).Key
			byKey[k] = append(byKey[k], op)
		}
		keys := make([]string, 0, len(byKey))
		for k := range byKey {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([][]porcupine.Operation, len(keys))
		for i, k := range keys {
			parts[i] = byKey[k]
		}
		return parts
	},
	Init: func() any { return "" },
	Step: func(state, input, output any) (bool, any) {
		st := state.(string)
		in := input.(specs.KVInput)
		out := output.(kvOutput)
		switch in.Op {
		case specs.KVPut:
			return true, in.Value
		case specs.KVAppend:
			return true, st + in.Value
		default:
			return out.unknown || out.value == st, st
		}
	},
	Hash: func(state any) uint64 { return maphash.String(seed, state.(string)) },
}

// casForPorcupine converts a compare-and-set history.
func casForPorcupine(ops []histories.Operation[specs.CASInput, specs.CASOutput]) []porcupine.Operation {
	end := endOf(ops)
	out := make([]porcupine.Operation, len(ops))
	for i, op := range ops {
		o := casOutput{out: op.Output}
		ret := op.Return
		if op.Open {
			o, ret = casOutput{unknown: true}, end
		}
		out[i] = porcupine.Operation{ClientId: op.Client, Input: op.Input, Call: op.Call, Output: o, Return: ret}
	}
	return out
}

// kvForPorcupine converts a key-value history.
func kvForPorcupine(ops []histories.Operation[specs.KVInput, specs.KVOutput]) []porcupine.Operation {
	end := endOf(ops)
	out := make([]porcupine.Operation, len(ops))
	for i, op := range ops {
		o := kvOutput{value: op.Output.Value}
		ret := op.Return
		if op.Open {
			o, ret = kvOutput{unknown: true}, end
		}
		out[i] = porcupine.Operation{ClientId: op.Client, Input: op.Input, Call: op.Call, Output: o, Return: ret}
	}
	return out
}

// endOf is a time after every call and return of ops.
func endOf[I, O any](ops []histories.Operation[I, O]) int64 {
	var end int64
	for _, op := range ops {
		end = max(end, op.Call+1)
		if !op.Open {
			end = max(end, op.Return+1)
		}
	}
	return end
}
