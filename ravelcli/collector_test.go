package ravelcli

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
)

// TestTuneCollector checks which runs tuneCollector tunes: a run with state caching gets
// goGCPercent and goHeapLimit, unless GOGC or GOMEMLIMIT is set, stateful DPOR too (until
// its graph is large: TestStatefulDPORGetsTheDefaultsBack); a run without caching keeps
// the runtime's settings; and what it returns puts the settings back.
func TestTuneCollector(t *testing.T) {
	const before = 77 // a GOGC no one sets: kept means untouched
	for _, tc := range []struct {
		name             string
		strategy         string
		caching          bool
		gogc, gomemlimit string
		wantGC           int
		wantLimit        int64
	}{
		{"exhaustive with caching", "exhaustive", true, "", "", goGCPercent, goHeapLimit},
		{"exhaustive with caching, GOGC set", "exhaustive", true, "150", "", before, goHeapLimit},
		{"exhaustive with caching, GOMEMLIMIT set", "exhaustive", true, "", "1GiB", goGCPercent, math.MaxInt64},
		{"exhaustive without caching", "exhaustive", false, "", "", before, math.MaxInt64},
		{"stateful dpor", "dpor", true, "", "", goGCPercent, goHeapLimit},
		{"stateful dpor, GOGC and GOMEMLIMIT set", "dpor", true, "150", "1GiB", before, math.MaxInt64},
		{"dpor without caching", "dpor", false, "", "", before, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The environment is read by tuneCollector only; the runtime's settings are
			// set here, so that what tuneCollector leaves alone is known.
			t.Setenv("GOGC", tc.gogc)
			t.Setenv("GOMEMLIMIT", tc.gomemlimit)
			oldGC := debug.SetGCPercent(before)
			oldLimit := debug.SetMemoryLimit(math.MaxInt64)
			t.Cleanup(func() {
				debug.SetGCPercent(oldGC)
				debug.SetMemoryLimit(oldLimit)
			})
			s, err := dpor.New(tc.strategy, dpor.Config{})
			if err != nil {
				t.Fatal(err)
			}
			restore := tuneCollector(explorer.Options{Strategy: s, StateCaching: tc.caching})
			if got := debug.SetGCPercent(-1); got != tc.wantGC {
				t.Errorf("GOGC = %d, want %d", got, tc.wantGC)
			}
			debug.SetGCPercent(tc.wantGC)
			if got := debug.SetMemoryLimit(-1); got != tc.wantLimit {
				t.Errorf("memory limit = %d, want %d", got, tc.wantLimit)
			}
			// After the run the next one starts from the settings this one found.
			restore()
			if got := debug.SetGCPercent(-1); got != before {
				t.Errorf("GOGC after the run = %d, want %d", got, before)
			}
			debug.SetGCPercent(before)
			if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
				t.Errorf("memory limit after the run = %d, want %d", got, int64(math.MaxInt64))
			}
		})
	}
}

// TestStatefulDPORGetsTheDefaultsBack: stateful DPOR runs under goGCPercent and
// goHeapLimit until a collection finds graphBallast live, and under the runtime's own
// settings from then on; a run that ended before leaves the next run's settings alone.
func TestStatefulDPORGetsTheDefaultsBack(t *testing.T) {
	const before = 77
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	oldGC := debug.SetGCPercent(before)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	oldBallast := graphBallast
	t.Cleanup(func() {
		debug.SetGCPercent(oldGC)
		debug.SetMemoryLimit(oldLimit)
		graphBallast = oldBallast
	})
	s, err := dpor.New("dpor", dpor.Config{})
	if err != nil {
		t.Fatal(err)
	}
	opts := explorer.Options{Strategy: s, StateCaching: true}
	gogc := func() int {
		m := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(m)
		return int(m[0].Value.Uint64())
	}
	// collect runs collections, letting cleanups run between them, until done says so
	// or rounds have passed.
	collect := func(rounds int, done func() bool) {
		for range rounds {
			runtime.GC()
			runtime.Gosched()
			if done() {
				return
			}
		}
	}

	// A first run ends before its graph grows: the next run starts from the settings it
	// found, and whatever the first run's watch does later leaves the second's alone.
	graphBallast = 1 << 40
	restore := tuneCollector(opts)
	collect(3, func() bool { return false })
	if got := gogc(); got != goGCPercent {
		t.Fatalf("GOGC with a small live heap = %d, want %d", got, goGCPercent)
	}
	restore()
	if got := gogc(); got != before {
		t.Fatalf("GOGC after the first run = %d, want %d", got, before)
	}

	graphBallast = 4 << 20
	restore = tuneCollector(opts)
	defer restore()
	if got := gogc(); got != goGCPercent {
		t.Fatalf("GOGC at the start = %d, want %d", got, goGCPercent)
	}
	graph := make([][]byte, 0, 64)
	for range 64 {
		graph = append(graph, make([]byte, 128<<10)) // 8 MiB live
	}
	collect(100, func() bool { return gogc() == before })
	if got := gogc(); got != before {
		t.Errorf("GOGC with %d MiB live = %d, want the runtime's %d back", 8, got, before)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit with %d MiB live = %d, want none", 8, got)
	}
	runtime.KeepAlive(graph)
	restore()
	if got := gogc(); got != before {
		t.Errorf("GOGC after the run = %d, want %d", got, before)
	}
}
