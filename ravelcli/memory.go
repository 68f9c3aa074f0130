package ravelcli

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

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
// goGCPercent, each unless its environment variable (GOMEMLIMIT, GOGC) says otherwise —
// but neither with stateful DPOR (a strategy with a stateful variant, dpor.Cacheable),
// whose graph of visited states lives in the Go heap: once the graph outgrew the limit,
// the collector ran back to back (abd 1w2r, 2.3 million states: 3.5 times exhaustive
// search's CPU, a third of it in the kernel), and at GOGC 400 the heap would grow to five
// times the graph. Nor does a larger GOGC pay for stateful DPOR: its live heap is the
// graph, large enough that at the default GOGC the collector takes 1–2% of the run's CPU
// on abd 1w2r-seq and under 1% on abd 1w2r (2.3 million states, 120 collections in 16 s;
// GODEBUG=gctrace=1). Measured (2-core shared VM, whole-process CPU, medians of 5 or 7
// alternating pairs): GOGC 200 against 100 on abd 1w2r-seq 1.01x the CPU for 1.07x the
// peak memory; on register 2r2w GOGC 200, 300, 400 and 800 took 0.39, 0.45, 0.38 and
// 0.43 s of CPU against 0.36 s at 100, for 1.2x, 1.4x, 1.4x and 1.8x its peak (29.8 MiB).
//
// It returns what puts the collector back as it was: Run is also called in process (by
// tests and benchmarks), where one run's settings must not become the next one's.
func tuneCollector(opts explorer.Options) (restore func()) {
	if _, graph := opts.Strategy.(dpor.Cacheable); graph || !opts.StateCaching {
		return func() {}
	}
	var undo []func()
	if os.Getenv("GOMEMLIMIT") == "" {
		was := debug.SetMemoryLimit(goHeapLimit)
		undo = append(undo, func() { debug.SetMemoryLimit(was) })
	}
	if os.Getenv("GOGC") == "" {
		was := debug.SetGCPercent(goGCPercent)
		undo = append(undo, func() { debug.SetGCPercent(was) })
	}
	return func() {
		for _, f := range undo {
			f()
		}
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
