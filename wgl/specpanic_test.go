package wgl

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// panickyKV is specs.KV whose function named where panics on the key "boom" (Init: always).
func panickyKV(where string) specs.Spec[string, specs.KVInput, specs.KVOutput] {
	spec := specs.KV()
	apply, partition := spec.Apply, spec.Partition
	switch where {
	case "Init":
		spec.Init = func() string { panic("no initial state") }
	case "Apply":
		spec.Apply = func(s string, in specs.KVInput) (string, specs.KVOutput) {
			if in.Key == "boom" {
				var slots [2]int
				_ = slots[len(in.Key)] // index out of range: a runtime panic, not a call to panic
			}
			return apply(s, in)
		}
	case "Partition":
		spec.Partition = func(in specs.KVInput) string {
			if in.Key == "boom" {
				panic("bad key")
			}
			return partition(in)
		}
	}
	return spec
}

// kvHistory has n keys with a put and a get each, sequential, then a get of "boom" when
// boom is set.
func kvHistory(n int, boom bool) []histories.Operation[specs.KVInput, specs.KVOutput] {
	var ops []histories.Operation[specs.KVInput, specs.KVOutput]
	t := int64(0)
	for i := range n {
		k := "k" + strconv.Itoa(i)
		ops = append(ops, done(i%3, specs.Put(k, "v"), specs.KVOutput{}, t, t+1),
			done(i%3, specs.Get(k), specs.KVOutput{Value: "v"}, t+2, t+3))
		t += 4
	}
	if boom {
		ops = append(ops, done(0, specs.Get("boom"), specs.KVOutput{}, t, t+1))
	}
	return ops
}

// A specification that panics is a bug in it: the check says so, with where it
// panicked, and returns Unknown, on one partition, on several checked on one goroutine,
// and on several goroutines; the caller is never brought down.
func TestSpecificationPanicIsAnError(t *testing.T) {
	saved := parallelAbove
	defer func() { parallelAbove = saved }()
	for _, where := range []string{"Init", "Apply", "Partition"} {
		for _, tc := range []struct {
			name     string
			keys     int
			parallel bool
		}{{"one key", 0, false}, {"keys, one goroutine", 40, false}, {"keys, goroutines", 40, true}} {
			t.Run(where+"/"+tc.name, func(t *testing.T) {
				parallelAbove = saved
				if tc.parallel {
					parallelAbove = 1
				}
				res := Check(panickyKV(where), kvHistory(tc.keys, true))
				var p *SpecPanicError
				if !errors.As(res.Err, &p) {
					t.Fatalf("Err = %v, want a *SpecPanicError", res.Err)
				}
				if res.Verdict != Unknown || res.Stuck != -1 {
					t.Errorf("verdict %v, stuck %d, want Unknown and -1", res.Verdict, res.Stuck)
				}
				if p.Spec != "kv" || !strings.Contains(p.At, "specpanic_test.go:") || !strings.Contains(p.Error(), `specification "kv" panicked: `) {
					t.Errorf("error %q (at %q), want the specification's name and this file's line", p, p.At)
				}
				if where == "Apply" && !strings.Contains(p.Error(), "index out of range") {
					t.Errorf("error %q does not say what the panic was", p)
				}
			})
		}
	}
	// The same specifications check a history that never reaches the panic.
	for _, where := range []string{"Apply", "Partition"} {
		if res := Check(panickyKV(where), kvHistory(40, false)); res.Verdict != Linearizable {
			t.Errorf("%s: a history without the key boom: %v (%v), want Linearizable", where, res.Verdict, res.Err)
		}
	}
}
