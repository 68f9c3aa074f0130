package raveltest_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/workloads"
)

// workloadDescription is the failure header's description of the failing workload, as in
// "cell under workload all:ops=2,clients=2#5 (c0 → n0: Write(1) Read()): the history…".
func workloadDescription(header string) (string, bool) {
	_, rest, ok := strings.Cut(header, " under workload ")
	if !ok {
		return "", false
	}
	_, rest, ok = strings.Cut(rest, " (")
	if !ok {
		return "", false
	}
	desc, _, ok := strings.Cut(rest, "): ")
	return desc, ok
}

// headerOps parses a workload description, "c0 → n0: Write(1) Read(); c1 → n1: Read()",
// into each client's inputs.
func headerOps(desc string) map[string][]string {
	out := map[string][]string{}
	for _, part := range strings.Split(desc, "; ") {
		who, ops, _ := strings.Cut(part, ": ")
		client, _, _ := strings.Cut(who, " ")
		out[client] = strings.Fields(ops)
	}
	return out
}

// historyLine is one operation of a printed history: "  c0  Write(1)  ├──┤ ok".
var historyLine = regexp.MustCompile(`^\s+(c\d+)\s+(\S+)\s+├`)

// historyOps lists each client's inputs in the history section of a report.
func historyOps(text string) map[string][]string {
	out := map[string][]string{}
	in := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(l), "history"):
			in = true
		case in && strings.TrimSpace(l) == "":
			return out
		case in:
			if m := historyLine.FindStringSubmatch(l); m != nil {
				out[m[1]] = append(out[m[1]], m[2])
			}
		}
	}
	return out
}

// TestWorkloadHeaderNamesTheFailingWorkload: with three distinct inputs, one client's
// workloads of two operations on the buggy cell, the failing
// workload's description uses the harness's alphabet, which its operations index, so it
// names exactly the inputs the history shows (the workload's own system's alphabet lists
// only the inputs it uses, and indexing it panicked or named other inputs).
func TestWorkloadHeaderNamesTheFailingWorkload(t *testing.T) {
	for _, tc := range []struct {
		name    string
		harness *model.Harness
	}{
		// Alphabet Write(1) Write(2) Read(): the first failing workload is Write(1) Read(),
		// operations 0 and 2 of a workload alphabet of two.
		{"index past the workload's inputs", model.Clients(specs.Register(), model.Calls(0, specs.Write(1), specs.Write(2)), model.Calls(0, specs.Read()))},
		// Alphabet Read() Write(2) Write(1): the first failing workload is Write(2) Read(),
		// operations 1 and 0, which the workload's alphabet reads as Read() Write(2).
		{"inputs in another order", model.Clients(specs.Register(), model.Calls(0, specs.Read(), specs.Write(2)), model.Calls(0, specs.Write(1)))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := model.System{Name: "cell", Actors: []model.Actor{&cell{Buggy: true}}, Harness: tc.harness}
			r := &recorder{TB: t}
			raveltest.Check(r, sys, raveltest.Dir(t.TempDir()), raveltest.Workloads(workloads.Generator{Clients: 1, Ops: 2}))
			if len(r.errors) != 1 {
				t.Fatalf("errors %q, want one", r.errors)
			}
			first, _, _ := strings.Cut(r.errors[0], "\n")
			desc, ok := workloadDescription(first)
			if !ok {
				t.Fatalf("the first line names no workload:\n%s", first)
			}
			header, history := headerOps(desc), historyOps(r.errors[0])
			if len(history) == 0 {
				t.Fatalf("no history in the failure:\n%s", r.errors[0])
			}
			for c, ops := range history {
				if !slices.Equal(header[c], ops) {
					t.Errorf("header gives %s %v, history shows %v:\n%s", c, header[c], ops, r.errors[0])
				}
			}
		})
	}
}

// TestWorkloadsTooManyAreRefused: raveltest.Workloads refuses a generator of more
// workloads than the limit before generating any, as check --workloads does; it built
// them all in memory, without bound.
func TestWorkloadsTooManyAreRefused(t *testing.T) {
	sys := model.System{Name: "cell", Actors: []model.Actor{&cell{}}, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(0, specs.Read()))}
	r := &recorder{TB: t}
	raveltest.Check(r, sys, raveltest.Dir(t.TempDir()), raveltest.Workloads(workloads.Generator{Clients: 1000, Ops: 1000}))
	if !r.fatal || len(r.errors) != 1 || !strings.Contains(r.errors[0], "the limit is 100,000") {
		t.Errorf("fatal %v, errors %q; want one fatal error giving the limit", r.fatal, r.errors)
	}
}
