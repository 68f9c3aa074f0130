package explorer_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

type regReq = model.Request[specs.RegisterInput]

// fragile panics when client c1's request arrives before client c0's.
type fragile struct{ Seen int }

func (f *fragile) Receive(ctx *model.Ctx, env model.Envelope) {
	r := env.Msg.(regReq)
	if c, _ := r.ID.Client.Client(); c == 1 && f.Seen == 0 {
		panic("c1 before c0")
	}
	f.Seen++
	ctx.Respond(r.ID, specs.WriteOK())
}

// liar answers with a value of the wrong type.
type liar struct{}

func (liar) Receive(ctx *model.Ctx, env model.Envelope) {
	ctx.Respond(env.Msg.(regReq).ID, "ok")
}

// Tick is a timer's payload.
type Tick struct{ Req model.RequestID }

// sleeper answers a write when its timer fires; a second request re-arms the same timer.
type sleeper struct{ Pending []model.RequestID }

func (s *sleeper) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case regReq:
		s.Pending = append(s.Pending, m.ID)
		ctx.SetTimer("reply", Tick{Req: m.ID})
	case Tick:
		if env.Timer != "reply" {
			panic("a timer without its name")
		}
		for _, r := range s.Pending {
			ctx.Respond(r, specs.WriteOK())
		}
		s.Pending = nil
	}
}

// forgetful reads a global counter: not deterministic, which replay must notice.
var forgetfulCalls int

type forgetful struct{}

func (forgetful) Receive(ctx *model.Ctx, env model.Envelope) {
	forgetfulCalls++
	ctx.Respond(env.Msg.(regReq).ID, specs.ReadOK(forgetfulCalls))
}

func twoClients(a model.Actor, in specs.RegisterInput) model.System {
	return model.System{Name: "t", Actors: []model.Actor{a}, Harness: model.Clients(specs.Register(), model.Calls(0, in), model.Calls(0, in))}
}

func TestFindings(t *testing.T) {
	t.Run("a panic in a handler is a finding with its schedule", func(t *testing.T) {
		res := mustRun(t, twoClients(&fragile{}, specs.Write(1)), explorer.Options{})
		v := res.First
		if v == nil || v.Kind != "panic" {
			t.Fatalf("first finding = %+v, want a panic", v)
		}
		if !strings.Contains(v.Message, "c1 before c0") || !strings.Contains(v.Stack, "fragile") {
			t.Errorf("message %q / stack %q do not say what panicked", v.Message, v.Stack)
		}
		if len(v.Steps) != 1 || v.Steps[0].From != model.ClientID(1) {
			t.Errorf("schedule = %+v, want the one delivery of c1's request", v.Steps)
		}
		if res.Stats.Panics != 1 || res.Stats.Schedules != 2 {
			t.Errorf("panics = %d of %d schedules, want 1 of 2", res.Stats.Panics, res.Stats.Schedules)
		}
		ex, err := explorer.Replay(twoClients(&fragile{}, specs.Write(1)), []uint64{v.Steps[0].ID}, false)
		if err != nil || !strings.HasPrefix(ex.Failure, "panic: c1 before c0") {
			t.Errorf("replay: %v, failure %q; want the same panic", err, ex.Failure)
		}
	})
	t.Run("an answer of the wrong type is a finding", func(t *testing.T) {
		res := mustRun(t, twoClients(liar{}, specs.Write(1)), explorer.Options{})
		if v := res.First; v == nil || v.Kind != "bad-response" || !strings.Contains(v.Message, "specs.RegisterOutput") {
			t.Fatalf("first finding = %+v, want a bad response naming the output type", v)
		}
	})
	t.Run("timers fire once per arming and re-arming replaces", func(t *testing.T) {
		sys := twoClients(&sleeper{}, specs.Write(1))
		res := mustRun(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
		if res.First != nil {
			t.Fatalf("unexpected finding %+v", res.First)
		}
		// Orders: r0 r1 t | r0 t r1 t | r1 r0 t | r1 t r0 t: four schedules.
		if res.Stats.Schedules != 4 || res.Stats.Incomplete != 0 {
			t.Errorf("schedules = %d, incomplete = %d; want 4, 0", res.Stats.Schedules, res.Stats.Incomplete)
		}
	})
	t.Run("a handler that is not deterministic is caught by replay", func(t *testing.T) {
		res := mustRun(t, twoClients(forgetful{}, specs.Read()), explorer.Options{})
		v := res.First
		if v == nil || v.Kind != "nonlinearizable" {
			t.Fatalf("first finding = %+v, want a violation (reads of values never written)", v)
		}
		if v.Replayed {
			t.Errorf("replay reached the same state although the handler reads a global counter")
		}
	})
}

// TestInvalidSystems: a system that cannot be explored is an error, not a panic.
func TestInvalidSystems(t *testing.T) {
	type hidden struct{ x int }
	_ = hidden{}.x
	tests := []struct {
		name string
		sys  model.System
		want string
	}{
		{"no actors", model.System{Name: "empty", Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}, "no actors"},
		{"no harness", model.System{Name: "h", Actors: []model.Actor{liar{}}}, "no harness"},
		{"client aimed at no actor", model.System{Name: "c", Actors: []model.Actor{liar{}}, Harness: model.Clients(specs.Register(), model.Calls(3, specs.Read()))}, "targets actor 3"},
		{"unexported state without Clone", model.System{Name: "u", Actors: []model.Actor{&unexported{}}, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}, "unexported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := explorer.Run(t.Context(), tt.sys, explorer.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

type unexported struct{ count int }

func (u *unexported) Receive(ctx *model.Ctx, env model.Envelope) { u.count++ }

// Thunk holds a func: it cannot be fingerprinted.
type Thunk struct{ F func() }

type thunker struct{}

func (thunker) Receive(ctx *model.Ctx, env model.Envelope) {
	if _, ok := env.Msg.(regReq); ok {
		ctx.Send(0, Thunk{F: func() {}})
	}
}

// TestUnhashableMessage: a message Ravel cannot fingerprint is a finding of its own kind
// (Violation.OfModel), not a crash nor a handler's panic.
func TestUnhashableMessage(t *testing.T) {
	sys := model.System{Name: "thunk", Actors: []model.Actor{thunker{}}, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}
	res := mustRun(t, sys, explorer.Options{})
	if v := res.First; v == nil || v.Kind != explorer.KindUncopyable || !strings.Contains(v.Message, "func") {
		t.Fatalf("first finding = %+v, want an uncopyable finding naming the func", v)
	}
}
