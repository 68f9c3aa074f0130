package ravelcli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONCarriesTheNotes: --json carries the notes and hints the text report prints,
// in the same words, so that a program reading it sees the warning that a DPOR search
// cut at the depth budget may lose histories (docs probe, 6), or that a reduction may
// miss violations; a run with nothing to say has none.
func TestJSONCarriesTheNotes(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string // "" for no notes
	}{
		{"depth cut under dpor", []string{"check", "register-buggy", "--harness", "2r2w", "--strategy", "dpor", "--state-caching", "on", "--max-depth", "10", "--max-schedules", "0"}, "hint: the DPOR family reduces by orders of whole schedules"},
		{"weak dependence", []string{"check", "register", "--strategy", "dpor", "--dependence", "actor"}, "note: under --dependence actor"},
		{"nothing to say", []string{"check", "register"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, text, _ := runRavel(c.args...)
			_, js, stderr := runRavel(append(c.args, "--json")...)
			var r struct{ Notes []string }
			if err := json.Unmarshal([]byte(js), &r); err != nil {
				t.Fatalf("not JSON: %v\n%s%s", err, js, stderr)
			}
			if c.want == "" {
				if len(r.Notes) != 0 {
					t.Errorf("notes %q, want none", r.Notes)
				}
				return
			}
			found := false
			for _, n := range r.Notes {
				if !strings.Contains(text, n) {
					t.Errorf("note %q is not in the text report:\n%s", n, text)
				}
				found = found || strings.HasPrefix(n, c.want)
			}
			if !found {
				t.Errorf("notes %q, want one starting %q", r.Notes, c.want)
			}
		})
	}
}
