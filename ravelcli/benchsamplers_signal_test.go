//go:build unix

package ravelcli

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBenchSamplersInterrupted: SIGTERM and SIGINT end bench samplers as they end check:
// exit 130, with the rows finished so far printed and the interruption said.
func TestBenchSamplersInterrupted(t *testing.T) {
	bin := ravelBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "bench", "samplers", "--figure", "5", "--tests", "2000")
			var stdout bytes.Buffer
			var stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			for !strings.Contains(stderr.String(), "point 1 of 10 done") {
				select {
				case err := <-done:
					t.Fatalf("ended (%v) before the first point; stderr:\n%s", err, stderr.String())
				case <-time.After(10 * time.Millisecond):
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := <-done
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
				t.Fatalf("exit %v, want %d; stderr:\n%s", err, exitInterrupted, stderr.String())
			}
			if out := stdout.String(); !strings.Contains(out, "| L=1 | 1 | 3 |") || !strings.Contains(out, "interrupted:") {
				t.Errorf("no rows so far or no word of the interruption:\n%s", out)
			}
		})
	}
}
