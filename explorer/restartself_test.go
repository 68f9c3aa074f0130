package explorer_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// selfRestarter is a register whose Restart returns the crashed actor itself.
type selfRestarter struct{ V int }

func (s *selfRestarter) Receive(ctx *model.Ctx, env model.Envelope) {
	if m, ok := env.Msg.(model.Request[specs.RegisterInput]); ok {
		if m.Input.Write {
			s.V = m.Input.Value
			ctx.Respond(m.ID, specs.WriteOK())
			return
		}
		ctx.Respond(m.ID, specs.ReadOK(s.V))
	}
}

func (s *selfRestarter) Restart() model.Actor { return s }

// TestRestartMustNotReturnTheCrashedActor: model.Restarter's "must return a value sharing
// no mutable memory with it" — the crashed state belongs to every schedule's snapshots
// through it. Returning the actor itself was let through (API probe, N5); it is a
// finding now, named.
func TestRestartMustNotReturnTheCrashedActor(t *testing.T) {
	sys := model.System{
		Name:    "self-restart",
		Actors:  []model.Actor{&selfRestarter{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1), specs.Read())),
		Faults:  model.Faults{Crash: 1},
	}
	v := mustFind(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
	if want := "Restart of n0 returned the crashed actor itself"; !strings.Contains(v.Message, want) {
		t.Errorf("finding %s: %q, want %q", v.Kind, v.Message, want)
	}
}
