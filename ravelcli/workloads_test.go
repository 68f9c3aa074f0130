package ravelcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckWorkloads(t *testing.T) {
	out := filepath.Join(t.TempDir(), "v.json")
	code, stdout, stderr := runRavel("check", "register-buggy", "--workloads", "all:ops=3,clients=2", "--max-schedules", "500", "--quiet", "--json", "--out", out)
	if code != exitViolation {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitViolation, stderr)
	}
	var r checkReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Workload, "all:ops=3,clients=2#") || r.FirstViolation == nil {
		t.Errorf("report names workload %q, violation %v; want a generated workload and its violation", r.Workload, r.FirstViolation)
	}
	// replay rebuilds the workload from its name and gives the same history.
	code, stdout, _ = runRavel("replay", out)
	if code != exitViolation || !strings.Contains(stdout, "the same history") {
		t.Errorf("replay: exit %d, output:\n%s", code, stdout)
	}
	// Its header names the workload replayed, not the harness it replaced (docs probe).
	if header := strings.SplitN(stdout, "\n", 2)[0]; !strings.Contains(header, "workload "+r.Workload+",") || strings.Contains(header, "harness") {
		t.Errorf("replay header %q, want it to name workload %s and no harness", header, r.Workload)
	}

	code, stdout, stderr = runRavel("check", "register", "--workloads", "all:ops=2,clients=2", "--quiet")
	if code != exitOK || !strings.Contains(stdout, "no violation found under any workload") {
		t.Errorf("register: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
	code, _, stderr = runRavel("check", "register", "--workloads", "every:ops=2")
	if code != exitUsage || !strings.Contains(stderr, "all:") {
		t.Errorf("bad --workloads: exit %d, stderr %s", code, stderr)
	}
}

// TestCheckWorkloadsTooMany: a generator above the limit is refused (exit 2) before
// anything is generated, with its count and what to lower; the probe's
// all:ops=1000,clients=1000 ran the machine out of memory instead.
func TestCheckWorkloadsTooMany(t *testing.T) {
	for _, tc := range []struct{ gen, want string }{
		{"all:ops=1000,clients=1000", "check: --workloads all:ops=1000,clients=1000 makes more than 10^"},
		{"all:ops=14,clients=2", "check: --workloads all:ops=14,clients=2 makes 425,986 workloads over 2 inputs and 2 actors; the limit is 100,000: lower ops or clients"},
		{"random:n=1000000", "makes 1,000,000 workloads; the limit is 100,000: lower n"},
	} {
		t.Run(tc.gen, func(t *testing.T) {
			code, stdout, stderr := runRavel("check", "register", "--workloads", tc.gen, "--max-schedules", "1", "--quiet")
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

// TestMaxSchedulesHelpSaysPerWorkload: with --workloads, --max-schedules is each
// workload's budget (34 workloads × 500 schedules), and the help says so.
func TestMaxSchedulesHelpSaysPerWorkload(t *testing.T) {
	code, stdout, stderr := runRavel("check", "-h")
	if code != exitOK {
		t.Fatalf("check -h: exit %d, stderr %s", code, stderr)
	}
	_, help, ok := strings.Cut(stdout, "-max-schedules int\n")
	if !ok {
		t.Fatalf("check -h does not list --max-schedules:\n%s", stdout)
	}
	help, _, _ = strings.Cut(help, "\n")
	if !strings.Contains(help, "with --workloads, this many for each workload") {
		t.Errorf("--max-schedules help %q does not say it is per workload", help)
	}
}

func TestCheckHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "r.html")
	code, _, stderr := runRavel("check", "register-buggy", "--quiet", "--html", page)
	if code != exitViolation {
		t.Fatalf("exit %d; stderr %s", code, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", `"verdict":"VIOLATION (nonlinearizable)`, `"lifelines":["c0","c1","c2","n0","n1","n2"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	code, _, stderr = runRavel("check", "register-buggy", "--quiet", "--html", filepath.Join(t.TempDir(), "no", "such", "dir.html"))
	if code != exitUsage || !strings.Contains(stderr, "--html") {
		t.Errorf("unwritable --html: exit %d, stderr %s", code, stderr)
	}
}

func TestExploreBadUsage(t *testing.T) {
	for _, args := range [][]string{{"explore"}, {"explore", "nosuch"}, {"explore", "register", "--port", "-1"}, {"explore", "register", "--harness", "9r9w"}} {
		code, _, stderr := runRavel(args...)
		if code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
}

func TestReplayHTML(t *testing.T) {
	dir := t.TempDir()
	out, page := filepath.Join(dir, "v.json"), filepath.Join(dir, "r.html")
	if code, _, stderr := runRavel("check", "register-buggy", "--quiet", "--out", out); code != exitViolation {
		t.Fatalf("check: exit %d, %s", code, stderr)
	}
	code, _, stderr := runRavel("replay", out, "--html", page)
	if code != exitViolation {
		t.Fatalf("replay: exit %d, %s", code, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(b), `"verdict":"VIOLATION: the history is not linearizable"`) {
		t.Errorf("replay page: %v", err)
	}
	if code, _, _ := runRavel("replay", out, "--html"); code != exitUsage {
		t.Errorf("--html without a file: exit %d, want 2", code)
	}
}

func TestLincheckHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "l.html")
	code, _, stderr := runRavel("lincheck", "--format", "jepsen", "--html", page, filepath.Join(porcupineData, "jepsen", "etcd_000.log"))
	if code != exitViolation {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"verdict":"not-linearizable"`, `"stuck":true`, `longest linearizable prefix`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestCheckWorkloadsIncompleteVerdict: when a workload's search stops at a budget, the
// last line says so, as a single check's does; it read "no violation found under any
// workload" with abd-buggy's bug unreached in two of three workloads.
func TestCheckWorkloadsIncompleteVerdict(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"schedule budget", []string{"--max-schedules", "50"},
			"no violation found under any workload — but 2 workloads were not explored completely (2 at the schedule budget, --max-schedules 50 each): the schedules not explored may hold one"},
		{"state budget", []string{"--max-schedules", "0", "--state-caching", "on", "--max-states", "100"},
			"no violation found under any workload — but 2 workloads were not explored completely (2 at the state budget, --max-states 100)"},
		{"complete", []string{"--max-schedules", "0", "--strategy", "dpor", "--state-caching", "on"},
			"\nno violation found under any workload\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"check", "abd", "--workloads", "random:n=3", "--quiet"}, tc.args...)
			code, stdout, stderr := runRavel(args...)
			if code != exitOK || !strings.Contains(stdout, tc.want) {
				t.Errorf("exit %d, stdout:\n%s\nstderr %s\nwant exit 0 and %q", code, stdout, stderr, tc.want)
			}
		})
	}
}
