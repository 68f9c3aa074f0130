package ravelcli

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/systems/register"
)

// TestRaveltestFileRecordsTheRun: the file raveltest saves after a sampler run records
// the run as ravel check --out records the same run — seed, dependence, budgets —
// field by field, apart from those listed, which differ honestly (probe S13: raveltest
// recorded seed 0, max_depth 0 and no dependence, for a run of seed 1).
func TestRaveltestFileRecordsTheRun(t *testing.T) {
	dir := t.TempDir()
	cliPath := filepath.Join(dir, "cli.json")
	if code, _, stderr := runRavel("check", "register-buggy", "--strategy", "tapct", "--depth", "2", "--seed", "3", "--max-schedules", "200", "--quiet", "--out", cliPath); code != exitViolation {
		t.Fatalf("check: exit %d, want %d: %s", code, exitViolation, stderr)
	}
	cli, _, err := report.ReadFile(cliPath)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := register.NewBuggy(3, register.HarnessNames[0])
	if err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(dir, "corpus")
	r := &failRecorder{TB: t}
	raveltest.Check(r, sys, raveltest.Dir(corpus), raveltest.Sampler(samplers.TaPCT(samplers.Options{Depth: 2})), raveltest.Seed(3), raveltest.Budget(200))
	files, _ := filepath.Glob(filepath.Join(corpus, "*.json"))
	if !r.Failed() || len(files) != 1 {
		t.Fatalf("raveltest: errors %q, files %v; want a violation saved", r.errors, files)
	}
	rt, _, err := report.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	// raveltest sees a system, not a harness name: it records the clients instead, which
	// check --out records too.
	if cli.Run.Harness != register.HarnessNames[0] || rt.Run.Harness != "" || rt.Run.Clients != cli.Run.Clients {
		t.Errorf("harness %q and %q, clients %q and %q; want %q and none, the same clients", cli.Run.Harness, rt.Run.Harness, cli.Run.Clients, rt.Run.Clients, register.HarnessNames[0])
	}
	differ := map[string]bool{"Harness": true}
	want, got := reflect.ValueOf(cli.Run), reflect.ValueOf(rt.Run)
	for i := range want.NumField() {
		name := want.Type().Field(i).Name
		if differ[name] {
			continue
		}
		if w, g := want.Field(i).Interface(), got.Field(i).Interface(); !reflect.DeepEqual(w, g) {
			t.Errorf("run %s: check --out records %v, raveltest %v", name, w, g)
		}
	}
	if rt.Run.Seed != 3 || rt.Run.Dependence != "actor" || rt.Run.MaxDepth != explorer.DefaultMaxDepth {
		t.Errorf("raveltest recorded seed %d, dependence %q, max depth %d; want 3, actor, %d", rt.Run.Seed, rt.Run.Dependence, rt.Run.MaxDepth, explorer.DefaultMaxDepth)
	}
	// The same run found the same violation.
	if !reflect.DeepEqual(cli.Violation, rt.Violation) {
		t.Errorf("violations differ:\ncheck --out %+v\nraveltest   %+v", cli.Violation, rt.Violation)
	}
}

// TestNeverEndsIsExplorersMessage: check refuses a sampler without a budget with the
// explorer's words, the ones raveltest shows.
func TestNeverEndsIsExplorersMessage(t *testing.T) {
	code, _, stderr := runRavel("check", "register-buggy", "--strategy", "tapct", "--max-schedules", "0", "--quiet")
	if want := explorer.NeverEnds("tapct", "--max-schedules").Error(); code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, want)
	}
}
