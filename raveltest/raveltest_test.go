package raveltest_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/leader"
	"github.com/ravelmc/ravel/systems/register"
	"github.com/ravelmc/ravel/workloads"
)

// recorder is a testing.TB that records failures instead of failing the real test, so
// that a test can check what Check does to a failing test.
type recorder struct {
	testing.TB
	errors []string
	logs   []string
	fatal  bool
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = true
	r.Errorf(format, args...)
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *recorder) Failed() bool { return len(r.errors) > 0 }

// cell is a one-actor register; the buggy one answers a read with the value before the
// last write. Both send exactly the same messages, so a schedule found on the buggy one
// replays on the fixed one.
type cell struct {
	Buggy       bool
	Value, Prev int
}

func (c *cell) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.RegisterInput])
	if m.Input.Write {
		c.Prev, c.Value = c.Value, m.Input.Value
		ctx.Respond(m.ID, specs.WriteOK())
		return
	}
	v := c.Value
	if c.Buggy {
		v = c.Prev
	}
	ctx.Respond(m.ID, specs.ReadOK(v))
}

func cellSystem(buggy bool) model.System {
	return model.System{
		Name:   "cell",
		Actors: []model.Actor{&cell{Buggy: buggy}},
		Harness: model.Clients(specs.Register(),
			model.Calls(0, specs.Write(1), specs.Read()),
			model.Calls(0, specs.Write(2)),
		),
	}
}

func TestCheckSavesAndReplays(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")

	// A buggy system: the check fails and saves the counterexample.
	r1 := &recorder{TB: t}
	res := raveltest.Check(r1, cellSystem(true), raveltest.Dir(dir))
	if !r1.Failed() || res == nil || res.First == nil {
		t.Fatalf("check of the buggy cell: failed %v, result %+v; want a failure with a violation", r1.Failed(), res)
	}
	if !strings.Contains(r1.errors[0], "not linearizable") || !strings.Contains(r1.errors[0], "→ c0 invokes Read(); c0 Read() returns") {
		t.Errorf("failure message lacks the verdict or the marked history:\n%s", r1.errors[0])
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("saved files: %v, want 1", files)
	}
	f, _, err := report.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(f.Violation.Steps), len(res.First.Steps); got != want {
		t.Errorf("saved schedule has %d steps, want %d", got, want)
	}

	// Still buggy: the saved counterexample fails first, and nothing is explored.
	r2 := &recorder{TB: t}
	if res := raveltest.Check(r2, cellSystem(true), raveltest.Dir(dir)); res != nil {
		t.Errorf("explored although a saved counterexample failed")
	}
	if len(r2.errors) != 1 || !strings.Contains(r2.errors[0], "saved counterexample") || !strings.Contains(r2.errors[0], "still fails") {
		t.Errorf("second run's failures: %q, want one about the saved counterexample", r2.errors)
	}

	// Fixed: the replay passes and the exploration finds nothing.
	r3 := &recorder{TB: t}
	res = raveltest.Check(r3, cellSystem(false), raveltest.Dir(dir))
	if r3.Failed() || res == nil || res.First != nil || !res.Complete {
		t.Errorf("check of the fixed cell: errors %q, result %+v; want a complete pass", r3.errors, res)
	}

	// The oracle: a stateless replay of the saved schedule on the fixed system gives a
	// complete history, so the replay above really ran it.
	ids, err := f.Violation.IDs()
	if err != nil {
		t.Fatal(err)
	}
	ex, err := explorer.Replay(cellSystem(false), ids, false)
	if err != nil || len(ex.Events) != len(f.Violation.History.Events) {
		t.Errorf("replay on the fixed cell: %v, %d events, want %d", err, len(ex.Events), len(f.Violation.History.Events))
	}
}

func TestCheckReportsBadCorpusFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "junk.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	raveltest.Check(r, cellSystem(false), raveltest.Dir(dir))
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "not a violation file") {
		t.Errorf("errors %q, want one naming the bad file", r.errors)
	}
}

func TestCheckDefaultDirIsPerTest(t *testing.T) {
	wd, _ := os.Getwd()
	tmp := t.TempDir()
	if err := os.Chdir(tmp); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	r := &recorder{TB: t}
	raveltest.Check(r, cellSystem(true))
	files, _ := filepath.Glob(filepath.Join(tmp, "testdata", "ravel", "TestCheckDefaultDirIsPerTest", "*.json"))
	if len(files) != 1 {
		t.Errorf("files under testdata/ravel/<test>: %v, want 1", files)
	}
}

func TestShortBudget(t *testing.T) {
	r := &recorder{TB: t}
	res := raveltest.Check(r, cellSystem(false), raveltest.Budget(1), raveltest.Dir(t.TempDir()))
	if res == nil || res.Stats.Schedules != 1 || res.Complete {
		t.Errorf("budget 1: %+v, want 1 schedule and an incomplete search", res)
	}
}

func (r *recorder) Helper() {}
func (r *recorder) Name() string {
	if r.TB == nil {
		return "Example"
	}
	return r.TB.Name()
}

func TestCheckWorkloads(t *testing.T) {
	dir := t.TempDir()
	gen := workloads.Generator{Clients: 2, Ops: 3}
	r := &recorder{TB: t}
	raveltest.Check(r, cellSystem(true), raveltest.Dir(dir), raveltest.Workloads(gen))
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "under workload all:ops=3,clients=2#") {
		t.Fatalf("errors %q, want one naming the workload", r.errors)
	}
	// The saved counterexample is replayed under its workload: it still fails…
	r = &recorder{TB: t}
	raveltest.Check(r, cellSystem(true), raveltest.Dir(dir), raveltest.Workloads(gen), raveltest.ReplayOnly())
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "still fails") {
		t.Errorf("replay on the buggy cell: errors %q, want one", r.errors)
	}
	// …and passes once fixed, as does every workload.
	r = &recorder{TB: t}
	res := raveltest.Check(r, cellSystem(false), raveltest.Dir(dir), raveltest.Workloads(gen))
	if r.Failed() || res == nil || res.Stats.Schedules == 0 {
		t.Errorf("fixed cell: errors %q, result %+v", r.errors, res)
	}
	for _, l := range r.logs {
		if strings.Contains(l, "no longer applies") {
			t.Errorf("the saved counterexample did not replay: %q", l)
		}
	}
}

// TestWorkloadFileUnderOtherWorkloads: a counterexample saved under a generated workload
// is replayed only by a test that generates that workload; a test without Workloads, or
// with others, refuses it naming the workload and what the test checks, as a file of
// another harness is refused (docs probe: such a file was replayed, and failed a test
// that never asked for its clients).
func TestWorkloadFileUnderOtherWorkloads(t *testing.T) {
	dir := t.TempDir()
	gen := workloads.Generator{Clients: 2, Ops: 3}
	r := &recorder{TB: t}
	raveltest.Check(r, cellSystem(true), raveltest.Dir(dir), raveltest.Workloads(gen))
	if len(r.errors) != 1 {
		t.Fatalf("errors %q, want one violation saved", r.errors)
	}
	for _, tc := range []struct {
		name string
		opts []raveltest.Option
		want []string
	}{
		{"same workloads", []raveltest.Option{raveltest.Workloads(gen)}, []string{"still fails"}},
		{"no workloads", nil, []string{"cannot be replayed", "found under the workload all:ops=3,clients=2#", "the test checks its harness \"spec "}},
		{"other workloads", []raveltest.Option{raveltest.Workloads(workloads.Generator{Clients: 2, Ops: 2})}, []string{"cannot be replayed", "found under the workload all:ops=3,clients=2#", "the test checks the workloads all:ops=2,clients=2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			raveltest.Check(r, cellSystem(true), append(tc.opts, raveltest.Dir(dir), raveltest.ReplayOnly())...)
			if len(r.errors) != 1 {
				t.Fatalf("errors %q, want one", r.errors)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.errors[0], w) {
					t.Errorf("error %q does not say %q", r.errors[0], w)
				}
			}
		})
	}
}

// TestShortFlagGivesTheShortBudget: under -short, with no Budget option, the search stops
// at ShortBudget schedules (register 2r2w has 4,204,200).
func TestShortFlagGivesTheShortBudget(t *testing.T) {
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
	res := raveltest.Check(r, sys, raveltest.Dir(t.TempDir()))
	if r.Failed() || res == nil || res.Stats.Schedules != raveltest.ShortBudget || res.Complete {
		t.Errorf("under -short: errors %q, result %+v; want %d schedules, incomplete", r.errors, res, raveltest.ShortBudget)
	}
}

// TestStateCaching: StateCaching(true) turns caching on and leaves the other defaults as
// they are — a violation is still shrunk, as it is with no options, where Options with
// caching alone would turn the shrinking off — and with stateful DPOR the check completes
// on a system whose state space has cycles (within a budget the stateless search would
// spend on its first cycles, so the test ends either way).
func TestStateCaching(t *testing.T) {
	buggy, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts []raveltest.Option
	}{
		{"exhaustive", []raveltest.Option{raveltest.StateCaching(true)}},
		{"dpor", []raveltest.Option{raveltest.StateCaching(true), raveltest.Strategy(dpor.Optimal(dpor.History()))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{TB: t}
			res := raveltest.Check(r, buggy, append(c.opts, raveltest.Dir(t.TempDir()))...)
			if res == nil || res.First == nil || len(r.errors) != 1 {
				t.Fatalf("register-buggy: %d failures, result %+v; want one violation", len(r.errors), res)
			}
			if res.Stats.States == 0 {
				t.Errorf("no state counted: caching is off")
			}
			if !strings.Contains(r.errors[0], "minimized from") {
				t.Errorf("the violation was not shrunk:\n%s", r.errors[0])
			}
		})
	}
	t.Run("cycles", func(t *testing.T) {
		sys, err := leader.New(3, "1rw")
		if err != nil {
			t.Fatal(err)
		}
		res := raveltest.Check(t, sys, raveltest.StateCaching(true), raveltest.Strategy(dpor.Optimal(dpor.History())), raveltest.Budget(10_000), raveltest.Dir(t.TempDir()))
		if !res.Complete || res.Stats.Cut != 0 {
			t.Errorf("leader 1rw: complete %v, %d cut schedules; want complete with none cut", res.Complete, res.Stats.Cut)
		}
	})
}
