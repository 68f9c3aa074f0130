package wgl

import (
	"math/rand/v2"
	"testing"

	"github.com/ravelmc/ravel/specs"
)

// BenchmarkRegister10 checks a linearizable 10-operation history of three clients on a
// register, with overlapping writes and reads.
func BenchmarkRegister10(b *testing.B) {
	w, r, ok, read := specs.Write, specs.Read(), specs.WriteOK(), specs.ReadOK
	ops := []regOp{
		done(0, w(1), ok, 0, 4), done(1, r, read(0), 1, 2), done(2, w(2), ok, 1, 6),
		done(1, r, read(2), 3, 5), done(0, r, read(1), 5, 8), done(1, w(3), ok, 6, 9),
		done(2, r, read(1), 7, 10), done(0, r, read(3), 9, 12), done(1, r, read(3), 10, 11),
		done(2, w(1), ok, 11, 13),
	}
	if v := Check(specs.Register(), ops).Verdict; v != Linearizable {
		b.Fatalf("Check = %v, want %v", v, Linearizable)
	}
	for b.Loop() {
		Check(specs.Register(), ops)
	}
}

// BenchmarkPorcupineC10OK checks porcupine's kv/c10-ok.txt: 337 operations of ten
// clients on ten keys, partitioned (and so checked in parallel).
func BenchmarkPorcupineC10OK(b *testing.B) {
	ops := readPorcupineKV(b, "kv/c10-ok.txt")
	for b.Loop() {
		Check(specs.KV(), ops)
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
