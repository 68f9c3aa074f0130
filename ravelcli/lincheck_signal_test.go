//go:build unix

package ravelcli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLincheckInterrupted: SIGINT during a long check ends lincheck with exit 130 and
// the verdict "unknown", saying it was interrupted — not Go's "context canceled" (issue
// 17 item 9). The history comes through a named pipe, so that the signal is sent only
// once lincheck is reading it (its handler is set up by then); 22 concurrent writes and
// then a read of a value none wrote take the search through millions of orders.
func TestLincheckInterrupted(t *testing.T) {
	bin := ravelBinary(t)
	fifo := filepath.Join(t.TempDir(), "hard.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var hist bytes.Buffer
	for i := range 22 {
		fmt.Fprintf(&hist, `{"client":%d,"input":{"f":"write","value":%d},"output":"ok","call":%d,"return":100}`+"\n", i, i+1, i)
	}
	fmt.Fprintf(&hist, `{"client":99,"input":{"f":"read"},"output":999,"call":200,"return":201}`+"\n")
	cmd := exec.Command(bin, "lincheck", "--spec", "register", fifo)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // blocks until lincheck opens it
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(hist.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d; stdout:\n%s\nstderr:\n%s", err, exitInterrupted, stdout.String(), stderr.String())
	}
	out := stdout.String() + stderr.String()
	if !strings.Contains(stdout.String(), "unknown") || !strings.Contains(out, "interrupted") || strings.Contains(out, "context canceled") {
		t.Errorf("want an unknown verdict that says interrupted, without \"context canceled\":\n%s", out)
	}
}

// TestLincheckInterruptedWhileReading: SIGINT while lincheck waits for its input (here
// a named pipe opened for writing and never written, as `sleep 5 | ravel lincheck -`
// leaves standard input) ends it at once with exit 130 and says the file was interrupted
// while being read — not, two seconds later, that "the search has not stopped", when
// there is no search. Should the interrupt not end the wait, the pipe is closed when that
// message comes, so that the command ends and the test fails rather than hangs.
func TestLincheckInterruptedWhileReading(t *testing.T) {
	bin := ravelBinary(t)
	fifo := filepath.Join(t.TempDir(), "slow.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	cmd := exec.Command(bin, "lincheck", "--spec", "register", fifo)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // blocks until lincheck opens it
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	sc := bufio.NewScanner(stderrPipe)
	for sc.Scan() {
		stderr.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "has not stopped") {
			w.Close()
		}
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Errorf("exit %v, want %d", err, exitInterrupted)
	}
	if !strings.Contains(stdout.String(), "unknown  (interrupted while it was being read)") || strings.Contains(stderr.String(), "has not stopped") {
		t.Errorf("want the file interrupted while it was being read, and no word of a search that has not stopped; stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
}
