package ravelcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/internal/usermod"
)

// buildUserModule writes the user's module of docs/user-guide.md (usermod's fixture
// lazybackup: its own protocol in its own package, and a main on ravelcli — the package
// clause, two imports and one line) under dir, with a replace to this repository, and
// builds its command.
func buildUserModule(t *testing.T, dir string) string {
	t.Helper()
	files, err := usermod.Fixture("lazybackup")
	if err != nil {
		t.Fatal(err)
	}
	main := files["cmd/lazybackup/main.go"]
	if n := strings.Count(strings.TrimSpace(main), "\n") + 1; n > 6 || !strings.Contains(main, "func main() { ravelcli.Main(ravelcli.Systems(lazybackup.System)) }") {
		t.Errorf("the user's main has %d lines, want at most 6 with a one-line func main calling ravelcli.Main:\n%s", n, main)
	}
	if err := usermod.Write(dir, "example.com/lazybackup", files); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "lazybackup")
	if out, code, err := usermod.Go(dir, "build", "-o", bin, "./cmd/lazybackup"); err != nil || code != 0 {
		t.Fatalf("go build in the user module: exit %d, %v\n%s", code, err, out)
	}
	return bin
}

// runUser runs the user's command and returns its exit status and outputs.
func runUser(t *testing.T, bin, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("%v: %v", args, err)
	}
	return code, out.String(), errb.String()
}

// TestUserModule: a user's module with its own protocol and a main of one call to ravelcli
// gets the command line over its system, the default harness being the buggy one — list, check --json, check --out, replay — with
// cmd/ravel's exit codes, and knows none of the built-in systems.
func TestUserModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of its own; skipped with -short")
	}
	dir := t.TempDir()
	bin := buildUserModule(t, dir)

	t.Run("list", func(t *testing.T) {
		code, out, _ := runUser(t, bin, dir, "list")
		if code != exitOK {
			t.Fatalf("exit %d, want %d", code, exitOK)
		}
		if !regexp.MustCompile(`(?m)^lazy-backup +backup-read,primary-read +2 +(yes|no|some) +a primary-backup`).MatchString(out) {
			t.Errorf("list does not show lazy-backup with its harnesses and agents:\n%s", out)
		}
		if strings.Contains(out, "register-buggy") {
			t.Errorf("list shows a built-in system the user did not add:\n%s", out)
		}
	})

	t.Run("check clean", func(t *testing.T) {
		code, out, stderr := runUser(t, bin, dir, "check", "lazy-backup", "--harness", "primary-read", "--json")
		if code != exitOK {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr)
		}
		var r checkReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("check --json: %v\n%s", err, out)
		}
		if r.System != "lazy-backup" || r.Harness != "primary-read" || !r.Complete || r.Nonlinearizable != 0 || r.FirstViolation != nil || r.Schedules == 0 {
			t.Errorf("report: system %q harness %q complete %v nonlinearizable %d schedules %d violation %v, want lazy-backup primary-read, complete, no violation",
				r.System, r.Harness, r.Complete, r.Nonlinearizable, r.Schedules, r.FirstViolation != nil)
		}
	})

	saved := filepath.Join(dir, "stale.json")
	t.Run("check violation", func(t *testing.T) {
		code, out, stderr := runUser(t, bin, dir, "check", "lazy-backup", "--json", "--out", saved)
		if code != exitViolation {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitViolation, stderr)
		}
		var r checkReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("check --json: %v\n%s", err, out)
		}
		if r.FirstViolation == nil || r.FirstViolation.Kind != "nonlinearizable" || r.Nonlinearizable == 0 {
			t.Fatalf("report has no nonlinearizable first violation:\n%s", out)
		}
		// The stale read: c1's Read answers 0 after c0's Write(1) was acknowledged.
		if !strings.Contains(string(mustJSON(t, r.FirstViolation.History)), `"output":"0"`) {
			t.Errorf("the violation's history has no read of 0: %s", mustJSON(t, r.FirstViolation.History))
		}
	})

	t.Run("check names the user's command for the replay", func(t *testing.T) {
		again := filepath.Join(dir, "again.json")
		code, out, stderr := runUser(t, bin, dir, "check", "lazy-backup", "--out", again)
		if code != exitViolation {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitViolation, stderr)
		}
		if want := "re-run it with: lazybackup replay " + again; !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	})

	t.Run("replay", func(t *testing.T) {
		code, out, stderr := runUser(t, bin, dir, "replay", saved)
		if code != exitViolation {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitViolation, stderr)
		}
		for _, want := range []string{"(lazy-backup, harness backup-read, agents 2)", "the replay gives the same history as the saved violation", "VIOLATION: the history is not linearizable"} {
			if !strings.Contains(out, want) {
				t.Errorf("replay output lacks %q:\n%s", want, out)
			}
		}
	})

	// Bad usage and input: exit 2 with a one-line reason, as cmd/ravel.
	builtin := filepath.Join(dir, "builtin.json")
	if code, _, stderr := runRavel("check", "register-buggy", "--quiet", "--out", builtin); code != exitViolation {
		t.Fatalf("ravel check register-buggy: exit %d; %s", code, stderr)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown system", []string{"check", "register"}, `unknown system "register" (valid: lazy-backup)`},
		{"unknown harness", []string{"check", "lazy-backup", "--harness", "2r1w"}, `harness "2r1w", 2 agents: want backup-read or primary-read, and 2 agents`},
		{"bad agents", []string{"check", "lazy-backup", "--agents", "3"}, `harness "backup-read", 3 agents: want`},
		{"unknown flag", []string{"check", "lazy-backup", "--no-such-flag"}, "flag provided but not defined"},
		{"built-in counterexample", []string{"replay", builtin}, `unknown system "register-buggy" (valid: lazy-backup)`},
		{"missing file", []string{"replay", filepath.Join(dir, "absent.json")}, "absent.json"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runUser(t, bin, dir, c.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			if !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("stderr %q, want one line containing %q", stderr, c.want)
			}
			if !strings.HasPrefix(stderr, "lazybackup: ") || strings.Contains(stderr, "ravel ") {
				t.Errorf("stderr %q, want it to name the user's command, lazybackup, and not ravel", stderr)
			}
		})
	}

	// The usage names the user's command on every line a user types.
	code, _, stderr := runUser(t, bin, dir)
	if code != exitUsage || !strings.HasPrefix(stderr, "lazybackup — Ravel, a model checker") || !strings.Contains(stderr, "  lazybackup check SYSTEM [flags]") || strings.Contains(stderr, "  ravel ") || strings.Contains(stderr, "'ravel ") {
		t.Errorf("usage: exit %d, want %d, naming lazybackup where ravel would be typed:\n%s", code, exitUsage, stderr)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
