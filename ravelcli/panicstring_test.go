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

// offByOne is a primary (n0) and a backup (n1): the primary copies a write to the backup,
// which acknowledges it before the primary answers, and the backup answers reads. Its bug:
// the backup stores one more than it was sent, so a read after the copy answers a value
// never written. Its String method and its message's panic: bugs too, which a report
// must show and survive.
type offByOne struct{ V int }

func (*offByOne) String() string { panic("offByOne.String") }

type offByOneCopy struct {
	ID model.RequestID
	V  int
}

func (offByOneCopy) String() string { panic("offByOneCopy.String") }

type offByOneAck struct{ ID model.RequestID }

func (s *offByOne) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		if m.Input.Write {
			s.V = m.Input.Value
			ctx.Send(1, offByOneCopy{ID: m.ID, V: m.Input.Value})
			return
		}
		ctx.Respond(m.ID, specs.ReadOK(s.V))
	case offByOneCopy:
		s.V = m.V + 1 // the bug
		ctx.Send(0, offByOneAck{ID: m.ID})
	case offByOneAck:
		ctx.Respond(m.ID, specs.WriteOK())
	}
}

var offByOneSystem = System{Name: "off-by-one", Harnesses: []string{"w1r"}, Agents: 2,
	Build: func(Config) (model.System, error) {
		return model.System{Name: "off-by-one", Actors: []model.Actor{&offByOne{}, &offByOne{}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()))}, nil
	}}

// TestCheckPanickingString: a message and an actor whose String methods panic do not
// crash check: its report, in text and in HTML, minimized or not, gives the system's real
// bug, with the message and the actor's states rendered as fmt renders a panicking String
// method.
func TestCheckPanickingString(t *testing.T) {
	const (
		msgMark   = "%!v(PANIC=String method: offByOneCopy.String)"
		actorMark = "%!v(PANIC=String method: offByOne.String)"
	)
	for _, tc := range []struct {
		name string
		args []string
		html bool
	}{
		{"text", nil, false},
		{"not minimized", []string{"--minimize=false"}, false},
		{"html", []string{"--html"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := filepath.Join(t.TempDir(), "r.html")
			args := append([]string{"check", "off-by-one", "--quiet"}, tc.args...)
			if tc.html {
				args = append(args, page)
			}
			var stdout, stderr bytes.Buffer
			if code := Run(args, &stdout, &stderr, Systems(offByOneSystem)); code != exitViolation {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitViolation, stderr.String())
			}
			for _, want := range []string{"VIOLATION: schedule", "c1  Read()", "├──┤ 2", "n0 → n1  " + msgMark} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
			if !tc.html {
				return
			}
			b, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`"verdict":"VIOLATION (nonlinearizable)`, msgMark, actorMark} {
				if !strings.Contains(string(b), want) {
					t.Errorf("page lacks %q", want)
				}
			}
		})
	}
}
