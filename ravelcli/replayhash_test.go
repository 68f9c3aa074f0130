package ravelcli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// forgetfulSalt changes how a forgetful register hashes its state, not what it does: a
// HashState method added or changed between a check that saved a violation and its
// replay.
var forgetfulSalt uint64

// forgetful is a register that acknowledges writes and forgets them: a read after a
// write answers 0.
type forgetful struct{ Writes int }

func (f *forgetful) Start(*model.Ctx) {}

func (f *forgetful) Receive(ctx *model.Ctx, env model.Envelope) {
	if m, ok := env.Msg.(model.Request[specs.RegisterInput]); ok {
		if m.Input.Write {
			f.Writes++
			ctx.Respond(m.ID, specs.WriteOK())
			return
		}
		ctx.Respond(m.ID, specs.ReadOK(0))
	}
}

func (f *forgetful) Clone() model.Actor { c := *f; return &c }

func (f *forgetful) HashState(h *model.Hasher) {
	h.Uint64(forgetfulSalt)
	h.Uint64(uint64(f.Writes))
}

var forgetfulSystem = System{Name: "forgetful", Harnesses: []string{"w1r"}, Agents: 1, Build: func(Config) (model.System, error) {
	return model.System{Name: "forgetful", Actors: []model.Actor{&forgetful{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1), specs.Read()))}, nil
}}

// TestReplayJudgesTheHistory: a violation saved before the system's state hashing
// changed (its behaviour did not) still reproduces: replay exits 1, as raveltest says
// "still fails", and notes the changed fingerprint (probe T2: it said "does NOT
// reproduce" and exited 2).
func TestReplayJudgesTheHistory(t *testing.T) {
	t.Cleanup(func() { forgetfulSalt = 0 })
	file := filepath.Join(t.TempDir(), "v.json")
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"check", "--quiet", "forgetful", "--out", file}, &stdout, &stderr, Systems(forgetfulSystem)); code != exitViolation {
		t.Fatalf("check: exit %d, want %d\n%s%s", code, exitViolation, stdout.String(), stderr.String())
	}
	forgetfulSalt = 1
	stdout.Reset()
	stderr.Reset()
	code := Run([]string{"replay", file}, &stdout, &stderr, Systems(forgetfulSystem))
	out := stdout.String()
	if code != exitViolation || !strings.Contains(out, "VIOLATION: the history is not linearizable") {
		t.Errorf("replay: exit %d, want %d and the violation\n%s%s", code, exitViolation, out, stderr.String())
	}
	if !strings.Contains(out, "note: the final state (fingerprint ") || !strings.Contains(out, "the state's hashing changed since the file was saved") {
		t.Errorf("replay: no note of the changed fingerprint\n%s", out)
	}
	if strings.Contains(out, "NOT reproduce") {
		t.Errorf("replay says it does not reproduce\n%s", out)
	}
}
