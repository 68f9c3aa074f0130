package ravelcli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/register"
)

// failRecorder is a testing.TB that records a failure instead of failing the test.
type failRecorder struct {
	testing.TB
	errors []string
}

func (r *failRecorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *failRecorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *failRecorder) Logf(string, ...any)               {}
func (r *failRecorder) Failed() bool                      { return len(r.errors) > 0 }

// TestReplayReadsRaveltestFiles: a counterexample raveltest saves for a system ravel
// knows is a file ravel replay accepts (one format, one reader: package report), and
// its replay reproduces the violation — under the harness it was found under, which the
// file records by its clients (raveltest sees no harness name), the default or not.
func TestReplayReadsRaveltestFiles(t *testing.T) {
	for _, harness := range register.HarnessNames {
		t.Run(harness, func(t *testing.T) {
			sys, err := register.NewBuggy(3, harness)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			r := &failRecorder{TB: t}
			// Depth-first search finds 2r2w's violation late; random walks (seed 1) at once.
			raveltest.Check(r, sys, raveltest.Dir(dir), raveltest.Strategy(dpor.Random(1)))
			if !r.Failed() {
				t.Fatal("raveltest found no violation in register-buggy")
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			if len(files) != 1 {
				t.Fatalf("saved files %v, want 1", files)
			}
			code, stdout, stderr := runRavel("replay", files[0])
			if code != exitViolation || !strings.Contains(stdout, "the replay gives the same history as the saved violation") {
				t.Errorf("replay of %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", files[0], code, exitViolation, stdout, stderr)
			}
			if want := "(register-buggy, harness " + harness + ", agents 3)"; !strings.Contains(stdout, want) {
				t.Errorf("replay output lacks %q:\n%s", want, stdout)
			}
		})
	}
}

// TestReplayRefusesAnotherHarness: a file whose run names a harness other than the one
// its schedule was found under (its digest made to match) is refused with exit 2, naming
// both harnesses; so is a raveltest file whose clients no harness of the system has.
func TestReplayRefusesAnotherHarness(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v.json")
	if code, _, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", path); code != exitViolation {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	f, _, err := report.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	found := f.Run.Clients
	if !strings.HasPrefix(found, "spec register; c0 → n0: Write(1)") {
		t.Fatalf("check --out recorded the clients %q", found)
	}
	rewrite := func(t *testing.T, edit func(*report.RunInfo)) string {
		run := f.Run
		edit(&run)
		p := filepath.Join(t.TempDir(), "edited.json")
		if err := report.WriteFile(p, run, f.Violation, mustFingerprint(t, f.Fingerprint)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name string
		edit func(*report.RunInfo)
		want string
	}{
		{"another named harness", func(r *report.RunInfo) { r.Harness = "2r2w" },
			fmt.Sprintf("the counterexample was found under the harness %q, but the system's harness is", found)},
		{"no name, unknown clients", func(r *report.RunInfo) { r.Harness, r.Clients = "", "spec register; c0 → n9: Read()" },
			`the file names no harness, and none of register-buggy's (2r1w, 2r2w, 1r1w) has the clients it was found under, "spec register; c0 → n9: Read()"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runRavel("replay", rewrite(t, c.edit))
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, c.want)
			}
		})
	}
	// The oracle of the edits: the file rewritten unchanged replays as before.
	if code, stdout, stderr := runRavel("replay", rewrite(t, func(*report.RunInfo) {})); code != exitViolation {
		t.Errorf("unchanged rewrite: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func mustFingerprint(t *testing.T, s string) uint64 {
	t.Helper()
	var fp uint64
	if _, err := fmt.Sscanf(s, "%016x", &fp); err != nil {
		t.Fatal(err)
	}
	return fp
}
