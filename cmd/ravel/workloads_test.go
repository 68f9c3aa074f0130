package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckWorkloads(t *testing.T) {
	out := filepath.Join(t.TempDir(), "v.json")
	code, stdout, stderr := runRavel("check", "register-buggy", "--workloads", "all:ops=3,clients=2", "--max-schedules", "500", "--quiet", "--json", "--out", out)
	if code != exitViolation {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitViolation, stderr)
	}
	var r checkReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Workload, "all:ops=3,clients=2#") || r.FirstViolation == nil {
		t.Errorf("report names workload %q, violation %v; want a generated workload and its violation", r.Workload, r.FirstViolation)
	}
	// replay rebuilds the workload from its name and gives the same history.
	code, stdout, _ = runRavel("replay", out)
	if code != exitViolation || !strings.Contains(stdout, "the same history") {
		t.Errorf("replay: exit %d, output:\n%s", code, stdout)
	}

	code, stdout, stderr = runRavel("check", "register", "--workloads", "all:ops=2,clients=2", "--quiet")
	if code != exitOK || !strings.Contains(stdout, "no violation found under any workload") {
		t.Errorf("register: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
	code, _, stderr = runRavel("check", "register", "--workloads", "every:ops=2")
	if code != exitUsage || !strings.Contains(stderr, "all:") {
		t.Errorf("bad --workloads: exit %d, stderr %s", code, stderr)
	}
}
