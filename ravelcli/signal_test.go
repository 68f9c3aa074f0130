//go:build unix

package ravelcli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// ravelBinary builds the command once for the tests that need a real process (signals,
// exit codes, standard input).
func ravelBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ravel-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "ravel")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/ravelmc/ravel/cmd/ravel").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	if os.Getenv("RAVELCLI_TEST_HELPER") == "spinning-ignored" {
		// As a background job of a non-interactive shell, or under nohup, starts it.
		signal.Ignore(os.Interrupt)
		stallAfter, interruptGrace = 100*time.Millisecond, 300*time.Millisecond
		os.Exit(Run([]string{"check", "spinning"}, os.Stdout, os.Stderr, Systems(spinningSystem)))
	}
	if os.Getenv("RAVELCLI_TEST_HELPER") == "spinning" {
		// The test binary run again as a command whose one system's handler never
		// returns (TestSecondInterruptQuits).
		stallAfter, interruptGrace = 100*time.Millisecond, 300*time.Millisecond
		os.Exit(Run([]string{"check", "spinning"}, os.Stdout, os.Stderr, Systems(spinningSystem)))
	}
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// TestSIGTERMLikeSIGINT: SIGTERM ends a check the way SIGINT does — partial statistics,
// the hint at stateful DPOR that exhaustive search with caching stopped short gets, exit
// 130 — and the spill directory is removed.
func TestSIGTERMLikeSIGINT(t *testing.T) {
	bin := ravelBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			spill := t.TempDir()
			cmd := exec.Command(bin, "check", "gossip", "--agents", "12", "--max-schedules", "0", "--state-caching", "on",
				"--visited-mem", "4KiB", "--visited-dir", spill, "--quiet")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			waitSpill(t, spill, done)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := <-done
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
				t.Fatalf("%v: exit %v, want %d; stderr:\n%s", sig, err, exitInterrupted, stderr.String())
			}
			if !strings.Contains(stdout.String(), "search: interrupted") || !strings.Contains(stdout.String(), "#S ") {
				t.Errorf("no partial statistics:\n%s", stdout.String())
			}
			if !strings.Contains(stdout.String(), "hint: --strategy dpor (stateful DPOR") {
				t.Errorf("exhaustive search with caching, interrupted, names no stateful DPOR:\n%s", stdout.String())
			}
			if m, _ := filepath.Glob(filepath.Join(spill, "ravel-visited-*")); len(m) > 0 {
				t.Errorf("spill directories left: %v", m)
			}
		})
	}
}

// waitSpill waits until a run has spilled to a private directory under dir, and fails
// if the run ends first.
func waitSpill(t *testing.T, dir string, done chan error) []string {
	t.Helper()
	for {
		if m, _ := filepath.Glob(filepath.Join(dir, "ravel-visited-*")); len(m) > 0 {
			return m
		}
		select {
		case err := <-done:
			t.Fatalf("the run ended (%v) before it spilled", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestStaleSpillDirsReclaimed: a spill directory left by a killed run is removed by the
// next run that uses the same directory.
func TestStaleSpillDirsReclaimed(t *testing.T) {
	bin := ravelBinary(t)
	spill := t.TempDir()
	cmd := exec.Command(bin, "check", "gossip", "--agents", "12", "--max-schedules", "0", "--state-caching", "on",
		"--visited-mem", "4KiB", "--visited-dir", spill, "--quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	left := waitSpill(t, spill, done)
	// Killed before its lock is renamed into place, the directory would be young and
	// unlocked, which a sweep rightly leaves alone for a minute (visited's
	// TestRemoveAbandonedMidCreation): wait for the lock.
	for {
		if _, err := os.Stat(filepath.Join(left[0], "owner.lock")); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the run ended (%v) before it locked its spill directory", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	cmd.Process.Kill() // no clean-up: the directory stays behind
	<-done
	if _, err := os.Stat(left[0]); err != nil {
		t.Fatalf("the killed run left nothing to reclaim: %v", err)
	}
	code, _, stderr := runRavel("check", "gossip", "--agents", "3", "--state-caching", "on", "--visited-dir", spill, "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(left[0]); !os.IsNotExist(err) {
		t.Errorf("%s was not reclaimed (%v)", left[0], err)
	}
}

// TestStandardInput: "-" reads standard input, for lincheck and replay.
func TestStandardInput(t *testing.T) {
	bin := ravelBinary(t)
	log, err := os.ReadFile(filepath.Join(porcupineData, "jepsen", "etcd_000.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "lincheck", "--spec", "cas-register", "-")
	cmd.Stdin = bytes.NewReader(log)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitViolation || !strings.Contains(string(out), "-  not-linearizable") {
		t.Errorf("lincheck -: %v\n%s", err, out)
	}
	v := filepath.Join(t.TempDir(), "v.json")
	if code, _, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", v); code != exitViolation {
		t.Fatalf("check: %d %s", code, stderr)
	}
	f, err := os.Open(v)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd = exec.Command(bin, "replay", "-")
	cmd.Stdin = f
	out, err = cmd.Output()
	if !errors.As(err, &ee) || ee.ExitCode() != exitViolation || !strings.Contains(string(out), "same history") {
		t.Errorf("replay -: %v\n%s", err, out)
	}
}

// TestSecondInterruptQuits: interrupted while a handler never returns, the command says
// where the handler is, and a second interrupt ends the process at once (by the signal)
// instead of being caught again.
func TestSecondInterruptQuits(t *testing.T) {
	secondInterrupt(t, "spinning")
}

// TestSecondInterruptQuitsIgnored: a command started with SIGINT ignored (a background
// job, nohup) said "interrupt again to quit at once" and then ignored the second
// interrupt, as the disposition it gave SIGINT back was its inherited one (state probe,
// H7). It now ends on it, with status 130.
func TestSecondInterruptQuitsIgnored(t *testing.T) {
	secondInterrupt(t, "spinning-ignored")
}

func secondInterrupt(t *testing.T, helper string) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "RAVELCLI_TEST_HELPER="+helper)
	var stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = new(bytes.Buffer), &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitFor := func(what string) {
		t.Helper()
		for !strings.Contains(stderr.String(), what) {
			select {
			case err := <-done:
				t.Fatalf("the command ended (%v) before it said %q; stderr:\n%s", err, what, stderr.String())
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	waitFor("a handler has not returned")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	waitFor("interrupted, but the search has not stopped after 300ms: a handler has not returned; it is at\n  ravelcli.spinner.Receive (stall_test.go:")
	waitFor("interrupt again to quit at once")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute): // not a limit on speed: the second interrupt was caught
		cmd.Process.Kill()
		t.Fatalf("the command still runs a minute after the second interrupt; stderr:\n%s", stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("the command ended with %v, want killed by SIGINT", err)
	}
	if helper == "spinning-ignored" {
		if ee.ExitCode() != exitInterrupted {
			t.Errorf("the command ended with %v, want exit status %d; stderr:\n%s", err, exitInterrupted, stderr.String())
		}
		return
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("the command ended with %v, want killed by SIGINT; stderr:\n%s", err, stderr.String())
	}
}

// TestExploreStopsOnSignal: explore, a server, ends on SIGTERM as on SIGINT — exit 0
// and a line saying it stopped — as ravel -h says (probe U8: SIGTERM killed it, 143).
func TestExploreStopsOnSignal(t *testing.T) {
	bin := ravelBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "explore", "chord", "--port", "0")
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// The line is printed once the signals are caught.
			for !strings.Contains(stdout.String(), "serving on http://") {
				select {
				case err := <-done:
					t.Fatalf("explore ended (%v) before serving; stderr:\n%s", err, stderr.String())
				case <-time.After(20 * time.Millisecond):
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if err := <-done; err != nil {
				t.Fatalf("%v: explore ended with %v, want exit 0; stderr:\n%s", sig, err, stderr.String())
			}
			if !strings.Contains(stdout.String(), "ravel explore chord: stopped") {
				t.Errorf("%v: no line saying it stopped:\n%s", sig, stdout.String())
			}
		})
	}
}
