package ravelcli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/depbench"
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
		// LiViola's default relation is key, and it is a heuristic whatever the relation:
		// history alone would not keep every history.
		{"register --strategy liviola --dependence key", "note: under --dependence key a response at one agent and an invocation at another are independent, though their order decides whether the operations overlap, and liviola is one of DS2's heuristic reductions", exitOK, ""},
		// The samplers sample: the relation (actor, their default) only shapes the draw,
		// and random ignores it.
		{"register-buggy --strategy random --seed 7 --max-schedules 300", "", exitViolation, ""},
		{"register-buggy --strategy pos --dependence actor --seed 7 --max-schedules 300", "", exitViolation, ""},
		{"register --strategy pctcp --seed 7 --max-schedules 50", "", exitOK, ""},
		// A relation Ravel does not know to be sound — the marks experiment, or one a
		// user registered — gets a note too: the probe's D4, where dpor-source with
		// marks missed register-buggy 1r1w's only violation and said "no violation found".
		{"register-buggy --harness 1r1w --strategy dpor-source --dependence marks", "note: --dependence marks is not one Ravel knows to keep every canonical history", exitOK, "no violation found in the histories this reduction keeps (see the note above)"},
		{"register --strategy dpor --dependence marks --state-caching on", "note: --dependence marks is not one Ravel knows to keep every canonical history", exitOK, "no violation found in the histories this reduction keeps (see the note above)"},
		{"register --strategy transdpor --dependence marks", "note: --dependence marks is not one Ravel knows to keep every canonical history (only history is: ravel deps checks a relation against exhaustive search), and transdpor is one of DS2's heuristic reductions", exitOK, ""},
	} {
		t.Run(c.args, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"check"}, strings.Fields(c.args)...)
			if !strings.Contains(c.args, "--max-schedules") {
				args = append(args, "--max-schedules", "0")
			}
			if code := Run(args, &stdout, &stderr, Builtins(), Dependence(depbench.MarksName, depbench.MarksDoc, depbench.NewShippedMarks)); code != c.code {
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

// TestCutReductionHint: under a depth budget that cuts schedules, stateful DPOR explores
// fewer orders of the steps before the cut than exhaustive search (the claim, checked:
// fewer canonical histories of register-buggy 2r2w's cut schedules, fewer of them not
// linearizable), and check says so to a DPOR run — and no longer tells exhaustive search
// with caching that stateful DPOR finds the same histories in fewer states.
func TestCutReductionHint(t *testing.T) {
	const cutHint = "hint: the DPOR family reduces by orders of whole schedules"
	const sameHint = "hint: --strategy dpor (stateful DPOR"
	type result struct {
		Canonical int64 `json:"histories_canonical"`
		NL        int64 `json:"nonlinearizable_canonical"`
		Cut       int64 `json:"cut_schedules"`
	}
	counts := map[string]result{}
	for _, c := range []struct {
		args       string
		hint, none string
	}{
		{"register-buggy --harness 2r2w --strategy dpor --state-caching on --max-depth 10", cutHint, sameHint},
		{"register-buggy --harness 2r2w --strategy exhaustive --state-caching on --max-depth 10", "", cutHint + "|" + sameHint},
		{"register-buggy --harness 2r2w --strategy dpor --state-caching on", "", cutHint},
		{"register-buggy --harness 2r2w --strategy dpor --max-depth 10", "hint: the depth budget (--max-depth 10) cut the search: raise it until nothing is cut; if the protocol's paths loop, --state-caching on", cutHint},
	} {
		t.Run(c.args, func(t *testing.T) {
			args := append([]string{"check"}, strings.Fields(c.args+" --max-schedules 0")...)
			var stdout, stderr bytes.Buffer
			Run(args, &stdout, &stderr, Builtins())
			out := stdout.String()
			if c.hint != "" && !strings.Contains(out, c.hint) {
				t.Errorf("no %q in\n%s", c.hint, out)
			}
			for _, h := range strings.Split(c.none, "|") {
				if h != "" && strings.Contains(out, h) {
					t.Errorf("%q in\n%s", h, out)
				}
			}
			stdout.Reset()
			Run(append(args, "--json"), &stdout, &stderr, Builtins())
			var r result
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			counts[c.args] = r
		})
	}
	dp := counts["register-buggy --harness 2r2w --strategy dpor --state-caching on --max-depth 10"]
	ex := counts["register-buggy --harness 2r2w --strategy exhaustive --state-caching on --max-depth 10"]
	if dp.Cut == 0 || ex.Cut == 0 || dp.Canonical >= ex.Canonical || dp.NL >= ex.NL {
		t.Errorf("depth 10: stateful DPOR %+v, exhaustive search %+v: want both cut, DPOR with fewer histories and violations", dp, ex)
	}
}
