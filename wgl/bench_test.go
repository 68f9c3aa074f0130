package wgl

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// register10 is a linearizable 10-operation history of three clients on a register,
// with overlapping writes and reads.
func register10() []regOp {
	w, r, ok, read := specs.Write, specs.Read(), specs.WriteOK(), specs.ReadOK
	return []regOp{
		done(0, w(1), ok, 0, 4), done(1, r, read(0), 1, 2), done(2, w(2), ok, 1, 6),
		done(1, r, read(2), 3, 5), done(0, r, read(1), 5, 8), done(1, w(3), ok, 6, 9),
		done(2, r, read(1), 7, 10), done(0, r, read(3), 9, 12), done(1, r, read(3), 10, 11),
		done(2, w(1), ok, 11, 13),
	}
}

// BenchmarkRegister10 checks a linearizable 10-operation history of three clients on a
// register, with overlapping writes and reads.
func BenchmarkRegister10(b *testing.B) {
	ops := register10()
	if v := Check(specs.Register(), ops).Verdict; v != Linearizable {
		b.Fatalf("Check = %v, want %v", v, Linearizable)
	}
	for b.Loop() {
		Check(specs.Register(), ops)
	}
}

// BenchmarkRegister10Erased is BenchmarkRegister10 as the explorer checks a history:
// with the erased specification, over interface values.
func BenchmarkRegister10Erased(b *testing.B) {
	typed := register10()
	ops := make([]histories.Operation[any, any], len(typed))
	for i, op := range typed {
		ops[i] = histories.Operation[any, any]{Client: op.Client, Input: op.Input, Output: op.Output, Call: op.Call, Return: op.Return, Open: op.Open}
	}
	spec := specs.Erase(specs.Register()).Spec
	if v := Check(spec, ops).Verdict; v != Linearizable {
		b.Fatalf("Check = %v, want %v", v, Linearizable)
	}
	for b.Loop() {
		Check(spec, ops)
	}
}

// BenchmarkCASRandom40 checks a random linearizable 40-operation history of a
// compare-and-set register, about a fifth of its operations open.
func BenchmarkCASRandom40(b *testing.B) {
	g := casGen()
	ops := g.history(rand.New(rand.NewPCG(40, 0)), 40, 10, outSequential)
	if v := Check(g.spec, ops).Verdict; v != Linearizable {
		b.Fatalf("Check = %v, want %v", v, Linearizable)
	}
	for b.Loop() {
		Check(g.spec, ops)
	}
}

// BenchmarkPorcupine checks porcupine's histories: each Jepsen etcd log on its own (as
// sub-benchmarks of the ones that take the longest, and all 102 in one), and each
// key-value log.
func BenchmarkPorcupine(b *testing.B) {
	list := expectedVerdicts(b)
	var etcd [][]histories.Operation[specs.CASInput, specs.CASOutput]
	for _, e := range list {
		if strings.HasPrefix(e[0], "jepsen/") {
			etcd = append(etcd, readHistory(b, e[0], formats.ReadJepsen))
		}
	}
	spec := specs.CASRegister()
	b.Run("etcd-all", func(b *testing.B) {
		for b.Loop() {
			for _, ops := range etcd {
				Check(spec, ops)
			}
		}
	})
	for _, rel := range []string{"jepsen/etcd_002.log", "jepsen/etcd_007.log", "jepsen/etcd_080.log", "jepsen/etcd_092.log", "jepsen/etcd_099.log"} {
		ops := readHistory(b, rel, formats.ReadJepsen)
		b.Run(strings.TrimSuffix(strings.TrimPrefix(rel, "jepsen/"), ".log"), func(b *testing.B) {
			for b.Loop() {
				Check(spec, ops)
			}
		})
	}
	for _, e := range list {
		if !strings.HasPrefix(e[0], "kv/") {
			continue
		}
		ops := readPorcupineKV(b, e[0])
		b.Run(strings.TrimSuffix(strings.TrimPrefix(e[0], "kv/"), ".txt"), func(b *testing.B) {
			for b.Loop() {
				Check(specs.KV(), ops)
			}
		})
	}
}
