package ravelcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayDamagedNamesCause: a counterexample file edited by hand is refused with
// its real fault, found in the order that leads from a cause to its effects — a
// required field missing or null, then an unknown system (listing the known ones), and
// only then a digest that does not match — not with the digest mismatch or the agent
// count that follow from it.
func TestReplayDamagedNamesCause(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "v.json")
	if code, _, stderr := runRavel("check", "register-buggy", "--quiet", "--out", good); code != exitViolation {
		t.Fatalf("check: exit %d, want 1; stderr:\n%s", code, stderr)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		edit   func(f map[string]any)
		want   []string
		refuse []string // what the message must not blame
	}{
		{"run null", func(f map[string]any) { f["run"] = nil }, []string{`no "run"`}, []string{"agents", "schedule_digest"}},
		{"no violation", func(f map[string]any) { delete(f, "violation") }, []string{`no "violation"`}, []string{"schedule_digest", "0 steps"}},
		{"no system", func(f map[string]any) { delete(f["run"].(map[string]any), "system") }, []string{`no "system" in "run"`}, []string{"schedule_digest"}},
		{"no kind", func(f map[string]any) { delete(f["violation"].(map[string]any), "kind") }, []string{`no "kind" in "violation"`}, []string{"schedule_digest"}},
		{"no digest", func(f map[string]any) { delete(f, "schedule_digest") }, []string{`no "schedule_digest"`}, []string{"does not match"}},
		{"unknown system", func(f map[string]any) { f["run"].(map[string]any)["system"] = "nosuch" }, []string{`unknown system "nosuch"`, "register-buggy", "chord"}, []string{"schedule_digest"}},
		{"edited agents", func(f map[string]any) { f["run"].(map[string]any)["agents"] = 4 }, []string{"schedule_digest", "does not match"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f map[string]any
			if err := json.Unmarshal(data, &f); err != nil {
				t.Fatal(err)
			}
			tt.edit(f)
			b, err := json.Marshal(f)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runRavel("replay", path)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			for _, r := range tt.refuse {
				if strings.Contains(stderr, r) {
					t.Errorf("stderr blames %q, not the real cause:\n%s", r, stderr)
				}
			}
		})
	}
}
