package raveltest_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/register"
	"github.com/ravelmc/ravel/wgl"
)

// TestSavedFileRecordsItsHarness: a saved counterexample says which harness it was found
// under, and a later run of the test under another harness refuses to replay it, naming
// both, instead of replaying a schedule that means nothing there.
func TestSavedFileRecordsItsHarness(t *testing.T) {
	dir := t.TempDir()
	r := &recorder{TB: t}
	raveltest.Check(r, cellSystem(true), raveltest.Dir(dir))
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if !r.Failed() || len(files) != 1 {
		t.Fatalf("buggy cell: errors %q, files %v; want a failure and one file", r.errors, files)
	}
	f, _, err := report.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := "spec register; c0 → n0: Write(1) Read(); c1 → n0: Write(2)"; f.Run.Clients != want {
		t.Errorf("the file records the harness %q, want %q", f.Run.Clients, want)
	}

	// The same system under another harness: the file is refused, and the test fails.
	other := cellSystem(true)
	other.Harness = model.Clients(specs.Register(),
		model.Calls(0, specs.Write(1), specs.Read()),
		model.Calls(0, specs.Write(3)),
	)
	r = &recorder{TB: t}
	if res := raveltest.Check(r, other, raveltest.Dir(dir), raveltest.ReplayOnly()); res != nil {
		t.Errorf("ReplayOnly returned a result")
	}
	want := `cannot be replayed: the counterexample was found under the harness "spec register; c0 → n0: Write(1) Read(); c1 → n0: Write(2)", but the system's harness is "spec register; c0 → n0: Write(1) Read(); c1 → n0: Write(3)"`
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], want) {
		t.Errorf("errors %q, want one containing %q", r.errors, want)
	}

	// Under its own harness it replays (and still fails, the cell being buggy).
	r = &recorder{TB: t}
	raveltest.Check(r, cellSystem(true), raveltest.Dir(dir), raveltest.ReplayOnly())
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "still fails") {
		t.Errorf("errors %q, want one saying the saved counterexample still fails", r.errors)
	}
}

// TestSavedFileIsMinimized: by default the saved schedule is the shrunk one, which still
// fails when replayed (the oracle: a stateless replay judged by the checker);
// Minimize(false) saves it as found.
func TestSavedFileIsMinimized(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name             string
		opts             []raveltest.Option
		steps, foundWith int
	}{
		{"default", nil, 4, 7},
		{"Minimize(false)", []raveltest.Option{raveltest.Minimize(false)}, 7, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r := &recorder{TB: t}
			raveltest.Check(r, sys, append([]raveltest.Option{raveltest.Dir(dir)}, c.opts...)...)
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			if len(files) != 1 {
				t.Fatalf("saved %v, want one file", files)
			}
			f, ids, err := report.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != c.steps || f.Violation.OriginalLength != c.foundWith {
				t.Errorf("saved %d steps, found with %d; want %d and %d", len(ids), f.Violation.OriginalLength, c.steps, c.foundWith)
			}
			ex, err := explorer.Replay(sys, ids, false)
			if err != nil {
				t.Fatal(err)
			}
			if wgl.Check(sys.Harness.Spec().Spec, histories.Operations(sys.Harness, ex.Events)).Verdict != wgl.NotLinearizable {
				t.Errorf("the saved schedule's history is linearizable")
			}
		})
	}
}
