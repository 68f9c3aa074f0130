package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
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

func offByOneSystem() model.System {
	return model.System{Name: "off-by-one", Actors: []model.Actor{&offByOne{}, &offByOne{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()))}
}

// TestPanickingStringIsShown: a message and an actor whose String methods panic do not
// crash the check: the failure reports the system's real bug, and renders the message as
// fmt renders a panicking String method.
func TestPanickingStringIsShown(t *testing.T) {
	r := &recorder{TB: t}
	raveltest.Check(r, offByOneSystem(), raveltest.Dir(t.TempDir()))
	if len(r.errors) != 1 {
		t.Fatalf("errors %q, want one", r.errors)
	}
	for _, want := range []string{"not linearizable", "c1  Read()", "├──┤ 2", "n0 → n1  %!v(PANIC=String method: offByOneCopy.String)"} {
		if !strings.Contains(r.errors[0], want) {
			t.Errorf("the failure lacks %q:\n%s", want, r.errors[0])
		}
	}
}
