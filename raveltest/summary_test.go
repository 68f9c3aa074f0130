package raveltest_test

import (
	"flag"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/systems/register"
	"github.com/ravelmc/ravel/workloads"
)

// summary is the one log line Check writes on what it covered.
func summary(t *testing.T, r *recorder) string {
	t.Helper()
	var found []string
	for _, l := range r.logs {
		if !strings.Contains(l, "copied by reflection") && !strings.Contains(l, "no longer applies") {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("logs %q, want one summary line", r.logs)
	}
	return found[0]
}

// TestSummaryIsLogged: every Check logs (seen with -v) one line on what it covered — the
// schedules and whether the search was complete, in ravel check's words, and if not why;
// the workloads checked; a sampler's hits and bound; the saved counterexamples replayed
// (probe S14: a green test under -short covered 2,000 of 86,807 schedules without a word).
func TestSummaryIsLogged(t *testing.T) {
	t.Run("complete", func(t *testing.T) {
		r := &recorder{TB: t}
		raveltest.Check(r, cellSystem(false), raveltest.Dir(t.TempDir()))
		if got, want := summary(t, r), "raveltest: cell: 3 schedules; search: complete — every schedule the strategy selects was explored"; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
	})
	t.Run("short", func(t *testing.T) {
		old := flag.Lookup("test.short").Value.String()
		if err := flag.Set("test.short", "true"); err != nil {
			t.Fatal(err)
		}
		defer flag.Set("test.short", old)
		sys, err := register.New(2, "2r2w")
		if err != nil {
			t.Fatal(err)
		}
		r := &recorder{TB: t}
		raveltest.Check(r, sys, raveltest.Dir(t.TempDir()))
		if got, want := summary(t, r), "raveltest: register: 2,000 schedules; search: incomplete — stopped at the schedule budget (2,000, raveltest.ShortBudget, under -short)"; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
	})
	t.Run("budget", func(t *testing.T) {
		r := &recorder{TB: t}
		raveltest.Check(r, cellSystem(false), raveltest.Budget(2), raveltest.Dir(t.TempDir()))
		if got, want := summary(t, r), "2 schedules; search: incomplete — stopped at the schedule budget (2, raveltest.Budget)"; !strings.HasSuffix(got, want) {
			t.Errorf("summary %q, want one ending %q", got, want)
		}
	})
	t.Run("depth", func(t *testing.T) {
		r := &recorder{TB: t}
		raveltest.Check(r, cellSystem(false), raveltest.MaxDepth(2), raveltest.Dir(t.TempDir()))
		if got, want := summary(t, r), "raveltest: cell: 3 schedules; search: incomplete — 3 schedules were cut at the depth budget (MaxDepth 2)"; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
	})
	t.Run("sampler", func(t *testing.T) {
		r := &recorder{TB: t}
		raveltest.Check(r, cellSystem(false), raveltest.Sampler(samplers.TaPCT(samplers.Options{Depth: 2})), raveltest.Seed(3), raveltest.Budget(100), raveltest.Dir(t.TempDir()))
		got := summary(t, r)
		for _, want := range []string{"raveltest: cell: sampler tapct seed 3 runs 0…99: hits 0 of 100, hit rate 0.0000 [", "; bound at observed m "} {
			if !strings.Contains(got, want) {
				t.Errorf("summary %q does not say %q", got, want)
			}
		}
	})
	t.Run("workloads", func(t *testing.T) {
		r := &recorder{TB: t}
		gen := workloads.Generator{Clients: 1, Ops: 2}
		raveltest.Check(r, cellSystem(false), raveltest.Workloads(gen), raveltest.Dir(t.TempDir()))
		n := len(gen.For(ptr(cellSystem(false))))
		if got, want := summary(t, r), "raveltest: cell: workloads all:ops=2,clients=1: "+itoa(n)+" generated, "+itoa(n)+" checked ("+itoa(n)+" explored completely), "; !strings.HasPrefix(got, want) {
			t.Errorf("summary %q, want one starting %q", got, want)
		}
	})
	t.Run("corpus", func(t *testing.T) {
		dir := t.TempDir()
		raveltest.Check(&recorder{TB: t}, cellSystem(true), raveltest.Dir(dir)) // saves one
		r := &recorder{TB: t}
		raveltest.Check(r, cellSystem(false), raveltest.Dir(dir))
		if got, want := summary(t, r), "raveltest: cell: 1 saved counterexample replayed from "+dir+"; 3 schedules; search: complete"; !strings.HasPrefix(got, want) {
			t.Errorf("summary %q, want one starting %q", got, want)
		}
		r = &recorder{TB: t}
		raveltest.Check(r, cellSystem(false), raveltest.Dir(dir), raveltest.ReplayOnly())
		if got, want := summary(t, r), "raveltest: cell: 1 saved counterexample replayed from "+dir+"; nothing explored (ReplayOnly)"; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
	})
}

func ptr[T any](v T) *T { return &v }

func itoa(n int) string { return strconv.Itoa(n) }
