package live

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nodeScript counts its starts in its data directory, starts a child of its own (which
// a crash must take too) and records the child's pid, then waits.
const nodeScript = `#!/bin/sh
n=$(cat starts 2>/dev/null || echo 0)
echo $((n+1)) > starts
sleep 600 &
echo "node up"
echo $! > child.pid
wait
`

func writeScript(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "node.sh")
	if err := os.WriteFile(path, []byte(nodeScript), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// waitFile waits for path to hold a line and returns it.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	for range 2000 {
		b, err := os.ReadFile(path)
		if err == nil && strings.HasSuffix(string(b), "\n") {
			return strings.TrimSpace(string(b))
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s never written", path)
	return ""
}

func TestProcsCrashRestartStop(t *testing.T) {
	script := writeScript(t)
	dir := t.TempDir()
	var cmds []NodeCommand
	for i := range 2 {
		d := filepath.Join(dir, "n"+strconv.Itoa(i))
		cmds = append(cmds, NodeCommand{Argv: []string{script}, DataDir: d, LogPath: d + ".log"})
	}
	p := NewProcs(cmds)
	t.Cleanup(func() { p.Stop() })
	for i := range 2 {
		if err := p.Start(i); err != nil {
			t.Fatal(err)
		}
	}
	childOf := func(i int) int {
		pid, err := strconv.Atoi(waitFile(t, filepath.Join(cmds[i].DataDir, "child.pid")))
		if err != nil {
			t.Fatal(err)
		}
		return pid
	}
	c0 := childOf(0)
	pid0 := p.Pid(0)
	if got := Alive([]int{pid0, c0}); len(got) != 2 {
		t.Fatalf("Alive(node 0 and its child) = %v, want both", got)
	}
	if err := p.Crash(0); err != nil {
		t.Fatal(err)
	}
	if got := Alive([]int{pid0, c0}); len(got) != 0 {
		t.Fatalf("after crash, alive: %v, want none", got)
	}
	if p.Running(0) || !p.Running(1) {
		t.Fatalf("Running = %v %v, want false true", p.Running(0), p.Running(1))
	}
	os.Remove(filepath.Join(cmds[0].DataDir, "child.pid"))
	if err := p.Restart(0); err != nil {
		t.Fatal(err)
	}
	childOf(0)
	if got := waitFile(t, filepath.Join(cmds[0].DataDir, "starts")); got != "2" {
		t.Fatalf("starts in node 0's data directory = %s, want 2 (restart on the same directory)", got)
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	pids := p.Started()
	if len(pids) != 3 {
		t.Fatalf("started %d processes, want 3", len(pids))
	}
	for i := range 2 {
		pids = append(pids, childOf(i))
	}
	if got := Alive(pids); len(got) != 0 {
		t.Fatalf("after Stop, alive: %v (of %v)", got, pids)
	}
	if err := p.Start(0); err == nil {
		t.Fatal("Start after Stop succeeded")
	}
	log, err := os.ReadFile(cmds[0].LogPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "node up"); n != 2 {
		t.Fatalf("node 0's log has %d lines from the node, want 2:\n%s", n, log)
	}
	// The crash is logged as one, the end's stop as a stop (it used to read "crash" too).
	for i, want := range []struct{ crash, stop int }{{1, 1}, {0, 1}} {
		b, err := os.ReadFile(cmds[i].LogPath)
		if err != nil {
			t.Fatal(err)
		}
		crash := strings.Count(string(b), "=== ravel: crash node "+strconv.Itoa(i))
		stop := strings.Count(string(b), "=== ravel: stop node "+strconv.Itoa(i))
		if crash != want.crash || stop != want.stop {
			t.Errorf("node %d's log: %d crash and %d stop lines, want %d and %d:\n%s", i, crash, stop, want.crash, want.stop, b)
		}
	}
}

func TestProcsExited(t *testing.T) {
	p := NewProcs([]NodeCommand{{Argv: []string{"/bin/sh", "-c", "exit 3"}, DataDir: t.TempDir()}})
	t.Cleanup(func() { p.Stop() })
	if err := p.Start(0); err != nil {
		t.Fatal(err)
	}
	for !func() bool { _, ok := p.Exited(0); return ok }() {
		time.Sleep(time.Millisecond)
	}
	err, _ := p.Exited(0)
	if err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("Exited = %v, want exit status 3", err)
	}
}

func TestProcsMissingProgram(t *testing.T) {
	p := NewProcs([]NodeCommand{{Argv: []string{filepath.Join(t.TempDir(), "missing")}}})
	defer p.Stop()
	if err := p.Start(0); err == nil {
		t.Fatal("Start of a missing program succeeded")
	}
	if len(p.Started()) != 0 {
		t.Fatalf("Started = %v, want none", p.Started())
	}
}
