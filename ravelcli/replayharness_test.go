package ravelcli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/systems/register"
)

// twinRegisters is a system with two harnesses of the same clients, the correct register
// ("sound", the default) and the buggy one ("buggy"), as a user's harnesses often are
// (a fault-injecting variant, a debug mode): a file that names no harness does not tell
// them apart by its clients (probe M1).
var twinRegisters = System{
	Name:      "twin",
	Summary:   "the register, correct or buggy, under one set of clients",
	Harnesses: []string{"sound", "buggy"},
	Agents:    3,
	Build: func(c Config) (model.System, error) {
		build := register.New
		if c.Harness == "buggy" {
			build = register.NewBuggy
		}
		sys, err := build(c.Agents, "1r1w")
		sys.Name = "twin"
		return sys, err
	},
}

// TestReplayPicksTheHarnessOfARaveltestFile: a counterexample raveltest saved for the
// second of two harnesses with the same clients replays under that harness, whether the
// test named it (raveltest.Harness) or not; --harness overrides it, and names one the
// system has.
func TestReplayPicksTheHarnessOfARaveltestFile(t *testing.T) {
	for _, named := range []bool{false, true} {
		t.Run(map[bool]string{false: "unnamed", true: "named"}[named], func(t *testing.T) {
			sys, err := twinRegisters.New(Config{Harness: "buggy"})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			opts := []raveltest.Option{raveltest.Dir(dir), raveltest.Strategy(dpor.Random(1))}
			if named {
				opts = append(opts, raveltest.Harness("buggy"))
			}
			r := &failRecorder{TB: t}
			raveltest.Check(r, sys, opts...)
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			if !r.Failed() || len(files) != 1 {
				t.Fatalf("raveltest: failed %v, saved %v; want a failure and 1 file", r.Failed(), files)
			}
			catalog := []Option{Systems(twinRegisters)}
			for _, c := range []struct {
				name   string
				args   []string
				code   int
				stdout string
				stderr string
			}{
				{"as saved", nil, exitViolation, "(twin, harness buggy, agents 3)", ""},
				{"--harness buggy", []string{"--harness", "buggy"}, exitViolation, "(twin, harness buggy, agents 3)", ""},
				{"--harness sound", []string{"--harness", "sound"}, exitUsage, "", "replay:"},
				{"--harness unknown", []string{"--harness", "nope"}, exitUsage, "", `--harness "nope": system twin has no such harness (its harnesses: sound, buggy)`},
			} {
				t.Run(c.name, func(t *testing.T) {
					code, stdout, stderr := runWith(catalog, append([]string{"replay", files[0]}, c.args...)...)
					if code != c.code || !strings.Contains(stdout, c.stdout) || !strings.Contains(stderr, c.stderr) {
						t.Errorf("exit %d, want %d with %q in stdout and %q in stderr\nstdout:\n%s\nstderr:\n%s", code, c.code, c.stdout, c.stderr, stdout, stderr)
					}
				})
			}
		})
	}
}
