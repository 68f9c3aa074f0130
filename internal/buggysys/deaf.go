package buggysys

import (
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Deaf's handler matches a request of another input type than the harness sends
// (model.Request[int], for a register's): it never sees a request, and never answers
// one, so every history is all open.
type Deaf struct{ N int }

// Receive answers a model.Request[int], which never comes.
func (d *Deaf) Receive(ctx *model.Ctx, env model.Envelope) {
	if m, ok := env.Msg.(model.Request[int]); ok {
		ctx.Respond(m.ID, specs.WriteOK())
	}
}

// DeafSystem is two Deaf actors, a write at the first and a read at the second.
func DeafSystem() model.System {
	return model.System{Name: "deaf", Actors: []model.Actor{&Deaf{}, &Deaf{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()))}
}
