package ravelcli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/live"
)

// TestRunTotalLine: ravel run's total line writes its counts with thousands separators
// and its faults in words, as the iteration lines do (the probe of ravel run, a nit it
// left: "faults: 0 drop, 1 crash, …" and "2781 intercepted").
func TestRunTotalLine(t *testing.T) {
	it := live.IterationReport{Net: live.Counts{Intercepted: 1500, Delivered: 1400, Refused: 1104}, Faults: live.FaultCounts{Crash: 1, Restart: 1}}
	var out bytes.Buffer
	printRunSummary(&out, &live.Report{Seed: 7}, []live.IterationReport{it, it}, &live.Config{}, "", false)
	line := out.String()
	for _, want := range []string{"total: 2 iterations, 0 not linearizable", "3,000 intercepted", "2,800 delivered", "2,208 refused", "faults: crash 2, restart 2;", "seed 7"} {
		if !strings.Contains(line, want) {
			t.Errorf("total line %q lacks %q", line, want)
		}
	}
	out.Reset()
	printRunSummary(&out, &live.Report{Seed: 7}, []live.IterationReport{{}}, &live.Config{}, "", false)
	if !strings.Contains(out.String(), "; no faults;") {
		t.Errorf("total line %q does not say no faults", out.String())
	}
}
