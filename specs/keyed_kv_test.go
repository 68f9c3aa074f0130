package specs_test

import (
	"encoding/json"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// mapOfMaps is the oracle's specification of Keyed(KV()): one state, a map from (key,
// KV key) to value as sorted JSON, and no partition at all.
func mapOfMaps() specs.Spec[string, specs.KeyedInput[specs.KVInput], specs.KVOutput] {
	return specs.Spec[string, specs.KeyedInput[specs.KVInput], specs.KVOutput]{
		Name: "map-of-maps",
		Init: func() string { return "{}" },
		Apply: func(s string, in specs.KeyedInput[specs.KVInput]) (string, specs.KVOutput) {
			m := map[string]string{}
			if err := json.Unmarshal([]byte(s), &m); err != nil {
				panic(err)
			}
			k := in.Key + "\x00" + in.In.Key
			switch in.In.Op {
			case specs.KVGet:
				return s, specs.KVOutput{Value: m[k]}
			case specs.KVPut:
				m[k] = in.In.Value
			case specs.KVAppend:
				m[k] += in.In.Value
			}
			b, err := json.Marshal(m) // encoding/json sorts map keys
			if err != nil {
				panic(err)
			}
			return string(b), specs.KVOutput{}
		},
	}
}

// TestKeyedOfPartitionedSpec: Keyed(KV()), a map of maps, gives the verdicts of one map
// keyed by both keys with no partition, on random histories checked by brute force.
// Before Keyed composed the partitions, every KV key of one key shared one value, and a
// Get of one saw a Put of another (API probe, C5).
func TestKeyedOfPartitionedSpec(t *testing.T) {
	keyed := specs.Keyed(specs.KV())
	r := rand.New(rand.NewPCG(5, 0x6b6b))
	verdicts := map[wgl.Verdict]int{}
	for i := range 300 {
		ops := randomKeyedKV(r)
		got := wgl.Check(keyed, ops).Verdict
		want := wgl.CheckBruteForce(mapOfMaps(), ops)
		if got != want {
			t.Fatalf("history %d: Keyed(KV()) says %v, the map of maps %v:\n%+v", i, got, want, ops)
		}
		verdicts[got]++
	}
	if verdicts[wgl.Linearizable] < 30 || verdicts[wgl.NotLinearizable] < 30 {
		t.Errorf("verdicts %v: want at least 30 of each", verdicts)
	}
}

// randomKeyedKV returns a history of 3 clients with 2 operations each on keys x, y and
// "x.a", and KV keys a, b, "" and "a." (key "x.a"'s "" and key x's "a." would share a
// partition joined by a bare dot): the outputs of a random order within the operations' intervals, one Get's
// changed now and then, so that both verdicts come up.
func randomKeyedKV(r *rand.Rand) []histories.Operation[specs.KeyedInput[specs.KVInput], specs.KVOutput] {
	type op = histories.Operation[specs.KeyedInput[specs.KVInput], specs.KVOutput]
	var ops []op
	var points []int64
	for c := range 3 {
		t := int64(r.IntN(3))
		for range 2 {
			key := []string{"x", "y", "x.a"}[r.IntN(3)]
			inner := []string{"a", "b", "", "a."}[r.IntN(4)]
			v := []string{"1", "2"}[r.IntN(2)]
			in := []specs.KVInput{specs.Get(inner), specs.Put(inner, v), specs.Append(inner, v)}[r.IntN(3)]
			call := t
			ret := call + 1 + int64(r.IntN(4))
			ops = append(ops, op{Client: c, Input: specs.KeyedInput[specs.KVInput]{Key: key, In: in}, Call: call * 10, Return: ret * 10})
			points = append(points, call*10+1+int64(r.IntN(int(ret-call)*10-1)))
			t = ret + int64(r.IntN(2))
		}
	}
	order := make([]int, len(ops))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return points[order[a]] < points[order[b]] })
	spec := mapOfMaps()
	s := spec.Init()
	for _, i := range order {
		s, ops[i].Output = spec.Apply(s, ops[i].Input)
	}
	if r.IntN(2) == 0 {
		for i := range ops {
			if ops[i].Input.In.Op == specs.KVGet {
				ops[i].Output.Value += "2"
				break
			}
		}
	}
	return ops
}
