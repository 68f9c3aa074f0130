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
	ops := sequentialWrites(300_000)
	runtime.GC()
	w := newMemWatch(1)
	w.over()
	held := int64(w.samples[0].Value.Uint64() - w.samples[1].Value.Uint64() - w.samples[2].Value.Uint64())
	res := CheckLimited(context.Background(), specs.Register(), ops, held+8<<20)
	if res.Verdict != Unknown || !errors.Is(res.Err, ErrMemLimit) {
		t.Errorf("with a limit %d MiB above what is held: %v, %v; want unknown, ErrMemLimit", 8, res.Verdict, res.Err)
	}
	if res := CheckLimited(context.Background(), specs.Register(), ops, 0); res.Verdict != Linearizable {
		t.Errorf("without a limit: %v, %v", res.Verdict, res.Err)
	}
}
