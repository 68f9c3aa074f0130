package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/samplers"
)

// TestSampler: Sampler runs a sampler and keeps the other defaults — the violation is
// shrunk, as Options(explorer.Options{Sampling: …}) would not — and the result names
// the sampler; Sampler beside Strategy, and a sampler with Budget(explorer.Unlimited),
// fail the test with explorer.Run's refusal (probe S11, S12: the second ran until go
// test's timeout, and the first ran the sampler and reported "dpor").
func TestSampler(t *testing.T) {
	tapct := samplers.TaPCT(samplers.Options{Depth: 2})
	t.Run("found", func(t *testing.T) {
		r := &recorder{TB: t}
		res := raveltest.Check(r, cellSystem(true), raveltest.Sampler(tapct), raveltest.Seed(1), raveltest.Budget(200), raveltest.Dir(t.TempDir()))
		if res == nil || res.First == nil || len(r.errors) != 1 {
			t.Fatalf("errors %q, result %+v; want one violation", r.errors, res)
		}
		if res.Strategy != "tapct" || res.Sampling == nil || res.Sampling.Seed != 1 {
			t.Errorf("strategy %q, sampling %+v; want tapct, seed 1", res.Strategy, res.Sampling)
		}
		if !strings.Contains(r.errors[0], "tapct seed 1 run ") || !strings.Contains(r.errors[0], "minimi") {
			t.Errorf("the failure names no seed and run, or the schedule was not shrunk:\n%s", r.errors[0])
		}
		// A failing test stops at its first violation (probe T4: 5,000 runs of ~1,000
		// steps, 80 s, for a bug found at run 3): the hit rate needs the whole budget,
		// the failure does not.
		if st := res.Sampling; st.Hits != 1 || st.Runs != st.FirstHitRun+1 || st.Runs >= 200 {
			t.Errorf("%d runs, %d hits, first hit at run %d: want it to stop at the first hit", st.Runs, st.Hits, st.FirstHitRun)
		}
		if len(r.logs) == 0 || !strings.Contains(r.logs[len(r.logs)-1], "stopped at the first violation, run ") {
			t.Errorf("the summary does not say the sampler stopped at the first violation: %q", r.logs)
		}
	})
	t.Run("clean runs its budget", func(t *testing.T) {
		r := &recorder{TB: t}
		res := raveltest.Check(r, cellSystem(false), raveltest.Sampler(tapct), raveltest.Seed(1), raveltest.Budget(50), raveltest.Dir(t.TempDir()))
		if len(r.errors) != 0 || res == nil || res.Sampling.Runs != 50 {
			t.Fatalf("errors %q, result %+v; want 50 clean runs", r.errors, res)
		}
	})
	for _, c := range []struct {
		name string
		opts []raveltest.Option
		want string
	}{
		{"with a strategy", []raveltest.Option{raveltest.Sampler(tapct), raveltest.Strategy(dpor.Optimal(dpor.History())), raveltest.Budget(100)}, "both Strategy (dpor) and Sampling (tapct) are set"},
		{"options, then a strategy", []raveltest.Option{raveltest.Options(explorer.Options{Sampling: tapct, Seed: 1, MaxSchedules: 100}), raveltest.Strategy(dpor.Optimal(dpor.History()))}, "both Strategy (dpor) and Sampling (tapct) are set"},
		{"no budget", []raveltest.Option{raveltest.Sampler(tapct), raveltest.Budget(explorer.Unlimited)}, "the tapct strategy never ends by itself: give it a budget with raveltest.Budget"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{TB: t}
			res := raveltest.Check(r, cellSystem(false), append(c.opts, raveltest.Dir(t.TempDir()))...)
			if !r.fatal || len(r.errors) != 1 || !strings.Contains(r.errors[0], c.want) || res != nil {
				t.Errorf("fatal %v, errors %q, result %+v; want one fatal error containing %q", r.fatal, r.errors, res, c.want)
			}
		})
	}
}
