package ravelcli

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/samplers"
)

// TestSamplingRowsAlign: every row of a sampler's statistics puts its value in one
// column, rows whose names hold n̂ (a combining circumflex, two runes in one column)
// included (CLI probe, a nit).
func TestSamplingRowsAlign(t *testing.T) {
	var b strings.Builder
	printSampling(&b, &explorer.SamplingStats{
		Sampler: "tapct", Depth: 2, N: 10, NHat: 4, FirstHitRun: -1,
		Calibration: &samplers.Calibration{Runs: 16, N: 10, NHat: 4},
	})
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")[1:]
	want := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		// The value starts after the padding that follows the name: the first run of
		// two or more spaces after the indent.
		i := strings.Index(l[2:], "  ")
		if i < 0 {
			t.Fatalf("row %q has no padding", l)
		}
		rest := l[2+i:]
		col := columns(l[:2+i]) + len(rest) - len(strings.TrimLeft(rest, " "))
		if want < 0 {
			want = col
		}
		if col != want {
			t.Errorf("row %q puts its value in column %d, want %d", l, col, want)
		}
	}
	if want < 0 {
		t.Fatal("no rows")
	}
}
