package ravelcli

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
)

// TestTuneCollector checks which runs tuneCollector tunes: a run with state caching gets
// goGCPercent and goHeapLimit, unless GOGC or GOMEMLIMIT is set; stateful DPOR (whose
// graph is its live heap) and a run without caching keep the runtime's settings; and
// what it returns puts the settings back.
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
		{"stateful dpor", "dpor", true, "", "", before, math.MaxInt64},
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
