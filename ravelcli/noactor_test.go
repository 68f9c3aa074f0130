package ravelcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Hello carries a leader that may be unknown.
type Hello struct{ Leader model.ID }

// undecided answers every read with 7 (a register holds 0: not linearizable) after
// telling n1 that it knows no leader — or, as harness "send", sending to NoActor.
type undecided struct {
	VotedFor model.ID
	ToNoOne  bool
}

func (u *undecided) Start(*model.Ctx) {}

func (u *undecided) Receive(ctx *model.Ctx, env model.Envelope) {
	if m, ok := env.Msg.(model.Request[specs.RegisterInput]); ok {
		to := model.ID(1)
		if u.ToNoOne {
			to = model.NoActor
		}
		ctx.Send(to, Hello{Leader: model.NoActor})
		ctx.Respond(m.ID, specs.ReadOK(7))
	}
}

func (u *undecided) Clone() model.Actor { c := *u; return &c }

var undecidedSystem = System{Name: "undecided", Harnesses: []string{"read", "send"}, Agents: 2, Build: func(c Config) (model.System, error) {
	send := c.Harness == "send"
	return model.System{Name: "undecided", Actors: []model.Actor{&undecided{VotedFor: model.NoActor, ToNoOne: send}, &undecided{VotedFor: model.NoActor}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}, nil
}}

// TestNoActorPrintsNone: model.NoActor reads "none" in check's schedule and on its HTML
// page, messages and states alike (probe T7: a sentinel of the user's own printed as a
// client, c99); a Send to it is a finding that names it.
func TestNoActorPrintsNone(t *testing.T) {
	page := filepath.Join(t.TempDir(), "p.html")
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"check", "--quiet", "undecided", "--html", page}, &stdout, &stderr, Systems(undecidedSystem)); code != exitViolation {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitViolation, stdout.String(), stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "Hello{Leader:none}") {
		t.Errorf("no Hello{Leader:none} in\n%s", out)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Hello{Leader:none}", "VotedFor:none"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("no %q on the page", want)
		}
	}
	stdout.Reset()
	Run([]string{"check", "--quiet", "undecided", "--harness", "send"}, &stdout, &stderr, Systems(undecidedSystem))
	if out := stdout.String(); !strings.Contains(out, "model: Send to NoActor, the ID of no actor") {
		t.Errorf("a Send to NoActor is not named:\n%s", out)
	}
}
