package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/workloads"
)

// TestWorkloadsInvalidGeneratorFails: a Generator that makes no workload — a zero or
// negative Ops or Clients, a random one without N — fails the test with the command
// line's words (probe: every such check passed on a buggy system, Schedules 0 and
// Complete true).
func TestWorkloadsInvalidGeneratorFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    workloads.Generator
		want string
	}{
		{"no clients", workloads.Generator{Clients: 0, Ops: 3}, "clients must be at least 1, got 0"},
		{"no ops", workloads.Generator{Clients: 2, Ops: 0}, "ops must be at least 1, got 0"},
		{"zero", workloads.Generator{}, "ops must be at least 1, got 0"},
		{"negative", workloads.Generator{Clients: -1, Ops: -1}, "ops must be at least 1, got -1"},
		{"random without n", workloads.Generator{Random: true, Clients: 2, Ops: 3}, "random:n=0,ops=3,clients=2,seed=0: n must be at least 1, got 0"},
		{"random, negative n", workloads.Generator{Random: true, N: -5, Clients: 2, Ops: 3}, "n must be at least 1, got -5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			res := raveltest.Check(r, cellSystem(true), raveltest.Dir(t.TempDir()), raveltest.Workloads(tc.g))
			if !r.fatal || len(r.errors) != 1 || !strings.Contains(r.errors[0], tc.want) || res != nil {
				t.Errorf("fatal %v, errors %q, result %+v; want one fatal error containing %q", r.fatal, r.errors, res, tc.want)
			}
		})
	}
}
