package buggysys

import (
	"errors"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// KeepsError is a register that keeps an error value from its first step on: Ravel's
// reflective copy cannot copy the unexported field inside *errors.errorString, so the
// state a step leaves cannot be copied (a finding of the model, not a violation).
type KeepsError struct {
	V int
	E error
}

// Receive answers every request as a read of V, and keeps an error.
func (k *KeepsError) Receive(ctx *model.Ctx, env model.Envelope) {
	r := env.Msg.(model.Request[specs.RegisterInput])
	k.E = errors.New("x")
	ctx.Respond(r.ID, specs.ReadOK(k.V))
}

// KeepsErrorSystem is one KeepsError actor read twice.
func KeepsErrorSystem() model.System {
	return model.System{Name: "keeps-error", Actors: []model.Actor{&KeepsError{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read(), specs.Read()))}
}
