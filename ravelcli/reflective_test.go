package ravelcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckThenReplayReflective: a counterexample saved by check replays whatever copy and
// fingerprint the search used. With --reflective its event identities are the reflective
// fingerprint's; the file records so (run.reflective), and replay, its text and its
// --html page step the schedule in that mode.
func TestCheckThenReplayReflective(t *testing.T) {
	tests := []struct {
		name  string
		flags []string
	}{
		{"default", nil},
		{"reflective", []string{"--reflective"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "f.json")
			args := append([]string{"check", "register-buggy", "--max-schedules", "2000", "--out", out, "--html", filepath.Join(dir, "check.html")}, tt.flags...)
			code, stdout, stderr := runRavel(args...)
			if code != exitViolation {
				t.Fatalf("check exit = %d, want %d; stderr:\n%s", code, exitViolation, stderr)
			}
			// The events are tied to their steps only when the text replays the schedule
			// in the search's mode.
			const caused = "events, each with the step that caused it"
			if !strings.Contains(stdout, caused) {
				t.Errorf("check output lacks %q:\n%s", caused, stdout)
			}
			code, replayed, stderr := runRavel("replay", out, "--html", filepath.Join(dir, "replay.html"))
			if code != exitViolation {
				t.Fatalf("replay exit = %d, want %d; stderr:\n%s", code, exitViolation, stderr)
			}
			for _, w := range []string{caused, "the replay gives the same history"} {
				if !strings.Contains(replayed, w) {
					t.Errorf("replay output lacks %q:\n%s", w, replayed)
				}
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			got, want := strings.Contains(string(data), `"reflective": true`), len(tt.flags) > 0
			if got != want {
				t.Errorf("file records reflective: %v, want %v", got, want)
			}
		})
	}
}
