//go:build unix

package ravelcli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
