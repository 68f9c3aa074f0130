package live

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ravelmc/ravel/wgl"
)

var (
	kvnodeOnce sync.Once
	kvnodeBin  string
	kvnodeErr  error
)

// buildKVNode builds examples/kvnode once per test binary.
func buildKVNode(t *testing.T) string {
	t.Helper()
	kvnodeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ravel-kvnode-")
		if err != nil {
			kvnodeErr = err
			return
		}
		kvnodeBin = filepath.Join(dir, "kvnode")
		out, err := exec.Command("go", "build", "-o", kvnodeBin, "github.com/ravelmc/ravel/examples/kvnode").CombinedOutput()
		if err != nil {
			kvnodeErr = err
			kvnodeBin = string(out)
		}
	})
	if kvnodeErr != nil {
		t.Fatalf("go build examples/kvnode: %v\n%s", kvnodeErr, kvnodeBin)
	}
	return kvnodeBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if kvnodeBin != "" && kvnodeErr == nil {
		os.RemoveAll(filepath.Dir(kvnodeBin))
	}
	os.Exit(code)
}

func kvConfig(t *testing.T, sched string, stale bool) *Config {
	cmd := []string{buildKVNode(t), "-id={{.ID}}", "-client=127.0.0.1:{{.ClientPort}}", "-peer=127.0.0.1:{{.PeerPort}}",
		`-peers={{join .ProxyURLs ","}}`, "-data={{.DataDir}}"}
	if stale {
		cmd = append(cmd, "-stale-reads")
	}
	cfg := &Config{
		Nodes:     NodesConfig{Count: 3, Command: cmd, Health: "http://127.0.0.1:{{.ClientPort}}/health"},
		Network:   NetworkConfig{Protocol: "http", SenderHeader: "X-Ravel-From"},
		Workload:  WorkloadConfig{Clients: 3, Ops: 15, Keys: 2},
		Scheduler: SchedulerConfig{Type: sched},
		Faults:    FaultsConfig{Probability: 0.05, Drop: 3, Crash: 1, Partition: 1},
		Seed:      1,
		Output:    t.TempDir(),
	}
	if sched != "random" {
		cfg.Scheduler.Depth, cfg.Scheduler.Events = 3, 150
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestKVNodeEndToEnd runs Ravel's test cluster as real processes through the
// interceptors: with stale reads (the bug) some iteration within the budget gives a
// non-linearizable history; the correct service gives none. After every iteration no
// process it started is alive.
func TestKVNodeEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	for _, sched := range []string{"random", "pct"} {
		for _, stale := range []bool{true, false} {
			name := sched + "/correct"
			if stale {
				name = sched + "/stale-reads"
			}
			t.Run(name, func(t *testing.T) {
				cfg := kvConfig(t, sched, stale)
				cfg.Iterations = 3
				if stale {
					cfg.Iterations, cfg.StopOnViolation = 8, true
				}
				var log strings.Builder
				rep, err := Run(context.Background(), cfg, &log)
				t.Log(log.String())
				if err != nil {
					t.Fatal(err)
				}
				delivered, faults := 0, 0
				for _, ir := range rep.Iterations {
					if len(ir.Started) < 3 {
						t.Errorf("iteration %d started %d processes, want at least 3", ir.Run, len(ir.Started))
					}
					if len(ir.Leftover) > 0 {
						t.Errorf("iteration %d left %v alive", ir.Run, ir.Leftover)
					}
					if ir.Verdict == wgl.Unknown {
						t.Errorf("iteration %d: verdict unknown: %v", ir.Run, ir.Result.Err)
					}
					if ir.Ops == 0 {
						t.Errorf("iteration %d: empty history", ir.Run)
					}
					if ir.TimedOut {
						t.Errorf("iteration %d: marked cut by iteration_timeout, after %d of %d operations", ir.Run, ir.Ops, ir.Planned)
					}
					delivered += ir.Net.Delivered
					faults += ir.Faults.Drop + ir.Faults.Crash + ir.Faults.Partition
				}
				if delivered == 0 {
					t.Errorf("no message went through the interceptors")
				}
				if stale && rep.Violations == 0 {
					t.Errorf("stale reads: no violation in %d iterations", len(rep.Iterations))
				}
				if !stale && rep.Violations != 0 {
					t.Errorf("correct service: %d violations", rep.Violations)
				}
				if stale && rep.Violations > 0 {
					last := rep.Iterations[len(rep.Iterations)-1]
					b, err := os.ReadFile(filepath.Join(last.Dir, "verdict.txt"))
					if err != nil || !strings.Contains(string(b), "cannot follow") {
						t.Errorf("verdict.txt: %v\n%s", err, b)
					}
					t.Logf("%s", b)
				}
				if !stale && faults == 0 {
					t.Errorf("no fault injected in %d iterations", len(rep.Iterations))
				}
			})
		}
	}
}

func TestRunInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	cfg := kvConfig(t, "random", false)
	cfg.Workload.Ops = 1000
	ctx, cancel := context.WithCancel(context.Background())
	var started []int
	done := make(chan error)
	go func() {
		rep, err := Run(ctx, cfg, io.Discard)
		for _, ir := range rep.Iterations {
			started = append(started, ir.Started...)
		}
		done <- err
	}()
	// Cancel once the nodes answer clients: the workload has begun.
	for i := 0; ; i++ {
		b, _ := os.ReadFile(filepath.Join(cfg.Output, "iter-000", "n2.log"))
		if strings.Contains(string(b), "clients on") {
			break
		}
		if i == 4000 {
			cancel()
			t.Fatalf("node 2 never started serving (Run: %v)", <-done)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	if len(started) != 3 {
		t.Fatalf("started %v, want 3 pids", started)
	}
	if alive := Alive(started); len(alive) > 0 {
		t.Fatalf("after the interruption, alive: %v", alive)
	}
}

// TestReplay re-imposes the schedule of a violating iteration: most recorded steps find
// their message again, every recorded step is accounted for, and how often the violation
// reproduces is reported.
func TestReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	cfg := kvConfig(t, "random", true)
	cfg.Iterations, cfg.StopOnViolation = 8, true
	rep, err := Run(context.Background(), cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	last := rep.Iterations[len(rep.Iterations)-1]
	if last.Verdict != wgl.NotLinearizable {
		t.Fatalf("no violation to replay in %d iterations", len(rep.Iterations))
	}
	sched, err := LoadSchedule(filepath.Join(last.Dir, "schedule.json"))
	if err != nil {
		t.Fatal(err)
	}
	if sched.Run != last.Run || sched.Seed != cfg.Seed || len(sched.Steps) != len(last.Schedule.Steps) || len(sched.Steps) == 0 {
		t.Fatalf("schedule.json: run %d seed %d, %d steps; want run %d seed %d, %d steps",
			sched.Run, sched.Seed, len(sched.Steps), last.Run, cfg.Seed, len(last.Schedule.Steps))
	}
	cfg.Replay, cfg.Iterations, cfg.StopOnViolation = sched, 2, false
	rep, err = Run(context.Background(), cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for i, ir := range rep.Iterations {
		if ir.Run != sched.Run {
			t.Errorf("replay %d ran as iteration %d, want %d (the workload's stream)", i, ir.Run, sched.Run)
		}
		if ir.Followed+ir.Diverged > len(sched.Steps) || ir.Followed < len(sched.Steps)/2 {
			t.Errorf("replay %d: %d steps re-imposed, %d diverged, of %d recorded", i, ir.Followed, ir.Diverged, len(sched.Steps))
		}
		if len(ir.Leftover) > 0 {
			t.Errorf("replay %d left %v alive", i, ir.Leftover)
		}
	}
	t.Logf("the violation reproduced in %d of %d replays", rep.Violations, len(rep.Iterations))
}

// TestRunCutByIterationTimeout: a workload far longer than workload.iteration_timeout is
// stopped, and the iteration's report and line say it was cut and after how many of its
// operations; the iterations of the end-to-end test, which finish, are not marked.
func TestRunCutByIterationTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	cfg := kvConfig(t, "random", false)
	cfg.Workload.Ops, cfg.Workload.Iteration = 100000, 300*time.Millisecond
	var log strings.Builder
	rep, err := Run(context.Background(), cfg, &log)
	if err != nil {
		t.Fatal(err)
	}
	ir := rep.Iterations[0]
	if !ir.TimedOut || ir.Planned != 300000 || ir.Ops >= ir.Planned {
		t.Errorf("cut %v after %d of %d operations, want cut before the 300,000 planned", ir.TimedOut, ir.Ops, ir.Planned)
	}
	if want := "cut by workload.iteration_timeout (300ms) after "; !strings.Contains(log.String(), want) {
		t.Errorf("line lacks %q:\n%s", want, log.String())
	}
}

// TestKeepData: a passing iteration's node data directories are removed by default
// (its logs, events, schedule and history kept), and kept with keep_data: all. Every
// iteration used to keep them (367 MB an etcd iteration).
func TestKeepData(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	for _, keep := range []string{"", "all"} {
		t.Run("keep_data="+keep, func(t *testing.T) {
			cfg := kvConfig(t, "random", false)
			cfg.KeepData = keep
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			rep, err := Run(context.Background(), cfg, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			ir := rep.Iterations[0]
			if ir.Verdict != wgl.Linearizable {
				t.Fatalf("verdict %v, want linearizable", ir.Verdict)
			}
			for _, f := range []string{"n0.log", "events.txt", "schedule.json", "history.txt", "verdict.txt"} {
				if _, err := os.Stat(filepath.Join(ir.Dir, f)); err != nil {
					t.Errorf("%s: %v", f, err)
				}
			}
			_, err = os.Stat(filepath.Join(ir.Dir, "n0"))
			if kept := err == nil; kept != (keep == "all") {
				t.Errorf("keep_data %q: n0/ kept %v", keep, kept)
			}
		})
	}
}
