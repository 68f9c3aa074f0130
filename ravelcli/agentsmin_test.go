package ravelcli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentsMinimumPerSystem: the system decides the least --agents: microbench, whose
// --agents is k (its non-racy chains), runs with 0 and its header says k; the others
// refuse 0. microbench --agents 0 (docs/samplers.md plots k = 0) used to be refused
// ("--agents must be at least 1"), and its header said "agents 1" for k = 1.
func TestAgentsMinimumPerSystem(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"microbench k 0", []string{"check", "microbench", "--agents", "0", "--max-schedules", "5"}, exitOK, "strategy exhaustive  k 0  seed 1"},
		{"microbench default k", []string{"check", "microbench", "--max-schedules", "5"}, exitOK, "strategy exhaustive  k 1  seed 1"},
		{"microbench negative", []string{"check", "microbench", "--agents", "-1"}, exitUsage, "--agents must be at least 0, got -1"},
		{"register 0", []string{"check", "register", "--agents", "0"}, exitUsage, "--agents must be at least 1, got 0"},
		{"register header", []string{"check", "register", "--max-schedules", "5"}, exitOK, "strategy exhaustive  agents 2  seed 1"},
		{"list microbench", []string{"list", "microbench"}, exitOK, "k (--agents): 1 by default; accepted: 0–48"},
		// k = 0 is one actor, N, and its 1,680 schedules: the system asked for, not the
		// default k = 1 (50,000 schedules do not complete it).
		{"microbench k 0 built", []string{"check", "microbench", "--agents", "0", "--harness", "bug1-L3", "--max-schedules", "0"}, exitViolation, "schedules                                    1,680"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, stderr.String())
			}
			if got := stdout.String() + stderr.String(); !strings.Contains(got, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, got)
			}
		})
	}
}

// TestReplayNoAgents: a file check wrote for microbench with k = 0 replays with k = 0
// (the file's agents 0 were refused as out of range, and Config's 0 is the default).
func TestReplayNoAgents(t *testing.T) {
	file := filepath.Join(t.TempDir(), "k0.ravel")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "microbench", "--agents", "0", "--harness", "bug1-L3", "--out", file}, &stdout, &stderr); code != exitViolation {
		t.Fatalf("check: exit %d, want %d; stderr %q", code, exitViolation, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"replay", file}, &stdout, &stderr); code != exitViolation {
		t.Errorf("replay: exit %d, want %d; stderr %q", code, exitViolation, stderr.String())
	}
	if want := "the replay gives the same history as the saved violation"; !strings.Contains(stdout.String(), want) {
		t.Errorf("replay output lacks %q:\n%s", want, stdout.String())
	}
}
