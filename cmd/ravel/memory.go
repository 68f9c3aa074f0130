package main

import (
	"fmt"
	"io"

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
