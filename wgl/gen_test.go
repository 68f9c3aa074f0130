package wgl

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// gen makes random operations for one specification.
type gen[S, I, O comparable] struct {
	spec   specs.Spec[S, I, O]
	input  func(r *rand.Rand) I
	output func(r *rand.Rand, in I) O // an arbitrary plausible output
}

func registerGen() gen[int, specs.RegisterInput, specs.RegisterOutput] {
	return gen[int, specs.RegisterInput, specs.RegisterOutput]{
		spec: specs.Register(),
		input: func(r *rand.Rand) specs.RegisterInput {
			if r.IntN(2) == 0 {
				return specs.Read()
			}
			return specs.Write(1 + r.IntN(3))
		},
		output: func(r *rand.Rand, in specs.RegisterInput) specs.RegisterOutput {
			if in.Write {
				return specs.WriteOK()
			}
			return specs.ReadOK(r.IntN(4))
		},
	}
}

func casGen() gen[specs.CASState, specs.CASInput, specs.CASOutput] {
	return gen[specs.CASState, specs.CASInput, specs.CASOutput]{
		spec: specs.CASRegister(),
		input: func(r *rand.Rand) specs.CASInput {
			return specs.CASInput{Op: specs.CASOp(r.IntN(3)), A: r.IntN(3), B: r.IntN(3)}
		},
		output: func(r *rand.Rand, in specs.CASInput) specs.CASOutput {
			switch {
			case in.Op == specs.CASRead && r.IntN(4) == 0:
				return specs.CASOutput{OK: true, Absent: true}
			case in.Op == specs.CASRead:
				return specs.CASOutput{OK: true, Value: r.IntN(3)}
			case in.Op == specs.CASSwap:
				return specs.CASOutput{OK: r.IntN(2) == 0}
			default:
				return specs.CASOutput{OK: true}
			}
		},
	}
}

// kvGen draws operations on two keys.
func kvGen() gen[string, specs.KVInput, specs.KVOutput] { return kvGenKeys(2) }

// kvGenKeys draws operations on keys "a", "b", … (nkeys of them).
func kvGenKeys(nkeys int) gen[string, specs.KVInput, specs.KVOutput] {
	values := []string{"x", "y"}
	keys := make([]string, nkeys)
	for i := range keys {
		keys[i] = string(rune('a' + i))
	}
	reads := []string{"", "x", "y", "xy", "yx", "xx"}
	return gen[string, specs.KVInput, specs.KVOutput]{
		spec: specs.KV(),
		input: func(r *rand.Rand) specs.KVInput {
			k, v := keys[r.IntN(len(keys))], values[r.IntN(2)]
			switch r.IntN(3) {
			case 0:
				return specs.Get(k)
			case 1:
				return specs.Put(k, v)
			default:
				return specs.Append(k, v)
			}
		},
		output: func(r *rand.Rand, in specs.KVInput) specs.KVOutput {
			if in.Op != specs.KVGet {
				return specs.KVOutput{}
			}
			return specs.KVOutput{Value: reads[r.IntN(len(reads))]}
		},
	}
}

// The ways outputs are chosen.
const (
	outSequential = iota // from a sequential execution: linearizable by construction
	outMutated           // the same, then one completed operation's output redrawn
	outRandom            // every output drawn at random
	outModes
)

// history makes a random history of n operations: calls in [0, 2n), durations in
// [0, maxDur], about a fifth of the operations open, outputs chosen by mode. Open operations
// get random outputs and return times, which the checkers must ignore.
func (g gen[S, I, O]) history(r *rand.Rand, n, maxDur, mode int) []histories.Operation[I, O] {
	return g.historyOpen(r, n, maxDur, mode, 5)
}

// historyOpen is history with about one operation in openOneIn open (none if 0).
func (g gen[S, I, O]) historyOpen(r *rand.Rand, n, maxDur, mode, openOneIn int) []histories.Operation[I, O] {
	ops := make([]histories.Operation[I, O], n)
	for i := range ops {
		call := int64(r.IntN(2 * n))
		in := g.input(r)
		ops[i] = histories.Operation[I, O]{
			Client: i, Input: in, Output: g.output(r, in),
			Call: call, Return: call + int64(r.IntN(maxDur+1)), Open: openOneIn > 0 && r.IntN(openOneIn) == 0,
		}
	}
	if mode == outRandom {
		return ops
	}
	// A sequential execution: every completed operation, and about half the open ones,
	// take effect at a random point of their interval (an open one's interval never
	// ends), in the order of the points; that order respects real time.
	type point struct {
		at, tie int64
		op      int
	}
	var points []point
	for i, op := range ops {
		switch {
		case !op.Open:
			points = append(points, point{op.Call + r.Int64N(op.Return-op.Call+1), r.Int64(), i})
		case r.IntN(2) == 0:
			points = append(points, point{op.Call + r.Int64N(int64(maxDur)+1), r.Int64(), i})
		}
	}
	slices.SortFunc(points, func(a, b point) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.tie, b.tie)) })
	states := map[string]S{}
	for _, p := range points {
		key := ""
		if g.spec.Partition != nil {
			key = g.spec.Partition(ops[p.op].Input)
		}
		s, ok := states[key]
		if !ok {
			s = g.spec.Init()
		}
		states[key], ops[p.op].Output = g.spec.Apply(s, ops[p.op].Input)
	}
	if mode == outMutated {
		var completed []int
		for i, op := range ops {
			if !op.Open {
				completed = append(completed, i)
			}
		}
		if len(completed) > 0 {
			i := completed[r.IntN(len(completed))]
			ops[i].Output = g.output(r, ops[i].Input)
		}
	}
	return ops
}

// describe renders a history for failure messages.
func describe[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O]) string {
	var b strings.Builder
	for i, op := range ops {
		if op.Open {
			fmt.Fprintf(&b, "\n  %d: client %d %s open from %d", i, op.Client, spec.Input(op.Input), op.Call)
			continue
		}
		fmt.Fprintf(&b, "\n  %d: client %d %s -> %s [%d, %d]", i, op.Client, spec.Input(op.Input),
			spec.Output(op.Input, op.Output), op.Call, op.Return)
	}
	return b.String()
}

// wholeKVKeys bounds the keys wholeKV can hold.
const wholeKVKeys = 16

// wholeKV is specs.KV without partitioning: its state holds every key of ops, so the
// search interleaves all keys. It must give the same verdicts as specs.KV, which tests
// the partitioning. Keys beyond wholeKVKeys share the last slot (tests keep fewer).
func wholeKV(ops []histories.Operation[specs.KVInput, specs.KVOutput]) specs.Spec[[wholeKVKeys]string, specs.KVInput, specs.KVOutput] {
	slot := map[string]int{}
	for _, op := range ops {
		if _, ok := slot[op.Input.Key]; !ok {
			slot[op.Input.Key] = min(len(slot), wholeKVKeys-1)
		}
	}
	kv := specs.KV()
	return specs.Spec[[wholeKVKeys]string, specs.KVInput, specs.KVOutput]{
		Name: "kv-whole",
		Init: func() [wholeKVKeys]string { return [wholeKVKeys]string{} },
		Apply: func(s [wholeKVKeys]string, in specs.KVInput) ([wholeKVKeys]string, specs.KVOutput) {
			i := slot[in.Key]
			var out specs.KVOutput
			s[i], out = kv.Apply(s[i], in)
			return s, out
		},
		DescribeInput: kv.DescribeInput,
	}
}
