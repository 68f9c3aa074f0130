package raveltest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/internal/usermod"
)

// TestJourneyModule walks docs/user-guide.md's journey for real: the guide's module
// (internal/usermod/testdata/lazybackup: the protocol, its test and its command, whose
// snippets TestGoSnippetsCompiled in cmd/ravel finds in these files) becomes a module of
// its own with a replace to this repository. Its go test fails with the history and saves the counterexample; the next
// go test replays it first; the user's own command replays the saved file (found under a
// generated workload, by a test that names no harness) and draws it as an HTML report.
func TestJourneyModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a module of its own; skipped with -short")
	}
	dir := t.TempDir()
	files, err := usermod.Fixture("lazybackup")
	if err != nil {
		t.Fatal(err)
	}
	if err := usermod.Write(dir, "example.com/lazybackup", files); err != nil {
		t.Fatal(err)
	}
	step := func(t *testing.T, wantCode int, want []string, name string, args ...string) string {
		t.Helper()
		out, code, err := usermod.Run(dir, name, args...)
		if err != nil {
			t.Fatal(err)
		}
		if code != wantCode {
			t.Fatalf("%s %s: exit %d, want %d\n%s", name, strings.Join(args, " "), code, wantCode, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s %s: output lacks %q:\n%s", name, strings.Join(args, " "), w, out)
			}
		}
		return out
	}

	// The first go test fails, with the workload, the verdict and the history tied to the
	// schedule, and saves the counterexample.
	step(t, 1, []string{
		"--- FAIL: TestLazyBackup",
		"raveltest: lazy-backup under workload all:ops=3,clients=2#",
		"the history is not linearizable",
		"events, each with the step that caused it",
		"saved to testdata/ravel/TestLazyBackup/",
		// the file's way to the user's own command, which knows the system; ravel does not
		`command built on ravelcli that lists system "lazy-backup"`,
	}, "go", "test", ".")
	saved, _ := filepath.Glob(filepath.Join(dir, "testdata", "ravel", "TestLazyBackup", "*.json"))
	if len(saved) != 1 {
		t.Fatalf("saved counterexamples %v, want 1", saved)
	}

	// The next go test replays it first, and fails on it before exploring anything.
	out := step(t, 1, []string{"saved counterexample " + filepath.Join("testdata", "ravel", "TestLazyBackup"), "still fails"}, "go", "test", "-count=1", ".")
	if strings.Contains(out, "saved to ") {
		t.Errorf("the second run explored and saved again:\n%s", out)
	}

	// The user's command knows their system, replays the test's file and draws it.
	bin := filepath.Join(dir, "lazybackup-cli")
	step(t, 0, nil, "go", "build", "-o", bin, "./cmd/lazybackup")
	step(t, 0, []string{"lazy-backup", "backup-read,primary-read"}, bin, "list")
	step(t, 1, []string{"(lazy-backup, workload all:ops=3,clients=2#", "the replay gives the same history as the saved violation", "VIOLATION"},
		bin, "replay", saved[0], "--html", "report.html")
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, want := range []string{"<title>ravel replay", "lazy-backup", "Request{c0.0"} {
		if err != nil || !strings.Contains(string(page), want) {
			t.Errorf("report.html: %v, %d bytes, want a page with %q", err, len(page), want)
		}
	}
	step(t, 1, []string{"workload all:ops=3,clients=2#"}, bin, "check", "lazy-backup", "--workloads", "all:ops=3,clients=2", "--quiet")
	step(t, 2, []string{`unknown system "register-buggy" (valid: lazy-backup)`}, bin, "check", "register-buggy")
}
