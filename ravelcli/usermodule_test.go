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

// The throwaway user module of TestUserModule: its own protocol (a primary-backup
// register whose primary answers a write before the backup has it) and the 5-line main
// the package documentation promises.
const (
	userMain = `package main

import "github.com/ravelmc/ravel/ravelcli"

func main() { ravelcli.Main(ravelcli.Systems(lazyBackup)) }
`
	userProtocol = `package main

import (
	"fmt"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/ravelcli"
	"github.com/ravelmc/ravel/specs"
)

// Store is one copy of the register: n0 the primary, n1 the backup.
type Store struct{ Value int }

// Update tells the backup the new value.
type Update struct{ Value int }

func (s *Store) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		if m.Input.Write {
			s.Value = m.Input.Value
			ctx.Send(1, Update{Value: m.Input.Value})
			ctx.Respond(m.ID, specs.WriteOK()) // before the backup has it
			return
		}
		ctx.Respond(m.ID, specs.ReadOK(s.Value))
	case Update:
		s.Value = m.Value
	}
}

// lazyBackup reads at the primary (clean) or at the backup (a stale read).
var lazyBackup = ravelcli.System{
	Name:      "lazy-backup",
	Summary:   "a primary-backup register that answers writes before the backup has them",
	Harnesses: []string{"read-primary", "read-backup"},
	Agents:    2,
	Build: func(c ravelcli.Config) (model.System, error) {
		if c.Agents != 2 {
			return model.System{}, fmt.Errorf("lazy-backup has 2 agents, got %d", c.Agents)
		}
		reader := map[string]model.ID{"read-primary": 0, "read-backup": 1}
		at, ok := reader[c.Harness]
		if !ok {
			return model.System{}, fmt.Errorf("unknown harness %q (valid: read-primary, read-backup)", c.Harness)
		}
		return model.System{
			Name:   "lazy-backup",
			Actors: []model.Actor{&Store{}, &Store{}},
			Harness: model.Clients(specs.Register(),
				model.Calls(0, specs.Write(1)),
				model.Calls(at, specs.Read()),
			),
		}, nil
	},
}
`
)

// buildUserModule writes the throwaway module under dir (usermod.Write: a replace to
// this repository) and builds its command.
func buildUserModule(t *testing.T, dir string) string {
	t.Helper()
	if n := strings.Count(strings.TrimSpace(userMain), "\n") + 1; n != 5 {
		t.Errorf("the user's main has %d lines, want 5", n)
	}
	if err := usermod.Write(dir, "example.com/lazybackup", map[string]string{"main.go": userMain, "protocol.go": userProtocol}); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "lazybackup")
	if out, code, err := usermod.Go(dir, "build", "-o", bin, "."); err != nil || code != 0 {
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

// TestUserModule: a user's module with its own protocol and a 5-line main on ravelcli
// gets the command line over its system — list, check --json, check --out, replay — with
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
		if !regexp.MustCompile(`(?m)^lazy-backup +read-primary,read-backup +2 +a primary-backup`).MatchString(out) {
			t.Errorf("list does not show lazy-backup with its harnesses and agents:\n%s", out)
		}
		if strings.Contains(out, "register-buggy") {
			t.Errorf("list shows a built-in system the user did not add:\n%s", out)
		}
	})

	t.Run("check clean", func(t *testing.T) {
		code, out, stderr := runUser(t, bin, dir, "check", "lazy-backup", "--json")
		if code != exitOK {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr)
		}
		var r checkReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("check --json: %v\n%s", err, out)
		}
		if r.System != "lazy-backup" || r.Harness != "read-primary" || !r.Complete || r.Nonlinearizable != 0 || r.FirstViolation != nil || r.Schedules == 0 {
			t.Errorf("report: system %q harness %q complete %v nonlinearizable %d schedules %d violation %v, want lazy-backup read-primary, complete, no violation",
				r.System, r.Harness, r.Complete, r.Nonlinearizable, r.Schedules, r.FirstViolation != nil)
		}
	})

	saved := filepath.Join(dir, "stale.json")
	t.Run("check violation", func(t *testing.T) {
		code, out, stderr := runUser(t, bin, dir, "check", "lazy-backup", "--harness", "read-backup", "--json", "--out", saved)
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

	t.Run("replay", func(t *testing.T) {
		code, out, stderr := runUser(t, bin, dir, "replay", saved)
		if code != exitViolation {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitViolation, stderr)
		}
		for _, want := range []string{"(lazy-backup, harness read-backup, agents 2)", "the replay gives the same history as the saved violation", "VIOLATION: the history is not linearizable"} {
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
		{"unknown harness", []string{"check", "lazy-backup", "--harness", "2r1w"}, `unknown harness "2r1w"`},
		{"bad agents", []string{"check", "lazy-backup", "--agents", "3"}, "lazy-backup has 2 agents, got 3"},
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
		})
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
