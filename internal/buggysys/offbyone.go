// Package buggysys holds small systems with planted bugs, shared by the tests of the
// packages that report findings (ravelcli, raveltest), so that each renders the same
// system's failure.
package buggysys

import (
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// OffByOne is a primary (n0) and a backup (n1): the primary copies a write to the backup,
// which acknowledges it before the primary answers, and the backup answers reads. Its bug:
// the backup stores one more than it was sent, so a read after the copy answers a value
// never written. Its String method and its message's panic: bugs too, which a report
// must show and survive.
type OffByOne struct{ V int }

// String panics: a bug in it that reports must survive.
func (*OffByOne) String() string { panic("OffByOne.String") }

// OffByOneCopy carries a write to the backup.
type OffByOneCopy struct {
	ID model.RequestID
	V  int
}

// String panics, as OffByOne.String does.
func (OffByOneCopy) String() string { panic("OffByOneCopy.String") }

// OffByOneAck tells the primary the backup has the write.
type OffByOneAck struct{ ID model.RequestID }

// Receive copies writes to the backup, which stores one more than it was sent.
func (s *OffByOne) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		if m.Input.Write {
			s.V = m.Input.Value
			ctx.Send(1, OffByOneCopy{ID: m.ID, V: m.Input.Value})
			return
		}
		ctx.Respond(m.ID, specs.ReadOK(s.V))
	case OffByOneCopy:
		s.V = m.V + 1 // the bug
		ctx.Send(0, OffByOneAck{ID: m.ID})
	case OffByOneAck:
		ctx.Respond(m.ID, specs.WriteOK())
	}
}

// OffByOneSystem is two OffByOne actors, a client writing 1 at n0 and one reading at n1:
// the read can answer 2.
func OffByOneSystem() model.System {
	return model.System{Name: "off-by-one", Actors: []model.Actor{&OffByOne{}, &OffByOne{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()))}
}
