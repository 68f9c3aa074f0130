package ravelcli

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ravelmc/ravel/live"
)

// writeConfig writes a config file in a directory of its own, with a node script there.
func writeConfig(t *testing.T, yaml, script string) string {
	t.Helper()
	dir := t.TempDir()
	if script != "" {
		if err := os.WriteFile(filepath.Join(dir, "node.sh"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "ravel.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// pidScript records its pid in its data directory, then waits without ever serving.
const pidScript = "#!/bin/sh\necho $$ > \"$1/pid\"\nexec sleep 600\n"

func TestRunBadConfigs(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port
	cases := []struct {
		name, yaml, script, want string
	}{
		{"malformed YAML", "nodes: [count: 3\n", "", "malformed YAML"},
		{"unknown field", "nodes:\n  count: 3\n  comand: [./node.sh]\n", "", `line 3: unknown key "comand" in nodes (valid: count, command,`},
		{"missing script", "nodes:\n  count: 3\n  command: [./missing.sh]\n", "", "nodes.command[0]: "},
		{"no command", "nodes:\n  count: 3\n", "", "nodes.command: missing"},
		{"bad count", "nodes:\n  count: 0\n  command: [./node.sh]\n", pidScript, "nodes.count"},
		{"bad scheduler", "nodes:\n  count: 1\n  command: [./node.sh]\nscheduler:\n  type: fifo\n", pidScript, "scheduler.type"},
		{"negative duration", "nodes:\n  count: 1\n  command: [./node.sh]\nworkload:\n  op_timeout: -1s\n", pidScript, "config: workload.op_timeout: must not be negative (got -1s)"},
		{"bad duration", "nodes:\n  count: 1\n  command: [./node.sh]\n  start_timeout: soon\n", pidScript, "nodes.start_timeout: write a duration such as 5s or 500ms (got soon)"},
		{"port in use", fmt.Sprintf("nodes:\n  count: 1\n  command: [./node.sh, '{{.DataDir}}']\n  base_port: %d\n", busyPort), pidScript, "nodes.base_port: port " + strconv.Itoa(busyPort)},
		{"never healthy", "nodes:\n  count: 2\n  command: [./node.sh, '{{.DataDir}}']\n  health: 'http://127.0.0.1:{{.ClientPort}}/health'\n  start_timeout: 300ms\noutput: out\n", pidScript, "nodes.health: node 0 never became healthy within 300ms"},
		{"exits at once", "nodes:\n  count: 1\n  command: [/bin/sh, -c, 'echo boom; exit 7']\n  start_timeout: 5s\noutput: out\n", "", "nodes.command: node 0 exited before becoming healthy (exit status 7)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeConfig(t, c.yaml, c.script)
			var stdout, stderr bytes.Buffer
			code := run([]string{"run", path}, &stdout, &stderr)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr: %s", code, exitUsage, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), c.want)
			}
			if strings.Contains(stderr.String(), "goroutine") {
				t.Errorf("panic trace: %s", stderr.String())
			}
			// Whatever was started was stopped: every pid a node recorded is dead.
			pids, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "out", "iter-*", "n*", "pid"))
			for _, p := range pids {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
				if err != nil {
					t.Fatal(err)
				}
				if alive := live.Alive([]int{pid}); len(alive) > 0 {
					t.Errorf("node process %d is still alive", pid)
				}
			}
			if c.name == "never healthy" && len(pids) != 2 {
				t.Errorf("never healthy: %d nodes recorded their pid, want 2", len(pids))
			}
		})
	}
}

// TestRunKVNode runs examples/kvnode/ravel.yaml's setup (stale reads on) through the
// command: it finds the violation (exit 1) and reports the counts.
func TestRunKVNode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	path := kvnodeConfig(t)
	dir := filepath.Dir(path)
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "--iterations", "8", "--seed", "3", path}, &stdout, &stderr)
	if code != exitViolation {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitViolation, stdout.String(), stderr.String())
	}
	for _, want := range []string{"not-linearizable", "intercepted", "cannot follow", "seed 3"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ravel-out", "iter-000", "history.txt")); err != nil {
		t.Error(err)
	}
}

// TestRunCtrlC interrupts the ravel command with SIGINT in the middle of a workload: it
// exits 130 and no node process is left.
func TestRunCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	dir := t.TempDir()
	for _, pkg := range []string{"cmd/ravel", "examples/kvnode"} {
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, filepath.Base(pkg)), "github.com/ravelmc/ravel/"+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	// The node script records its pid, then becomes kvnode.
	script := "#!/bin/sh\necho $$ > \"$1/pid\"\nshift\nexec \"$(dirname \"$0\")/kvnode\" \"$@\"\n"
	yaml := `nodes:
  count: 3
  command: [./node.sh, "{{.DataDir}}", "-id={{.ID}}", "-client=127.0.0.1:{{.ClientPort}}", "-peer=127.0.0.1:{{.PeerPort}}", '-peers={{join .ProxyURLs ","}}', "-data={{.DataDir}}"]
  health: http://127.0.0.1:{{.ClientPort}}/health
network:
  sender_header: X-Ravel-From
workload:
  ops: 100000
  think_time: 5ms
output: out
`
	path := writeConfig(t, yaml, script)
	if err := os.Rename(filepath.Join(dir, "kvnode"), filepath.Join(filepath.Dir(path), "kvnode")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(dir, "ravel"), "run", path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	pidFiles := func() []string {
		m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "out", "iter-000", "n*", "pid"))
		return m
	}
	for i := 0; len(pidFiles()) < 3; i++ {
		if i == 2000 {
			t.Fatalf("the nodes never started\nstderr: %s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // into the workload
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("ravel run after SIGINT: %v, want exit %d\nstdout: %s\nstderr: %s", err, exitInterrupted, stdout.String(), stderr.String())
	}
	for _, p := range pidFiles() {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		if alive := live.Alive([]int{pid}); len(alive) > 0 {
			t.Errorf("node process %d is alive after the interrupt", pid)
		}
	}
}

// kvnodeConfig builds examples/kvnode into a directory of its own and writes there a copy
// of its ravel.yaml (stale reads on) with each old string replaced by its new one.
func kvnodeConfig(t *testing.T, replace ...string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "kvnode"), "github.com/ravelmc/ravel/examples/kvnode").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	b, err := os.ReadFile("../examples/kvnode/ravel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yaml := string(b)
	for i := 0; i+1 < len(replace); i += 2 {
		if !strings.Contains(yaml, replace[i]) {
			t.Fatalf("examples/kvnode/ravel.yaml lacks %q", replace[i])
		}
		yaml = strings.ReplaceAll(yaml, replace[i], replace[i+1])
	}
	path := filepath.Join(dir, "ravel.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunOutputUsedBefore: ravel run sets aside the iter-NNN directories an earlier run
// left in its output directory, says so in one line, and leaves anything else; here
// the node exits at once, so they are put back. An --out that is a file is refused
// before anything starts. The stale directories used to stay beside the new ones, a
// file gave "unlinkat …/iter-000: not a directory", and a node that failed to start
// lost the earlier run's results.
func TestRunOutputUsedBefore(t *testing.T) {
	path := writeConfig(t, "nodes:\n  count: 1\n  command: [/bin/sh, -c, 'exit 7']\n  start_timeout: 5s\noutput: out\n", "")
	out := filepath.Join(filepath.Dir(path), "out")
	for _, d := range []string{"iter-003", "iter-004", "mine"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "ro.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		args       []string
		wantStderr string
		wantStdout bool
	}{
		{"stale iterations", []string{"run", path}, "run: replacing what an earlier run left in " + out + ": iter-003 iter-004 (kept if this run's nodes fail to start)\n", true},
		{"--out a file", []string{"run", "--out", file, path}, "run: --out " + file + ": not a directory", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, &stdout, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d (the node exits at once)", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tc.wantStderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.wantStderr)
			}
			if got := stdout.Len() > 0; got != tc.wantStdout {
				t.Errorf("stdout %q; want something: %v", stdout.String(), tc.wantStdout)
			}
		})
	}
	for _, name := range []string{"iter-000", "iter-003", "iter-004", "mine"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("%s: %v, want kept", name, err)
		}
	}
}

// TestRunPortInUseKeepsResults: a base_port in use is refused before the earlier run's
// iterations are removed. They used to be removed first, and the run then failed.
func TestRunPortInUseKeepsResults(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	path := writeConfig(t, fmt.Sprintf("nodes:\n  count: 1\n  command: [/bin/sh, -c, 'sleep 1']\n  base_port: %d\noutput: out\n", port), "")
	old := filepath.Join(filepath.Dir(path), "out", "iter-000")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, "schedule.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", path}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "nodes.base_port") {
		t.Errorf("exit %d, stderr %q; want 2 naming nodes.base_port", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(old, "schedule.json")); err != nil {
		t.Errorf("the earlier run's iter-000: %v, want kept", err)
	}
}

// TestRunNothingChecked: a run in which no iteration completed an operation (here every
// operation times out) checked nothing, so it does not pass: exit 2 with a one-line
// reason, after each iteration's line and a warning naming the likely cause. Such runs
// used to print "linearizable" and exit 0.
func TestRunNothingChecked(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	path := kvnodeConfig(t, "op_timeout: 1s", "op_timeout: 1ns", "iterations: 5", "iterations: 2")
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "--quiet", path}, &stdout, &stderr)
	if code != exitUsage {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitUsage, stdout.String(), stderr.String())
	}
	if want := "ravel: run: no iteration completed an operation, so nothing was checked (see the warnings above)\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	for _, want := range []string{"iteration 0: warning: no operation completed", "iteration 1: warning: no operation completed", "workload.op_timeout (1ns)", "total: 2 iterations"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestRunOutputLocked: a second run into an output directory a live run holds is
// refused, naming the holder's pid, and removes nothing; a lock left by a process that
// no longer runs is taken over, and the run releases it at its end. The second run used
// to remove the first's iterations under it.
func TestRunOutputLocked(t *testing.T) {
	path := writeConfig(t, "nodes:\n  count: 1\n  command: [/bin/sh, -c, 'exit 7']\n  start_timeout: 5s\noutput: out\n", "")
	out := filepath.Join(filepath.Dir(path), "out")
	if err := os.MkdirAll(filepath.Join(out, "iter-000"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A live holder: this test process (as a first run in the same process would be).
	release, err := live.LockOutput(&live.Config{Output: out})
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", path}, &stdout, &stderr)
	want := fmt.Sprintf("run: output folder %s is in use by another ravel run (pid %d)", out, os.Getpid())
	if code != exitUsage || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want %d with %q", code, stderr.String(), exitUsage, want)
	}
	if _, err := os.Stat(filepath.Join(out, "iter-000")); err != nil {
		t.Errorf("the holder's iter-000: %v, want kept", err)
	}
	release()
	// A stale lock: the pid of a process that has ended.
	dead := exec.Command("/bin/true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, live.LockName), []byte(strconv.Itoa(dead.Process.Pid)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"run", path}, &stdout, &stderr)
	if strings.Contains(stderr.String(), "in use") || !strings.Contains(stderr.String(), "exited before becoming healthy") {
		t.Errorf("exit %d, stderr %q; want the stale lock taken over and the node's failure reported", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, live.LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock after the run: %v, want removed", err)
	}
}
