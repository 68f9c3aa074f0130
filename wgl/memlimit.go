package wgl

import (
	"errors"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// ErrMemLimit is Result.Err when CheckLimited stopped at its memory bound.
var ErrMemLimit = errors.New("wgl: the check needs more memory than its limit")

// memPollSteps is about how many search steps pass between looks at the memory: a look
// reads the runtime's figures, a microsecond or so.
const memPollSteps = 64 * pollEvery

// memWatch compares the memory the Go runtime holds — heap, stacks and its own
// structures, less what it has returned to the system — with a bound.
type memWatch struct {
	limit    int64
	polls    atomic.Int64
	exceeded atomic.Bool
	mu       sync.Mutex
	samples  []metrics.Sample
}

func newMemWatch(limit int64) *memWatch {
	return &memWatch{limit: limit, samples: []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}}
}

// poll is called every pollEvery steps of a search; it looks at the memory every
// memPollSteps, and reports whether the bound was passed.
func (w *memWatch) poll() bool {
	if w.exceeded.Load() {
		return true
	}
	if w.polls.Add(1)%(memPollSteps/pollEvery) != 0 {
		return false
	}
	return w.over()
}

// over reads the runtime's figures and reports whether the bound is passed. Free heap
// pages, kept for reuse, do not count: the runtime returns them when memory is short.
func (w *memWatch) over() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	metrics.Read(w.samples)
	held := int64(w.samples[0].Value.Uint64()) - int64(w.samples[1].Value.Uint64()) - int64(w.samples[2].Value.Uint64())
	if held > w.limit {
		w.exceeded.Store(true)
	}
	return w.exceeded.Load()
}
