//go:build unix

package ravelcli

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifoReader reads the named pipe fifo to its end in a goroutine; wait returns what it
// read. When nothing opens the pipe for writing, wait opens it itself, so that the
// reader ends.
func fifoReader(t *testing.T, fifo string) (wait func() string) {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		b, err := os.ReadFile(fifo)
		if err != nil {
			t.Errorf("reading %s: %v", fifo, err)
		}
		done <- string(b)
	}()
	return func() string {
		select {
		case s := <-done:
			return s
		case <-time.After(2 * time.Second):
		}
		// Nothing was written: end the reader with a writer of our own.
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		return <-done
	}
}

// runRavelWithin is runRavel, failing the test when the command has not returned after
// a while (a command that opens a named pipe without a reader waits for one).
func runRavelWithin(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := runRavel(args...)
		done <- result{code, stdout, stderr}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(30 * time.Second):
		t.Fatalf("%q has not returned after 30s: it waits on the named pipe", args)
		return 0, "", ""
	}
}

func wantFIFO(t *testing.T, path string) {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("the named pipe %s is gone: %v", path, err)
	}
	if st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the named pipe %s was replaced by a %v", path, st.Mode())
	}
}

// TestOutputToNamedPipe: an output that is a named pipe (directly or through a link) is
// written in place, once, at the end: it is not opened before (a reader would take the
// close for the end of the data), nor removed, nor replaced by a file.
func TestOutputToNamedPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}

	// A clean run writes nothing to --out, and leaves the pipe be.
	if code, _, stderr := runRavelWithin(t, "check", "register", "--harness", "2r1w", "--quiet", "--out", fifo); code != exitOK {
		t.Fatalf("clean check: exit %d: %s", code, stderr)
	}
	wantFIFO(t, fifo)

	for _, name := range []string{fifo, link} {
		wait := fifoReader(t, name)
		code, stdout, stderr := runRavelWithin(t, "check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", name)
		got := wait()
		if code != exitViolation {
			t.Fatalf("check --out %s: exit %d: %s", name, code, stderr)
		}
		wantFIFO(t, fifo)
		if !strings.HasPrefix(got, "{") || strings.Count(got, "ravel-violation/") != 1 {
			t.Errorf("--out %s: the reader got %.200q, want one violation", name, got)
		}
		if !strings.Contains(stdout, "written to "+name) || strings.Contains(stdout, "replay "+name) {
			t.Errorf("the report suggests replaying a pipe, or does not say where it wrote:\n%s", stdout)
		}
	}
	wantSymlink(t, link, fifo)

	// lincheck's --html is written once, however many files have a page.
	in := filepath.Join(dir, "in.jsonl")
	writeTestFile(t, in, badRegisterHistory)
	good := filepath.Join(dir, "good.jsonl")
	writeTestFile(t, good, `{"client":0,"input":{"f":"read"},"output":0,"call":1,"return":2}`+"\n")
	wait := fifoReader(t, fifo)
	code, _, stderr := runRavelWithin(t, "lincheck", "--spec", "register", "--html", fifo, good, in)
	got := wait()
	if code != exitViolation || strings.Count(got, "<html") != 1 {
		t.Errorf("lincheck --html to a pipe: exit %d (%s), %d pages", code, stderr, strings.Count(got, "<html"))
	}
	wantFIFO(t, fifo)

	// replay's --html and check's --html and --histories too.
	v := savedViolation(t, dir)
	wait = fifoReader(t, fifo)
	code, _, stderr = runRavelWithin(t, "replay", v, "--html", fifo)
	if got := wait(); code != exitViolation || !strings.Contains(got, "<html") {
		t.Errorf("replay --html to a pipe: exit %d (%s), got %.100q", code, stderr, got)
	}
	wantFIFO(t, fifo)
	wait = fifoReader(t, fifo)
	code, _, stderr = runRavelWithin(t, "check", "register-buggy", "--harness", "2r1w", "--quiet", "--histories", fifo)
	if got := wait(); code != exitViolation || !strings.Contains(got, `"verdict"`) {
		t.Errorf("check --histories to a pipe: exit %d (%s), got %.100q", code, stderr, got)
	}
	wantFIFO(t, fifo)
}

// TestOutputToPipeDescriptor: /dev/fd/N open on a pipe is written through the pipe.
func TestOutputToPipeDescriptor(t *testing.T) {
	if st, err := os.Stat("/dev/fd"); err != nil || !st.IsDir() {
		t.Skip("no /dev/fd here")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	name := "/dev/fd/" + strconv.Itoa(int(w.Fd()))
	code, _, stderr := runRavelWithin(t, "check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", name)
	w.Close()
	got := <-done
	if code != exitViolation || strings.Count(got, "ravel-violation/") != 1 {
		t.Errorf("--out %s: exit %d (%s), the pipe got %.200q", name, code, stderr, got)
	}
}
