//go:build unix

package ravelcli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ravelmc/ravel/live"
)

// TestRunCtrlCAfterViolation interrupts a run that has found a violation and goes on
// (stop_on_violation: false): it prints its total line, marked interrupted, and the
// violation, and exits 1 as check does; it used to exit 130 with no summary.
func TestRunCtrlCAfterViolation(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	path := kvnodeConfig(t, "stop_on_violation: true", "stop_on_violation: false", "iterations: 5", "iterations: 1000")
	outFile := filepath.Join(t.TempDir(), "stdout")
	f, err := os.Create(outFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(ravelBinary(t), "run", "--seed", "3", path)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = f, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Wait for the first violation; the fallback only keeps a broken run from hanging.
	for i := 0; ; i++ {
		b, err := os.ReadFile(outFile)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "): not-linearizable") {
			break
		}
		if i == 6000 {
			t.Fatalf("no violation found after a minute; stdout:\n%s", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	b, rerr := os.ReadFile(outFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	stdout := string(b)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitViolation {
		t.Fatalf("ravel run after a violation and SIGINT: %v, want exit %d\nstdout: %s\nstderr: %s", err, exitViolation, stdout, stderr.String())
	}
	for _, want := range []string{"total: ", " (then interrupted), ", "violation in iteration ", "cannot follow"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr.String(), "run interrupted; every process stopped") {
		t.Errorf("stderr %q does not say the run was interrupted", stderr.String())
	}
}

// TestRunSignalBeforeClear: a SIGTERM that arrives while the run readies its output
// directory (before any iteration) ends the run as any interrupt does, exit 130, with
// whatever was started stopped. The handler used to be installed only afterwards, and
// such a signal killed ravel by its default action (143). The test binary is run again
// as ravel, signalling itself at that point: no timing is involved.
func TestRunSignalBeforeClear(t *testing.T) {
	if os.Getenv("RAVELCLI_RUN_HELPER") == "signal-before-clear" {
		runBeforeClear = func() { syscall.Kill(os.Getpid(), syscall.SIGTERM) }
		os.Exit(run([]string{"run", os.Getenv("RAVELCLI_RUN_CONFIG")}, os.Stdout, os.Stderr))
	}
	if testing.Short() {
		t.Skip("starts a process")
	}
	// A node that never becomes healthy: if the interrupt is noticed only once the
	// iteration has begun, the wait for health notices it.
	path := writeConfig(t, "nodes:\n  count: 1\n  command: [./node.sh, '{{.DataDir}}']\n  health: 'http://127.0.0.1:{{.ClientPort}}/health'\n  start_timeout: 10m\noutput: out\n", pidScript)
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunSignalBeforeClear$")
	cmd.Env = append(os.Environ(), "RAVELCLI_RUN_HELPER=signal-before-clear", "RAVELCLI_RUN_CONFIG="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("ravel run with SIGTERM before the output is cleared: %v, want exit %d\nstdout: %s\nstderr: %s", err, exitInterrupted, stdout.String(), stderr.String())
	}
	pids, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "out", "iter-*", "n*", "pid"))
	for _, p := range pids {
		b, _ := os.ReadFile(p)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && len(live.Alive([]int{pid})) > 0 {
			t.Errorf("node process %d is alive after the interrupt", pid)
		}
	}
}
