package ravelcli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRetriesHelp: --retries's help says the default is the system's, and shows no
// "(default -1)", the sentinel the flag refuses when given.
func TestRetriesHelp(t *testing.T) {
	for _, cmd := range []string{"check", "bench", "deps"} {
		t.Run(cmd, func(t *testing.T) {
			code, stdout, stderr := runRavel(cmd, "-h")
			if code != exitOK {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr)
			}
			i := strings.Index(stdout, "-retries")
			if i < 0 {
				t.Fatalf("help has no -retries:\n%s", stdout)
			}
			help := stdout[i:]
			if j := strings.Index(help, "\n  -"); j > 0 {
				help = help[:j]
			}
			if !strings.Contains(help, "system's)") || strings.Contains(help, "(default -1)") {
				t.Errorf("-retries help %q: want the system's default and no (default -1)", help)
			}
		})
	}
}

// TestRetriesFlag: without --retries a system runs with its own retry limit (adr's 3);
// a limit given replaces it; -1, the sentinel, is refused when given.
func TestRetriesFlag(t *testing.T) {
	for _, c := range []struct {
		name  string
		flags []string
		code  int
		want  int // the run's retries, when it runs
	}{
		{"not given", nil, exitOK, 3},
		{"none", []string{"--retries", "0"}, exitOK, 0},
		{"given", []string{"--retries", "5"}, exitOK, 5},
		{"the sentinel", []string{"--retries", "-1"}, exitUsage, 0},
		{"not a number", []string{"--retries", "x"}, exitUsage, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"check", "adr", "--max-schedules", "5", "--json", "--quiet"}, c.flags...)
			code, stdout, stderr := runRavel(args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if code != exitOK {
				return
			}
			var r struct {
				Retries int `json:"retries"`
			}
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatalf("output is not JSON: %v", err)
			}
			if r.Retries != c.want {
				t.Errorf("retries %d, want %d", r.Retries, c.want)
			}
		})
	}
}
