package ravelcli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/interactive"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems"
)

// TestExploreStepsThroughAFaultCounterexample: explore, started without fault flags,
// loads what check --crash 1 --out wrote and steps through all of it, each state the one
// ravel replay's system reaches (docs probe: step 5, the crash, was "not enabled").
func TestExploreStepsThroughAFaultCounterexample(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rv.json")
	if code, stdout, stderr := runRavel("check", "register-volatile", "--crash", "1", "--strategy", "dpor", "--quiet", "--out", out); code != exitViolation {
		t.Fatalf("check: exit %d\n%s%s", code, stdout, stderr)
	}
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	vf, ids, err := report.Read(bytes.NewReader(file), out)
	if err != nil {
		t.Fatal(err)
	}
	entry, err := systems.Lookup("register-volatile")
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := replaySystem(entry, vf)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := entry.New(Config{Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := interactive.NewWith(sys, interactive.Options{Rebuild: exploreRebuild(entry)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	post := func(path, body string) interactive.State {
		t.Helper()
		resp, err := http.Post(ts.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			var e struct{ Error string }
			json.NewDecoder(resp.Body).Decode(&e)
			t.Fatalf("%s: status %d: %s", path, resp.StatusCode, e.Error)
		}
		var st interactive.State
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	post("/api/load", string(file))
	var st interactive.State
	for i := range ids {
		st = post("/api/next", "")
		ex, err := explorer.Replay(want, ids[:i+1], vf.Run.Reflective)
		if err != nil {
			t.Fatal(err)
		}
		if fp := fmt.Sprintf("%016x", ex.Fingerprint); st.Fingerprint != fp {
			t.Errorf("step %d: shows %s, replay gives %s", i+1, st.Fingerprint, fp)
		}
	}
	if st.Verdict != "not linearizable" {
		t.Errorf("verdict at the end: %q", st.Verdict)
	}
}

// TestExploreFaultFlags: explore takes check's fault budgets and --retries, with the
// same checks, named as explore's.
func TestExploreFaultFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--crash", "-1"}, "explore: --crash must be 0 or more, got -1"},
		{[]string{"--agents", "1", "--partition", "1"}, "explore: --partition needs at least 2 agents"},
		// --port -1: a flag let through would start no server, but fail on the port.
		{[]string{"--crash-stop", "--port", "-1"}, "explore: --crash-stop needs a --crash budget"},
		{[]string{"--partition-hold", "--port", "-1"}, "explore: --partition-hold needs a --partition budget"},
		// --retries as check takes it (probe U14: "flag provided but not defined").
		{[]string{"--retries", "-2"}, "explore: --retries must be 0 (none) or positive, got -2"},
		{[]string{"--retries", "-1"}, "explore: --retries must be 0 (none) or positive, got -1"},
		{[]string{"--retries", "3", "--port", "-1"}, "explore: --port must be 0…65535, got -1"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := runRavel(append([]string{"explore", "register-volatile"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d saying %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
}

// TestListFaultsNameExplore: ravel list's fault table says its flags are check's and
// explore's (probe U14: it said "check flag").
func TestListFaultsNameExplore(t *testing.T) {
	code, stdout, stderr := runRavel("list")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "FAULT ") {
			if !strings.Contains(line, "check and explore") {
				t.Errorf("the fault table's heading names not both commands: %q", line)
			}
			return
		}
	}
	t.Errorf("no fault table:\n%s", stdout)
}
