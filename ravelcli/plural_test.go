package ravelcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlural: a count agrees with its noun, and "differ" with what differs.
func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n          int
		want, verb string
	}{
		{0, "0 operations", "differ"},
		{1, "1 operation", "differs"},
		{2, "2 operations", "differ"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := plural(c.n, "operation"); got != c.want {
				t.Errorf("plural(%d) = %q, want %q", c.n, got, c.want)
			}
			if got := differVerb(c.n); got != c.verb {
				t.Errorf("differVerb(%d) = %q, want %q", c.n, got, c.verb)
			}
		})
	}
}

// TestOneOfAKindMessages: the messages that count one thing say so in the singular:
// lincheck of a one-operation history, and replay of a file that differs in one respect.
func TestOneOfAKindMessages(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.jsonl")
	if err := os.WriteFile(one, []byte(`{"client":0,"input":{"f":"read"},"output":0,"call":1,"return":2}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	orig := filepath.Join(dir, "v.json")
	if code, _, stderr := runRavel("check", "register-buggy", "--quiet", "--out", orig); code != exitViolation {
		t.Fatalf("check: exit %d, want %d: %s", code, exitViolation, stderr)
	}
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["violation"].(map[string]any)["history"].(map[string]any)["timeline"] = "x"
	edited, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	historyEdited := filepath.Join(dir, "history.json")
	if err := os.WriteFile(historyEdited, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"lincheck of one operation", []string{"lincheck", "--spec", "register", one}, "(1 operation, "},
		{"replay differing in the history", []string{"replay", historyEdited}, "the saved violation: the history differs\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stdout, _ := runRavel(c.args...)
			if !strings.Contains(stdout, c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, stdout)
			}
		})
	}
}
