package explorer_test

import (
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// hashBomb is a register whose HashState panics once it holds 1.
type hashBomb struct{ V int }

func (s *hashBomb) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(regReq)
	if m.Input.Write {
		s.V = m.Input.Value
		ctx.Respond(m.ID, specs.WriteOK())
		return
	}
	ctx.Respond(m.ID, specs.ReadOK(s.V))
}

func (s *hashBomb) HashState(h *model.Hasher) {
	if s.V == 1 {
		panic("hash boom")
	}
	h.Int(s.V)
}

// boomNote is a message whose HashState panics.
type boomNote struct{}

func (boomNote) HashState(*model.Hasher) { panic("note boom") }

// noter answers a write, then sends itself a boomNote.
type noter struct{ N int }

func (s *noter) Receive(ctx *model.Ctx, env model.Envelope) {
	if m, ok := env.Msg.(regReq); ok {
		ctx.Respond(m.ID, specs.WriteOK())
		ctx.Send(0, boomNote{})
	}
}

// TestHashPanicKeepsTheStep: a HashState that panics after a step — the actor's, or a
// message's it sent after answering — is a finding whose history keeps what the step
// invoked and answered, and which replays. Its history was empty, and the schedule's
// line showed no events (API probe, N6).
func TestHashPanicKeepsTheStep(t *testing.T) {
	for _, tt := range []struct {
		name  string
		actor model.Actor
		want  string
	}{
		{"the actor's", &hashBomb{}, "after n0's handler: hash boom"},
		{"a message's", &noter{}, "after n0's handler: note boom"},
	} {
		for _, minimize := range []bool{false, true} {
			name := tt.name
			if minimize {
				name += ", minimized"
			}
			t.Run(name, func(t *testing.T) {
				sys := model.System{Name: "hash-panic", Actors: []model.Actor{tt.actor}, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)))}
				v := mustFind(t, sys, explorer.Options{Minimize: minimize})
				if v.Kind != "panic" || v.Message != tt.want || len(v.Steps) != 1 || !v.Replayed {
					t.Errorf("minimize %v: %s %q with %d steps, replayed %v; want a panic %q at the first step, replayed",
						minimize, v.Kind, v.Message, len(v.Steps), v.Replayed, tt.want)
				}
				if len(v.Events) != 2 || v.Events[0].Kind != histories.Invoke || v.Events[1].Kind != histories.Return {
					t.Errorf("minimize %v: history %+v, want the write's invocation and return", minimize, v.Events)
				}
			})
		}
	}
}

// restartBomb keeps the write it has not answered; restarted, it answers it in Start,
// and its state then panics when hashed.
type restartBomb struct {
	Pending   model.RequestID
	Has, Boom bool
}

func (s *restartBomb) Receive(ctx *model.Ctx, env model.Envelope) {
	if m, ok := env.Msg.(regReq); ok {
		s.Pending, s.Has = m.ID, true
	}
}

func (s *restartBomb) Restart() model.Actor {
	return &restartBomb{Pending: s.Pending, Has: s.Has, Boom: true}
}

func (s *restartBomb) Start(ctx *model.Ctx) {
	if s.Has {
		ctx.Respond(s.Pending, specs.WriteOK())
	}
}

func (s *restartBomb) HashState(h *model.Hasher) {
	if s.Boom && s.Has {
		panic("restart boom")
	}
	h.Bool(s.Has)
}

// TestHashPanicAfterRestartKeepsTheStep: a panic hashing a restarted actor whose Start
// answered a request keeps that answer in the finding's history, as after a handler.
func TestHashPanicAfterRestartKeepsTheStep(t *testing.T) {
	sys := model.System{
		Name:    "restart-hash-panic",
		Actors:  []model.Actor{&restartBomb{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1))),
		Faults:  model.Faults{Crash: 1},
	}
	v := mustFind(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
	if want := "after restarting n0: restart boom"; v.Kind != "panic" || v.Message != want || !v.Replayed {
		t.Errorf("%s %q, replayed %v; want a panic %q, replayed", v.Kind, v.Message, v.Replayed, want)
	}
	if len(v.Events) != 2 || v.Events[1].Kind != histories.Return {
		t.Errorf("history %v; want the invocation and the answer Start gave", v.Events)
	}
}
