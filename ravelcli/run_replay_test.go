package ravelcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/live"
	"github.com/ravelmc/ravel/wgl"
)

// TestRunReplayRefusesBadSchedules: --replay of a file that is not a recorded schedule
// of this cluster exits 2 before any node starts, naming the file and what is wrong. `{}`
// used to run a fresh sampled iteration and print "the violation reproduced in 1 of 1".
func TestRunReplayRefusesBadSchedules(t *testing.T) {
	path := writeConfig(t, "nodes:\n  count: 3\n  command: [/bin/sh, -c, 'exit 7']\noutput: out\n", "")
	dir := t.TempDir()
	for _, c := range []struct{ name, json, want string }{
		{"empty", `{}`, "no steps"},
		{"unknown op", `{"seed":1,"run":0,"steps":[{"op":"explode"}]}`, `unknown op "explode"`},
		{"unknown field", `{"seed":1,"steps":[{"op":"deliver","sender":2}]}`, `unknown field "sender"`},
		{"unknown node", `{"seed":1,"steps":[{"op":"deliver","from":1,"to":3,"kind":"k"}]}`, "to 3: the cluster has nodes 0 to 2"},
		{"crash unknown node", `{"seed":1,"steps":[{"op":"crash","node":7}]}`, "node 7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if err := os.WriteFile(file, []byte(c.json), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := run([]string{"run", "--replay", file, path}, &stdout, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d; stdout %q", code, exitUsage, stdout.String())
			}
			if msg := stderr.String(); !strings.Contains(msg, file) || !strings.Contains(msg, c.want) {
				t.Errorf("stderr %q, want the file and %q", msg, c.want)
			}
			if stdout.Len() > 0 {
				t.Errorf("something ran: %s", stdout.String())
			}
		})
	}
}

// TestReplayTally: a replay that re-imposed no recorded step is not counted as a
// reproduction, whatever its verdict.
func TestReplayTally(t *testing.T) {
	bad, good := wgl.NotLinearizable, wgl.Linearizable
	for _, c := range []struct {
		name string
		its  []live.IterationReport
		want string
	}{
		{"reproduced", []live.IterationReport{{Verdict: bad, Followed: 9}, {Verdict: good, Followed: 9}},
			"replay of s.json: the violation reproduced in 1 of 2 replays"},
		{"nothing re-imposed", []live.IterationReport{{Verdict: bad}},
			"replay of s.json: the violation reproduced in 0 of 1 replays (1 re-imposed no recorded step)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := replayTally("s.json", c.its); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestRunOutRelativeToCwd: --out is relative to the current directory, like every path
// on the command line (it was taken relative to the config's directory); --out - is
// refused (it made a directory named -).
func TestRunOutRelativeToCwd(t *testing.T) {
	path := writeConfig(t, "nodes:\n  count: 1\n  command: [/bin/sh, -c, 'exit 7']\n  start_timeout: 5s\noutput: out\n", "")
	cwd := t.TempDir()
	t.Chdir(cwd)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "--out", "rel", path}, &stdout, &stderr); code != exitUsage {
		t.Errorf("exit %d, want %d (the node exits at once)", code, exitUsage)
	}
	if _, err := os.Stat(filepath.Join(cwd, "rel", "iter-000")); err != nil {
		t.Errorf("--out rel: %v, want rel/iter-000 in the current directory", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "rel")); err == nil {
		t.Errorf("--out rel was written beside the config")
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"run", "--out", "-", path}, &stdout, &stderr); code != exitUsage {
		t.Errorf("--out -: exit %d, want %d", code, exitUsage)
	}
	if want := "run: --out -: an output must be a directory"; !strings.Contains(stderr.String(), want) {
		t.Errorf("--out -: stderr %q lacks %q", stderr.String(), want)
	}
	for _, d := range []string{cwd, filepath.Dir(path)} {
		if _, err := os.Stat(filepath.Join(d, "-")); err == nil {
			t.Errorf("--out - made %s", filepath.Join(d, "-"))
		}
	}
}
