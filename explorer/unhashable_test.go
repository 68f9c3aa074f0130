package explorer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

type funcMsg struct{ F func() int }

// nilFuncMsg holds a func that is always nil, which hashes as nothing.
type nilFuncMsg struct {
	F func() int
	V int
}

type chanTimer struct{ C chan int }

// sendsUnhashable sends n1 a message holding a func, or arms a timer whose payload holds
// a channel, on a client's request.
type sendsUnhashable struct{ Timer, NilFunc bool }

func (s *sendsUnhashable) Receive(ctx *model.Ctx, env model.Envelope) {
	if _, ok := env.Msg.(model.Request[specs.RegisterInput]); !ok {
		return
	}
	switch {
	case s.Timer:
		ctx.SetTimer("t", chanTimer{make(chan int)})
		return
	case s.NilFunc:
		ctx.Send(1, nilFuncMsg{V: 1})
		return
	}
	ctx.Send(1, funcMsg{func() int { return 1 }})
}

// TestUnhashableMessageIsNamed: a message or a timer's payload that cannot be
// fingerprinted is a finding that names the sender, the message's type, the part at
// fault and what to change — not an internal message about the hash (API probe, C2). A
// func that is nil hashes as nothing, and is no finding, as before.
func TestUnhashableMessageIsNamed(t *testing.T) {
	for _, c := range []struct {
		name    string
		timer   bool
		nilFunc bool
		want    []string // nil: no finding
	}{
		{"message with a nil func", false, true, nil},
		{"message with a func", false, false, []string{"n0 sent a explorer_test.funcMsg, which cannot be fingerprinted", "explorer_test.funcMsg.F: func", "HashState"}},
		{"timer with a channel", true, false, []string{"n0 sent a explorer_test.chanTimer, which cannot be fingerprinted", "explorer_test.chanTimer.C: chan int", "HashState"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys := model.System{
				Name:    "unhashable",
				Actors:  []model.Actor{&sendsUnhashable{Timer: c.timer, NilFunc: c.nilFunc}, &sendsUnhashable{}},
				Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1))),
			}
			res, err := explorer.Run(context.Background(), sys, explorer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == nil {
				if res.First != nil {
					t.Fatalf("finding %s %q; want none", res.First.Kind, res.First.Message)
				}
				return
			}
			if res.First == nil {
				t.Fatal("no finding")
			}
			for _, want := range c.want {
				if !strings.Contains(res.First.Message, want) {
					t.Errorf("finding %q lacks %q", res.First.Message, want)
				}
			}
		})
	}
}
