package ravelcli

import (
	"bytes"
	"strings"
	"testing"
)

// TestReductionNote: a search that may miss canonical histories says so before its
// figures, and a clean result then says what it covers: register-buggy's violation is
// missed under the actor relation (`ravel deps`: 5 of 32 canonical histories), and the
// result must not read as a plain "no violation found". Sound runs carry no note.
func TestReductionNote(t *testing.T) {
	for _, c := range []struct {
		args     string
		note     string // the note's start; "" for none
		code     int
		lastLine string
	}{
		{"register-buggy --strategy dpor --dependence actor", "note: under --dependence actor", exitOK, "no violation found in the histories this reduction keeps (see the note above)"},
		{"register --strategy dpor --dependence key --state-caching on", "note: under --dependence key", exitOK, "no violation found in the histories this reduction keeps (see the note above)"},
		{"register --strategy ired", "note: ired is one of DS2's heuristic reductions", exitOK, "no violation found in the histories this reduction keeps (see the note above)"},
		{"register --strategy liviola", "note: under --dependence key", exitOK, "no violation found in the histories this reduction keeps (see the note above)"},
		{"register-buggy --strategy dpor", "", exitViolation, ""},
		{"register --strategy dpor --state-caching on", "", exitOK, "no violation found"},
		{"register --strategy dpor-source --dependence history", "", exitOK, "no violation found"},
		{"register", "", exitOK, "no violation found"},
	} {
		t.Run(c.args, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"check"}, strings.Fields(c.args+" --max-schedules 0")...)
			if code := Run(args, &stdout, &stderr, Builtins()); code != c.code {
				t.Fatalf("exit %d, want %d: %s", code, c.code, stderr.String())
			}
			out := stdout.String()
			got := ""
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "note: ") {
					got = l
				}
			}
			if c.note == "" && got != "" || !strings.HasPrefix(got, c.note) {
				t.Errorf("note %q, want one starting %q", got, c.note)
			}
			if last := strings.TrimSpace(out[strings.LastIndex(strings.TrimRight(out, "\n"), "\n")+1:]); c.lastLine != "" && last != c.lastLine {
				t.Errorf("last line %q, want %q", last, c.lastLine)
			}
		})
	}
}
