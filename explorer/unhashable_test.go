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

// anyMsg holds whatever its sender puts in it: a type check cannot tell whether it hashes.
type anyMsg struct{ V any }

// latecomer sends n1 an anyMsg holding an int on its first request, and one holding a
// func on its second; with State, it keeps the func in its own state instead.
type latecomer struct {
	State bool
	Seen  int
	Kept  any
}

func (s *latecomer) Receive(ctx *model.Ctx, env model.Envelope) {
	req, ok := env.Msg.(model.Request[specs.RegisterInput])
	if !ok {
		return
	}
	ctx.Respond(req.ID, specs.WriteOK())
	s.Seen++
	switch {
	case s.Seen == 1:
		ctx.Send(1, anyMsg{1})
	case s.State:
		s.Kept = func() {}
	default:
		ctx.Send(1, anyMsg{func() {}})
	}
}

// TestUnhashableValueMetLaterIsNamed: a message type whose first value hashes, and a
// later one does not, is named with the part at fault when the later one is sent; and so
// is an actor's state that comes to hold a func inside an interface. Both pass the checks
// made before the search, which cannot see into interfaces that are still empty.
func TestUnhashableValueMetLaterIsNamed(t *testing.T) {
	for _, c := range []struct {
		name  string
		state bool
		want  []string
	}{
		{"message", false, []string{"n0 sent a explorer_test.anyMsg, which cannot be fingerprinted", "explorer_test.anyMsg.V.(func()): func"}},
		{"state", true, []string{"n0's state cannot be fingerprinted after the step", "explorer_test.latecomer.Kept.(func()): func"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys := model.System{
				Name:    "latecomer",
				Actors:  []model.Actor{&latecomer{State: c.state}, &latecomer{}},
				Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1), specs.Write(2))),
			}
			v := mustFind(t, sys, explorer.Options{})
			for _, want := range c.want {
				if !strings.Contains(v.Message, want) {
					t.Errorf("finding %q lacks %q", v.Message, want)
				}
			}
			if len(v.Steps) == 0 || !v.Replayed {
				t.Errorf("the finding has %d steps, replayed %v; want its schedule, replayed", len(v.Steps), v.Replayed)
			}
		})
	}
}

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
		{"message with a func", false, false, []string{"n0 sent a explorer_test.funcMsg, which cannot be fingerprinted", "explorer_test.funcMsg.F: func", "HashState", "or send a value without it"}},
		{"timer with a channel", true, false, []string{`n0 armed timer "t" with a explorer_test.chanTimer, which cannot be fingerprinted`, "explorer_test.chanTimer.C: chan int", "HashState"}},
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

// funcRestarter is a register whose Restart returns a state holding a func.
type funcRestarter struct {
	V    int
	Hook any
}

func (s *funcRestarter) Receive(ctx *model.Ctx, env model.Envelope) {
	if m, ok := env.Msg.(model.Request[specs.RegisterInput]); ok {
		ctx.Respond(m.ID, specs.WriteOK())
	}
}

func (s *funcRestarter) Restart() model.Actor { return &funcRestarter{V: s.V, Hook: func() {}} }

// TestUnhashableRestartIsNamed: a restarted state that cannot be fingerprinted is named
// like a handler's.
func TestUnhashableRestartIsNamed(t *testing.T) {
	sys := model.System{
		Name:    "func-restart",
		Actors:  []model.Actor{&funcRestarter{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1))),
		Faults:  model.Faults{Crash: 1},
	}
	v := mustFind(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
	for _, want := range []string{"n0's state cannot be fingerprinted after the step", "explorer_test.funcRestarter.Hook.(func()): func"} {
		if !strings.Contains(v.Message, want) {
			t.Errorf("finding %q lacks %q", v.Message, want)
		}
	}
}
