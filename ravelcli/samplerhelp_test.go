package ravelcli

import (
	"strings"
	"testing"
)

// TestSamplerHelpTexts: bench's help points at bench samplers (S19); check -h names the
// strategies --calibration applies to (S22) and the --workloads defaults and SPEC#i
// (S17, S9); ravel list gives the bound the report computes (S8).
func TestSamplerHelpTexts(t *testing.T) {
	_, stdout, _ := runRavel("help", "bench")
	if !strings.Contains(stdout, "ravel bench samplers -h") {
		t.Errorf("help bench:\n%s", stdout)
	}
	_, stdout, _ = runRavel("check", "-h")
	for _, want := range []string{"pctcp, tapct, dpos: random-walk runs that calibrate", "defaults to ops=3, clients=2, n=100, seed=1", "SPEC#i"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("check -h lacks %q", want)
		}
	}
	_, stdout, _ = runRavel("list")
	if strings.Contains(stdout, "^(d−1)") || !strings.Contains(stdout, "1/(m·n̂(n̂−1)…(n̂−d+2))") {
		t.Errorf("list gives another bound than the report:\n%s", stdout)
	}
}
