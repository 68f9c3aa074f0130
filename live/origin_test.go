package live

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/wgl"
)

// TestRunTimeOrigins: events.txt counts from the iteration's start, the histories from
// the workload's; events.txt marks the workload's start, and history.txt's header and
// schedule.json's workload_start_ms say where it is in events.txt's time, so that an
// operation lines up with the faults around it. Neither file said so, and the offset (seconds on etcd) had to be guessed.
func TestRunTimeOrigins(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	cfg := kvConfig(t, "random", false)
	rep, err := Run(context.Background(), cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ir := rep.Iterations[0]
	if ir.WorkloadStart <= 0 {
		t.Fatalf("WorkloadStart %v, want after the iteration's start", ir.WorkloadStart)
	}
	at := fmt.Sprintf("%.3fms", float64(ir.WorkloadStart.Microseconds())/1000)
	ev, err := os.ReadFile(filepath.Join(ir.Dir, "events.txt"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range strings.Split(string(ev), "\n") {
		if strings.Contains(l, " workload starts: the histories' times") {
			found = true
			if !strings.Contains(l, " "+at+" ") {
				t.Errorf("events.txt: %q, want it at %s", l, at)
			}
		}
	}
	if !found {
		t.Errorf("events.txt has no workload start line:\n%s", ev)
	}
	sched, err := LoadSchedule(filepath.Join(ir.Dir, "schedule.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%.3fms", sched.WorkloadStartMs); got != at {
		t.Errorf("schedule.json's workload_start_ms %s, want %s", got, at)
	}
	h, err := os.ReadFile(filepath.Join(ir.Dir, "history.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# times in ns since the workload began, " + at + " into the iteration"; !strings.HasPrefix(string(h), want) {
		t.Errorf("history.txt begins %q, want %q", strings.SplitN(string(h), "\n", 2)[0], want)
	}
}

// TestRunKeepsLittleInMemory: the report keeps an iteration's history and steps only
// for the last iteration (and the first violation); the others' are on disk. Every
// iteration's used to stay in memory, growing with the session.
func TestRunKeepsLittleInMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	cfg := kvConfig(t, "random", false)
	cfg.Iterations, cfg.Workload.Ops = 3, 5
	rep, err := Run(context.Background(), cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for i, ir := range rep.Iterations {
		if ir.Verdict != wgl.Linearizable {
			t.Fatalf("iteration %d: %s", i, ir.Verdict)
		}
		kept := ir.History != nil || ir.Schedule.Steps != nil
		if last := i == len(rep.Iterations)-1; kept != last || ir.Ops == 0 {
			t.Errorf("iteration %d: history kept %v (%d operations), want kept only for the last", i, kept, ir.Ops)
		}
	}
}
