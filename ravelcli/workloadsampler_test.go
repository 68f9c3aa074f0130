package ravelcli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWorkloadReplayHint: a sampler's replay hint under --workloads names the failing
// workload as SPEC#i, which --workloads takes, and followed as printed it hits again
// under that workload alone; the report's header names the workload, not the harness.
func TestWorkloadReplayHint(t *testing.T) {
	code, stdout, stderr := runRavel("check", "register-buggy", "--strategy", "tapct", "--workloads", "all:ops=3,clients=2", "--max-schedules", "200", "--quiet")
	if code != exitViolation {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, hint, ok := strings.Cut(stdout, "replay: ")
	if !ok {
		t.Fatalf("no replay hint:\n%s", stdout)
	}
	hint, _, _ = strings.Cut(hint, "\n")
	if !strings.HasPrefix(hint, "--workloads all:ops=3,clients=2#") {
		t.Fatalf("the hint %q names no workload", hint)
	}
	if !strings.Contains(stdout, "ravel check register-buggy  workload all:ops=3,clients=2#") || strings.Contains(stdout, "harness 2r1w") {
		t.Errorf("the header does not name the workload:\n%s", stdout)
	}
	args := append([]string{"check", "register-buggy", "--strategy", "tapct", "--quiet"}, strings.Fields(hint)...)
	code, stdout, stderr = runRavel(args...)
	if code != exitViolation || !strings.Contains(stdout, "1 of 1") {
		t.Errorf("%v: exit %d\n%s%s", args, code, stdout, stderr)
	}
	if code, _, stderr := runRavel("check", "register-buggy", "--workloads", "all:ops=3,clients=2#9999", "--quiet"); code != exitUsage || !strings.Contains(stderr, "generates only 34 workloads") {
		t.Errorf("a workload beyond the generator's: exit %d: %q", code, stderr)
	}
}

// TestWorkloadsSamplerClean: a clean sampler run under workloads reports a sampling
// block in text and JSON, and no "explored completely", which a sampler never is.
func TestWorkloadsSamplerClean(t *testing.T) {
	code, stdout, _ := runRavel("check", "register", "--strategy", "tapct", "--workloads", "all:ops=2,clients=1", "--max-schedules", "20", "--quiet")
	if code != exitOK || strings.Contains(stdout, "explored completely") || !strings.Contains(stdout, "sampler tapct") ||
		!strings.Contains(stdout, "0 of 120, over 6 workloads") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	_, stdout, _ = runRavel("check", "register", "--strategy", "tapct", "--workloads", "all:ops=2,clients=1", "--max-schedules", "20", "--quiet", "--json")
	var r struct {
		Sampling *struct {
			Runs      int64 `json:"runs"`
			Workloads int   `json:"workloads"`
		} `json:"sampling"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || r.Sampling == nil || r.Sampling.Runs != 120 || r.Sampling.Workloads != 6 {
		t.Errorf("JSON sampling %+v (%v):\n%s", r.Sampling, err, stdout)
	}
	_, stdout, _ = runRavel("check", "register", "--workloads", "all:ops=1,clients=1", "--quiet")
	if !strings.Contains(stdout, "2 workloads generated") {
		t.Errorf("\n%s", stdout)
	}
	_, stdout, _ = runRavel("check", "register", "--workloads", "all:ops=1,clients=1#0", "--quiet")
	if !strings.Contains(stdout, "1 workload, selected by name") {
		t.Errorf("\n%s", stdout)
	}
}
