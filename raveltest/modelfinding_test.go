package raveltest_test

import (
	"os"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/internal/buggysys"
	"github.com/ravelmc/ravel/raveltest"
)

// TestUncopyableStateIsNotSaved: a state Ravel cannot copy, met during the search, fails
// the test but is not saved as a counterexample of the protocol to replay on every later
// run (state probe, H4).
func TestUncopyableStateIsNotSaved(t *testing.T) {
	sys := buggysys.KeepsErrorSystem()
	dir := t.TempDir()
	rec := &recorder{TB: t}
	raveltest.Check(rec, sys, raveltest.Dir(dir))
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "Ravel could not check the system as written") ||
		!strings.Contains(rec.errors[0], "not saved as a counterexample") || strings.Contains(rec.errors[0], "panic") {
		t.Errorf("failures %q; want one saying Ravel could not check the system", rec.errors)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d files saved in the corpus; want none", len(files))
	}
}
