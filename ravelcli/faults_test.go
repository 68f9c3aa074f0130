package ravelcli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems"
)

// TestFaultFlagsBadValues: a bad fault flag exits 2 naming the flag.
func TestFaultFlagsBadValues(t *testing.T) {
	for _, tt := range []struct {
		args []string
		flag string
	}{
		{[]string{"--drop", "-1"}, "--drop"},
		{[]string{"--duplicate", "-2"}, "--duplicate"},
		{[]string{"--partition", "-1"}, "--partition"},
		{[]string{"--crash", "-5"}, "--crash"},
		{[]string{"--crash", "x"}, "-crash"},
		{[]string{"--timeouts", "-1"}, "--timeouts"},
		{[]string{"--partition", "1", "--agents", "13"}, "--partition"},
		{[]string{"--fault-probability", "1.5"}, "--fault-probability"},
		{[]string{"--minimize=maybe"}, "-minimize"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runRavel(append([]string{"check", "register"}, tt.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tt.flag) {
				t.Errorf("exit %d, stderr %q; want %d naming %s", code, stderr, exitUsage, tt.flag)
			}
		})
	}
	_, stdout, _ := runRavel("check", "-h")
	for _, f := range []string{"-drop", "-duplicate", "-partition", "-partition-hold", "-crash", "-crash-stop", "-timeouts", "-fault-probability", "-minimize"} {
		if !strings.Contains(stdout, f+" ") && !strings.Contains(stdout, f+"\n") {
			t.Errorf("check -h does not list %s", f)
		}
	}
}

// TestFaultViolationRoundTrip: a violation that needs a crash is reported minimized with
// its original length, saved with its budgets, and replays to the same violation; with
// state caching too (stateful DPOR with faults).
func TestFaultViolationRoundTrip(t *testing.T) {
	for _, caching := range []string{"off", "on"} {
		t.Run("state-caching="+caching, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "v.json")
			code, stdout, stderr := runRavel("check", "register-volatile", "--crash", "1", "--strategy", "dpor", "--state-caching", caching, "--quiet", "--out", out)
			if code != exitViolation {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitViolation, stderr)
			}
			for _, w := range []string{"crash 1", "CRASH n", "RESTART n", "minimized from"} {
				if !strings.Contains(stdout, w) {
					t.Errorf("report does not show %q:\n%s", w, stdout)
				}
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var vf violationFile
			if err := json.Unmarshal(data, &vf); err != nil {
				t.Fatal(err)
			}
			if vf.Run.Faults == nil || vf.Run.Faults.Crash != 1 || vf.Violation.OriginalLength <= len(vf.Violation.Steps) {
				t.Errorf("saved faults %+v, %d steps from %d", vf.Run.Faults, len(vf.Violation.Steps), vf.Violation.OriginalLength)
			}
			code, stdout, _ = runRavel("replay", out)
			if code != exitViolation || !strings.Contains(stdout, "same history") || !strings.Contains(stdout, "CRASH") {
				t.Errorf("replay exit %d:\n%s", code, stdout)
			}
			// Without minimization the schedule is the one found.
			_, stdout, _ = runRavel("check", "register-volatile", "--crash", "1", "--strategy", "dpor", "--state-caching", caching, "--quiet", "--json", "--minimize=false")
			var r checkReport
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatal(err)
			}
			if r.FirstViolation == nil || r.FirstViolation.OriginalLength != 0 || len(r.FirstViolation.Steps) != vf.Violation.OriginalLength {
				t.Errorf("--minimize=false: %+v; want the %d steps found", r.FirstViolation, vf.Violation.OriginalLength)
			}
		})
	}
}

// A system whose Build sets its own fault budgets keeps them when check is given no fault
// flag, and a flag given replaces the system's budget; the saved file records the budgets
// the run had, and replay uses them in place of the system's.
func TestFaultFlagsKeepTheSystemsOwnBudgets(t *testing.T) {
	volatile, err := systems.Lookup("register-volatile")
	if err != nil {
		t.Fatal(err)
	}
	own := volatile
	own.Name = "volatile-crashing"
	own.Build = func(c Config) (model.System, error) {
		sys, err := volatile.Build(c)
		sys.Faults.Crash = 1 // the user's own budget
		return sys, err
	}
	cat := Systems(own)
	out := filepath.Join(t.TempDir(), "v.json")
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"check", own.Name, "--strategy", "dpor", "--state-caching", "on", "--quiet", "--out", out}, &stdout, &stderr, cat); code != exitViolation || !strings.Contains(stdout.String(), "crash 1") {
		t.Errorf("no flag: exit %d, want %d with the system's crash 1 in the header:\n%s%s", code, exitViolation, stdout.String(), stderr.String())
	}
	stdout.Reset()
	if code := Run([]string{"replay", out}, &stdout, &stderr, cat); code != exitViolation || !strings.Contains(stdout.String(), "CRASH") {
		t.Errorf("replay: exit %d, want %d:\n%s", code, exitViolation, stdout.String())
	}
	stdout.Reset()
	if code := Run([]string{"check", own.Name, "--crash", "0", "--strategy", "dpor", "--state-caching", "on", "--quiet"}, &stdout, &stderr, cat); code != exitOK || strings.Contains(stdout.String(), "crash 1") {
		t.Errorf("--crash 0: exit %d, want %d without crashes:\n%s", code, exitOK, stdout.String())
	}
}
