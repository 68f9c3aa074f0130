package explorer_test

import (
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// failingThen fails an assertion on a write, then does what After says.
type failingThen struct{ After string }

func (f *failingThen) Receive(ctx *model.Ctx, env model.Envelope) {
	m, ok := env.Msg.(model.Request[specs.RegisterInput])
	if !ok {
		return
	}
	ctx.Fail("the write broke an invariant")
	switch f.After {
	case "send to nobody":
		ctx.Send(9, m.Input)
	case "answer":
		ctx.Respond(m.ID, specs.WriteOK())
	case "empty timer":
		ctx.SetTimer("", nil)
	case "panic":
		var p *failingThen
		_ = p.After
	case "fail again":
		ctx.Fail("a second reason")
	}
}

// TestWhatFollowsFailTakesNoEffect: model.Ctx.Fail's "what it does after Fail takes no
// effect" — a misused Send, a SetTimer without a name, a panic, a second Fail after it
// leave the assertion as the finding, with Fail's reason (the API probe found a bad Send
// after Fail reported as a panic, the reason lost).
func TestWhatFollowsFailTakesNoEffect(t *testing.T) {
	for _, after := range []string{"nothing", "send to nobody", "answer", "empty timer", "panic", "fail again"} {
		t.Run(after, func(t *testing.T) {
			sys := model.System{
				Name:    "fail-then",
				Actors:  []model.Actor{&failingThen{After: after}},
				Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1))),
			}
			v := mustFind(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
			if got, want := v.Kind, "assertion"; got != want {
				t.Fatalf("kind %q (%s), want %q", got, v.Message, want)
			}
			if got, want := v.Message, "n0 failed an assertion: the write broke an invariant"; got != want {
				t.Errorf("message %q, want %q", got, want)
			}
		})
	}
}
