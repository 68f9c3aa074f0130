//go:build unix

package ravelcli

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ravelmc/ravel/depbench"
)

// interruptAt runs the built command with args, sends sig once standard error holds
// line, and returns the exit status and the outputs.
func interruptAt(t *testing.T, sig syscall.Signal, line string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(ravelBinary(t), args...)
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for !strings.Contains(stderr.String(), line) {
		select {
		case err := <-done:
			t.Fatalf("ended (%v) before %q; stderr:\n%s", err, line, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := <-done
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// TestBenchInterruptedInTheStatelessRun: an interrupt during the stateless re-run for
// ST exits 130 with the table, ST marked as interrupted — not 2 with a consistency
// error between the runs (bench probe R3).
func TestBenchInterruptedInTheStatelessRun(t *testing.T) {
	code, stdout, stderr := interruptAt(t, syscall.SIGINT, "stateless, for ST",
		"bench", "--systems", "register", "--harness", "2r2w", "--strategies", "exhaustive", "--max-schedules", "400000")
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	if !strings.Contains(stdout, "400,000*") || !strings.Contains(stdout, "s†") || !strings.Contains(stdout, "† interrupted") || !strings.Contains(stdout, "\ninterrupted: ") {
		t.Errorf("no table with ST marked interrupted:\n%s", stdout)
	}
}

// TestBenchInterruptedMarksTheRun: interrupted, bench prints the tables so far with the
// interrupted run's cell marked and says so (bench probe R6); with --json it prints the
// reports gathered, the last one interrupted (R4).
func TestBenchInterruptedMarksTheRun(t *testing.T) {
	args := []string{"bench", "--systems", "register", "--harness", "1r1w,2r2w", "--strategies", "dpor,exhaustive", "--max-schedules", "0", "--st=false"}
	code, stdout, stderr := interruptAt(t, syscall.SIGINT, "bench: register 2r2w exhaustive", args...)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	if !strings.Contains(stdout, "harness 1r1w") || !strings.Contains(stdout, "†\n") || !strings.Contains(stdout, "† interrupted") || !strings.Contains(stdout, "\ninterrupted: ") {
		t.Errorf("no tables so far with the interrupted run marked:\n%s", stdout)
	}
	code, stdout, stderr = interruptAt(t, syscall.SIGTERM, "bench: register 2r2w exhaustive", append(args, "--json")...)
	if code != exitInterrupted {
		t.Fatalf("--json: exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	var runs []checkReport
	if err := json.Unmarshal([]byte(stdout), &runs); err != nil {
		t.Fatalf("--json interrupted: %v\n%q", err, stdout)
	}
	if len(runs) != 4 || !runs[0].Complete || !runs[1].Complete || runs[2].Interrupted || !runs[3].Interrupted {
		t.Errorf("want 1r1w's two runs complete, 2r2w's dpor and its interrupted exhaustive search; got %d runs:\n%s", len(runs), stdout)
	}
}

// TestDepsInterruptedPrintsTheRowsSoFar: interrupted, deps prints the current table's
// finished rows and the one it stopped, marked, and says so (bench probe R5); with
// --json it prints the tables gathered, the last one interrupted (R4).
func TestDepsInterruptedPrintsTheRowsSoFar(t *testing.T) {
	args := []string{"deps", "--systems", "register", "--harness", "2r2w", "--max-schedules", "0", "--cached-baseline", "--strategies", "dpor,transdpor", "--dependence", "history", "--commute=false"}
	code, stdout, stderr := interruptAt(t, syscall.SIGINT, "transdpor with history", args...)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	for _, want := range []string{"\nexhaustive ", "\ndpor ", "\ntransdpor ", "† interrupted", "\ninterrupted: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in the output:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = interruptAt(t, syscall.SIGTERM, "transdpor with history", append(args, "--json")...)
	if code != exitInterrupted {
		t.Fatalf("--json: exit %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	var tables []depbench.Table
	if err := json.Unmarshal([]byte(stdout), &tables); err != nil {
		t.Fatalf("--json interrupted: %v\n%q", err, stdout)
	}
	if len(tables) != 1 || !tables[0].Interrupted || len(tables[0].Rows) != 2 || !tables[0].Rows[1].Interrupted || tables[0].Rows[0].Interrupted {
		t.Errorf("want one table, interrupted, with dpor's row and transdpor's interrupted:\n%s", stdout)
	}
}
