package ravelcli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/internal/procmem"
)

// memoryJSON is the process's memory during a run (Linux only; omitted elsewhere): the
// anonymous part says whether the run fits its budget, the file-backed part (badger's
// mapped tables) is page cache the kernel reclaims under pressure.
type memoryJSON struct {
	PeakAnonBytes int64   `json:"peak_rss_anon_bytes"`
	PeakFileBytes int64   `json:"peak_rss_file_bytes"`
	PeakRSSBytes  int64   `json:"peak_rss_bytes"`
	SampledEvery  float64 `json:"sampled_every_seconds"`
	How           string  `json:"how"`
}

const memoryHow = "RssAnon and RssFile from /proc/self/status, sampled; peak_rss_bytes is the kernel's VmHWM (anon + file)"

func newMemoryJSON(p procmem.Peak, ok bool) *memoryJSON {
	if !ok {
		return nil
	}
	return &memoryJSON{PeakAnonBytes: p.Anon, PeakFileBytes: p.File, PeakRSSBytes: p.HWM, SampledEvery: p.Every.Seconds(), How: memoryHow}
}

func printMemory(w io.Writer, m *memoryJSON) {
	if m == nil {
		return
	}
	row := func(name, val string) { fmt.Fprintf(w, "  %-5s %-44s %s\n", "", name, val) }
	row("peak anonymous memory (RssAnon, sampled)", mib(m.PeakAnonBytes))
	row("peak file-backed memory (RssFile, sampled)", mib(m.PeakFileBytes))
	row("peak resident memory (VmHWM)", mib(m.PeakRSSBytes))
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// goHeapLimit is the soft limit on the Go runtime's memory of a run with state caching,
// unless GOMEMLIMIT says otherwise. The visited set's table and filter (the budget) live
// outside the Go heap; what is in it is the engine's and badger's (memtables, compaction
// buffers, the garbage of its reads). Without a limit the collector lets that garbage grow
// to twice the live heap: a spilling gossip-4 run at --visited-mem 1MiB peaked at 70–84 MiB
// anonymous, with GOMEMLIMIT=40MiB at 35 MiB in the same time (docs/visited-states.md). The
// limit is soft: a search whose live heap needs more gets it, with more collections.
const goHeapLimit = 48 << 20

// tuneCollector sets the Go collector for a run with state caching: goHeapLimit and
// goGCPercent, each unless its environment variable (GOMEMLIMIT, GOGC) says otherwise.
//
// Stateful DPOR (a strategy with a stateful variant, dpor.Cacheable) keeps its graph of
// visited states in the Go heap, so it gets them only while the graph is small: once a
// collection finds graphBallast live, the runtime's own settings come back for the rest
// of the run. A large graph is its own ballast: once the graph outgrew the limit, the
// collector ran back to back (abd 1w2r, 2.3 million states: 3.5 times exhaustive
// search's CPU, a third of it in the kernel), and at GOGC 400 the heap grows to five times
// the graph (abd 1w2r, 353,771 states: 66 MB peak against 42 MB at the default). A small
// one is not: at the default GOGC the heap goal sat at the runtime's 4 MiB floor, and
// chord 2r2w (7,985 states) collected three times where exhaustive search, at GOGC 400,
// did not collect at all; the collector cost it a fifth of its CPU (whole process, GOGC
// 400 against the default in alternating pairs: chord 2r2w 0.80 over 40; register 2r2w
// 0.89, paxos 2r2w 0.86, leader 1w1r 0.94, abd 1w2r 0.97 over 6).
//
// It returns what puts the collector back as it was: Run is also called in process (by
// tests and benchmarks), where one run's settings must not become the next one's.
func tuneCollector(opts explorer.Options) (restore func()) {
	if !opts.StateCaching {
		return func() {}
	}
	t := &collectorTuning{ballast: graphBallast}
	t.mu.Lock()
	defer t.mu.Unlock()
	if os.Getenv("GOMEMLIMIT") == "" {
		t.limitWas, t.setLimit = debug.SetMemoryLimit(goHeapLimit), true
	}
	if os.Getenv("GOGC") == "" {
		t.gcWas, t.setGC = debug.SetGCPercent(goGCPercent), true
	}
	if _, graph := opts.Strategy.(dpor.Cacheable); graph && (t.setGC || t.setLimit) {
		t.watch()
	}
	return t.untune
}

// graphBallast is the live heap from which stateful DPOR's graph is ballast enough
// (tuneCollector): a third of goHeapLimit. Past a fifth of the limit the heap goal at
// goGCPercent is the limit itself, so the collector's allowance shrinks as the graph
// grows, until the switch gives it the live heap again (the default GOGC's goal, twice
// the live heap, is then 32 MiB). A variable for the test that watches a switch.
var graphBallast = uint64(goHeapLimit / 3)

// collectorTuning is what tuneCollector changed and what puts it back.
type collectorTuning struct {
	mu              sync.Mutex
	over            bool // put back: by the run's end or by the switch
	setGC, setLimit bool
	gcWas           int
	limitWas        int64
	ballast         uint64 // graphBallast when the run began
}

// untune puts back what tuneCollector changed, once.
func (t *collectorTuning) untune() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.over {
		return
	}
	t.over = true
	if t.setGC {
		debug.SetGCPercent(t.gcWas)
	}
	if t.setLimit {
		debug.SetMemoryLimit(t.limitWas)
	}
}

// watch looks at the live heap after the next collection, and after each one until it
// puts the settings back: a cleanup on an object nothing holds runs once a collection
// has found it unreachable. The object holds a pointer so that it is not one of the
// tiny allocations the runtime batches, whose cleanups may never run.
func (t *collectorTuning) watch() {
	runtime.AddCleanup(&struct{ _ *int }{}, (*collectorTuning).cycle, t)
}

// cycle runs after a collection: it puts the settings back once the live heap has
// reached graphBallast, and watches the next collection otherwise.
func (t *collectorTuning) cycle() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	t.mu.Lock()
	large := sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() >= t.ballast
	if !large && !t.over {
		t.watch()
	}
	t.mu.Unlock()
	if large {
		t.untune()
	}
}

// goGCPercent is the collector's GOGC for a run with state caching. Such a run's live
// heap is small (the visited set is outside it) and its allocation rate high, so at the
// default 100 the heap goal sat at the runtime's 4 MiB floor and the collector ran every
// few milliseconds; the 1–2 MiB an open badger database keeps live (a checkpoint's store)
// then cut each cycle's allowance by a third to a half: gossip with 4 agents in memory
// ran 865 collections without --checkpoint and 1,385 with, and checkpoints cost 1.26×
// the CPU. At 400 a cycle allows five times the live heap and the checkpointed run costs
// 1.08× (docs/visited-states.md); goHeapLimit still bounds the heap.
const goGCPercent = 400
