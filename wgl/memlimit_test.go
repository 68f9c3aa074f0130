package wgl

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/ravelmc/ravel/specs"
)

// sequentialWrites is n writes to a register, one after the other.
func sequentialWrites(n int) []regOp {
	ops := make([]regOp, n)
	for i := range ops {
		ops[i] = done(i%3, specs.Write(i%100), specs.WriteOK(), int64(2*i), int64(2*i+1))
	}
	return ops
}

// TestMemLimit: a check that would hold more memory than its limit ends Unknown with
// ErrMemLimit; without the limit the same check is Linearizable.
func TestMemLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a few hundred megabytes")
	}
	// An open write called first spans the whole history: no quiescent cut splits it,
	// so the memo holds every configuration.
	ops := append(sequentialWrites(300_000), pending[specs.RegisterInput, specs.RegisterOutput](3, specs.Write(7), -1))
	held := heldNow()
	res := CheckLimited(context.Background(), specs.Register(), ops, held+8<<20)
	if res.Verdict != Unknown || !errors.Is(res.Err, ErrMemLimit) {
		t.Errorf("with a limit %d MiB above what is held: %v, %v; want unknown, ErrMemLimit", 8, res.Verdict, res.Err)
	}
	if res := CheckLimited(context.Background(), specs.Register(), ops, 0); res.Verdict != Linearizable {
		t.Errorf("without a limit: %v, %v", res.Verdict, res.Err)
	}
}

// heldNow is the memory the Go runtime holds after a collection, as memWatch counts it.
func heldNow() int64 {
	runtime.GC()
	w := newMemWatch(1)
	w.over()
	return int64(w.samples[0].Value.Uint64() - w.samples[1].Value.Uint64() - w.samples[2].Value.Uint64())
}

// TestSplitMemory: split at its quiescent cuts, a long sequential history is checked
// within a limit of 16 MiB above what is held before, which the unsplit check of the
// same history passes.
func TestSplitMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a few hundred megabytes")
	}
	ops := sequentialWrites(300_000)
	held := heldNow()
	if res := CheckLimited(context.Background(), specs.Register(), ops, held+16<<20); res.Verdict != Linearizable {
		t.Errorf("split, with a limit 16 MiB above what is held: %v, %v; want linearizable", res.Verdict, res.Err)
	}
	withSplit(noSplit, maxEnds, func() {
		held := heldNow()
		res := CheckLimited(context.Background(), specs.Register(), ops, held+16<<20)
		if res.Verdict != Unknown || !errors.Is(res.Err, ErrMemLimit) {
			t.Errorf("unsplit, with a limit 16 MiB above what is held: %v, %v; want unknown, ErrMemLimit", res.Verdict, res.Err)
		}
	})
}
