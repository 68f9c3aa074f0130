package ravelcli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckAndReplayListWhatIsPending: check's counterexample ends with the messages its
// schedule leaves pending, after the schedule and the line that says it was minimized,
// and replay of the file check saved lists the same (probe Y11: paxos-buggy's cause, the
// Accept of slot 0 never delivered, was in neither).
func TestCheckAndReplayListWhatIsPending(t *testing.T) {
	const pending = "\npending at the end (never delivered in this schedule):\n      n0 → n1  Accept{ballot:1 slot:0 c1.0 Get(k1)}\n"
	file := filepath.Join(t.TempDir(), "paxos.json")
	code, out, stderr := runRavel("check", "paxos-buggy", "--quiet", "--out", file)
	if code != exitViolation {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitViolation, out, stderr)
	}
	i := strings.Index(out, "(the schedule above; minimized from ")
	if i < 0 {
		t.Fatalf("no minimized note:\n%s", out)
	}
	after := out[i:]
	after = after[strings.Index(after, "\n"):]
	if !strings.HasPrefix(after, "\n"+pending) {
		t.Errorf("after the minimized note, want %q; got\n%s", pending, after)
	}
	code, rep, stderr := runRavel("replay", file)
	if code != exitViolation {
		t.Fatalf("replay: exit %d, want %d\n%s%s", code, exitViolation, rep, stderr)
	}
	if !strings.Contains(rep, "  Accepted{ballot:1 slot:2}  → c2 Get(k1) returns \"\"\n"+pending) {
		t.Errorf("replay does not list %q after the schedule:\n%s", pending, rep)
	}
}
