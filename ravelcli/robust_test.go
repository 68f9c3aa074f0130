package ravelcli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems"
)

// TestFlagsValidatedAlike: check and bench refuse the same bad values, before any work,
// with exit 2 and a one-line reason.
func TestFlagsValidatedAlike(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"bench negative schedules", []string{"bench", "--systems", "register", "--strategies", "random", "--max-schedules", "-1"}, "--max-schedules"},
		{"bench negative depth", []string{"bench", "--systems", "register", "--max-depth", "-1"}, "--max-depth"},
		{"check negative schedules", []string{"check", "register", "--max-schedules", "-1"}, "--max-schedules"},
		{"check retries", []string{"check", "adr", "--retries", "-7"}, "--retries"},
		{"check negative states", []string{"check", "abd", "--state-caching", "on", "--max-states", "-1"}, "--max-states must be 0 (no limit) or positive"},
		{"check states without caching", []string{"check", "abd", "--max-states", "100"}, "--max-states needs --state-caching on"},
		{"check canonical states without caching", []string{"check", "register", "--canonical-states"}, "--canonical-states needs --state-caching on"},
		{"check canonical states with delay-bounded", []string{"check", "register", "--strategy", "delay-bounded", "--state-caching", "on", "--canonical-states"}, "--canonical-states loses canonical histories with the delay-bounded strategy"},
		{"check canonical states with a sampler", []string{"check", "register", "--strategy", "pct", "--state-caching", "on", "--canonical-states"}, "--state-caching on does not apply to the pct sampler"},
		{"check caching with the random walk", []string{"check", "register", "--strategy", "random", "--state-caching", "on"}, "--state-caching on does not apply to the random sampler: its runs are drawn independently"},
		{"check caching with transdpor", []string{"check", "register", "--strategy", "transdpor", "--state-caching", "on"}, "--state-caching on is not sound with the transdpor strategy (it would lose the backtrack points"},
		{"bench retries", []string{"bench", "--systems", "adr", "--retries", "-7"}, "--retries"},
		{"check agents 0", []string{"check", "register", "--agents", "0"}, "--agents must be at least 1"},
		{"bench agents 0", []string{"bench", "--systems", "register", "--agents", "0"}, "--agents must be at least 1"},
		{"check too many agents", []string{"check", "gossip", "--agents", "1000"}, "more than the 48"},
		{"bench too many agents", []string{"bench", "--systems", "gossip", "--agents", "200"}, "more than the 48"},
		{"check negative delays", []string{"check", "register", "--strategy", "delay-bounded", "--delays", "-1"}, "--delays"},
		{"dependence ignored", []string{"check", "register", "--strategy", "exhaustive", "--dependence", "key"}, "ignores --dependence"},
		{"delays ignored", []string{"check", "register", "--strategy", "dpor", "--delays", "2"}, "ignores --delays"},
		{"visited memory too small", []string{"check", "gossip", "--state-caching", "on", "--visited-mem", "1KiB"}, "below the minimum"},
		{"visited memory with stateful dpor", []string{"check", "abd", "--strategy", "dpor", "--state-caching", "on", "--visited-mem", "1MiB"}, "--visited-mem does not apply to dpor"},
		{"visited dir with stateful dpor", []string{"check", "abd", "--strategy", "dpor", "--state-caching", "on", "--visited-dir", "/tmp"}, "--visited-dir does not apply to dpor"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runRavel(c.args...)
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, c.want)
			}
			if strings.Count(stderr, "visited set") > 1 || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("reason not one clean line: %q", stderr)
			}
			if stdout != "" {
				t.Errorf("work was done: %s", stdout)
			}
		})
	}
}

// TestOutputPathsCheckedFirst: an unwritable --out or --histories is refused before the
// search starts; a stale --out does not survive a run that finds nothing.
func TestOutputPathsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "missing", "f.json")
	for _, flag := range []string{"--out", "--histories"} {
		code, stdout, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--quiet", flag, bad)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, flag) {
			t.Errorf("%s to a missing directory: exit %d, stdout %q, stderr %q; want 2 before any search", flag, code, stdout, stderr)
		}
	}
	// Refused before the search, not after it: this search has no end (no schedule
	// budget), so only a check made first lets the command return at all.
	for _, flag := range []string{"--out", "--histories"} {
		code, stdout, stderr := runRavel("check", "gossip", "--agents", "12", "--max-schedules", "0", "--quiet", flag, bad)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, flag) {
			t.Errorf("%s to a missing directory, unbounded search: exit %d, stdout %q, stderr %q; want 2 before any search", flag, code, stdout, stderr)
		}
	}
	code, _, stderr := runRavel("check", "register-buggy", "--quiet", "--out", dir)
	if code != exitUsage || !strings.Contains(stderr, "is a directory") {
		t.Errorf("--out to a directory: exit %d, %q", code, stderr)
	}
	stale := filepath.Join(dir, "stale.json")
	if err := os.WriteFile(stale, []byte(`{"old":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runRavel("check", "register", "--harness", "2r1w", "--quiet", "--out", stale); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale --out file survived a run that found nothing (%v)", err)
	}
}

// TestLateFailureKeepsTheReport: when something fails after the search (the store,
// a file), the report and the violation are still printed, the error after them, and
// the exit status says violation when there was one.
func TestLateFailureKeepsTheReport(t *testing.T) {
	for _, c := range []struct {
		system string
		want   int
	}{{"register-buggy", exitViolation}, {"register", exitUsage}} {
		entry, _ := systems.Lookup(c.system)
		sys, err := entry.New(systems.Config{Harness: "2r1w"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := explorer.Run(t.Context(), sys, explorer.Options{Strategy: dpor.Exhaustive()})
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		info := runInfo{System: c.system, Harness: "2r1w", Strategy: "exhaustive", Agents: entry.Agents}
		code, err := finishCheck(&out, &errb, &sys, info, res, errors.New("visited-state store in /x: write: disk full"), checkFlags{}, nil)
		if err != nil || code != c.want {
			t.Errorf("%s: exit %d (%v), want %d", c.system, code, err, c.want)
		}
		if !strings.Contains(out.String(), "#S ") || (c.want == exitViolation && !strings.Contains(out.String(), "VIOLATION")) {
			t.Errorf("%s: the report was lost:\n%s", c.system, out.String())
		}
		if !strings.Contains(errb.String(), "disk full") {
			t.Errorf("%s: the error was not reported: %q", c.system, errb.String())
		}
	}
}

// TestReplayRefusesDamagedFiles: a violation file cut short, emptied, edited or of
// another version is refused with exit 2 and what does not match.
func TestReplayRefusesDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "v.json")
	if code, _, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", orig); code != exitViolation {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	run := func(m map[string]any) map[string]any { return m["run"].(map[string]any) }
	steps := func(m map[string]any) []any { return m["violation"].(map[string]any)["schedule"].([]any) }
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"cut short", edit(func(m map[string]any) {
			m["violation"].(map[string]any)["schedule"] = steps(m)[:len(steps(m))-2]
		}), "schedule_digest"},
		{"emptied", edit(func(m map[string]any) { m["violation"].(map[string]any)["schedule"] = []any{} }), "schedule_digest"},
		{"system edited", edit(func(m map[string]any) { run(m)["system"] = "register" }), "schedule_digest"},
		{"harness edited", edit(func(m map[string]any) { run(m)["harness"] = "2r2w" }), "schedule_digest"},
		{"agents edited", edit(func(m map[string]any) { run(m)["agents"] = 100000 }), "agents"},
		{"history edited", edit(func(m map[string]any) {
			m["violation"].(map[string]any)["history"].(map[string]any)["timeline"] = "x"
		}), "history"},
		{"unknown field", edit(func(m map[string]any) { m["comment"] = "hi" }), "unknown field"},
		{"old format", edit(func(m map[string]any) { m["format"] = "ravel-violation/1" }), "format"},
		{"truncated file", data[:len(data)/2], "not a violation file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if err := os.WriteFile(p, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runRavel("replay", p)
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, c.want)
			}
		})
	}
	if code, _, stderr := runRavel("replay", orig); code != exitViolation {
		t.Errorf("the untouched file: exit %d: %s", code, stderr)
	}
	// The final state's fingerprint changes with the state's hashing, however alike the
	// behaviour: the same history reproduces the violation, with a note
	// (TestReplayJudgesTheHistory).
	fp := filepath.Join(dir, "fingerprint-edited.json")
	if err := os.WriteFile(fp, edit(func(m map[string]any) { m["fingerprint"] = "0123456789abcdef" }), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runRavel("replay", fp); code != exitViolation || !strings.Contains(stdout, "note: the final state (fingerprint ") {
		t.Errorf("fingerprint edited: exit %d, want %d and a note:\n%s%s", code, exitViolation, stdout, stderr)
	}
	// A message's text is for people: a file written before its rendering changed (a
	// request drawn with the spec's DescribeInput) replays; its deliveries' ends do not.
	for _, c := range []struct {
		name string
		edit func(step map[string]any)
		code int
	}{
		{"a message rendered otherwise", func(step map[string]any) { step["msg"] = "Request{c0.0 {1 1}}" }, exitViolation},
		{"a receiver edited", func(step map[string]any) { step["to"] = "n1" }, exitUsage},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if err := os.WriteFile(p, edit(func(m map[string]any) { c.edit(steps(m)[0].(map[string]any)) }), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, _, stderr := runRavel("replay", p); code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, stderr)
			}
		})
	}
}
