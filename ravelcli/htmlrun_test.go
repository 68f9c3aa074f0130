package ravelcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPagesNameFaultsAndMinimization: check --html's page says the schedule was
// minimized (verdict, run table and its text block) and names the fault budgets; replay
// names the file's budgets in its header, and its page names them with the harness,
// agents and the minimization (probe M3).
func TestPagesNameFaultsAndMinimization(t *testing.T) {
	dir := t.TempDir()
	out, checkPage, replayPage := filepath.Join(dir, "v.json"), filepath.Join(dir, "check.html"), filepath.Join(dir, "replay.html")
	code, stdout, stderr := runRavel("check", "register-buggy", "--duplicate", "1", "--strategy", "random", "--fault-probability", "0.5", "--seed", "1", "--quiet", "--out", out, "--html", checkPage)
	if code != exitViolation || !strings.Contains(stdout, "; minimized from ") {
		t.Fatalf("check: exit %d, want %d and a minimized schedule\n%s\n%s", code, exitViolation, stdout, stderr)
	}
	code, replayOut, stderr := runRavel("replay", out, "--html", replayPage)
	if code != exitViolation {
		t.Fatalf("replay: exit %d\n%s\n%s", code, replayOut, stderr)
	}
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		name, text, want string
	}{
		{"check page: verdict", read(checkPage), "in schedule 6 (minimized from "},
		{"check page: faults row", read(checkPage), "duplicate 1"},
		{"check page: text block", read(checkPage), "(the schedule above; minimized from "},
		{"replay header", replayOut, "(register-buggy, harness 2r1w, agents 3, duplicate 1)"},
		{"replay page: faults row", read(replayPage), "duplicate 1"},
		{"replay page: harness", read(replayPage), "2r1w"},
		{"replay page: minimized", read(replayPage), "minimized"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(c.text, c.want) {
				t.Errorf("lacks %q:\n%s", c.want, c.text)
			}
		})
	}
}
