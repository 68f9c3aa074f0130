package ravelcli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/raveltest"
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
// its replay reproduces the violation.
func TestReplayReadsRaveltestFiles(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &failRecorder{TB: t}
	raveltest.Check(r, sys, raveltest.Dir(dir))
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
}
