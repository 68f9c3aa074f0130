package explorer_test

import (
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Tiny systems whose schedules can be counted by hand.

// writer answers every write at once.
type writer struct{}

func (*writer) Receive(ctx *model.Ctx, env model.Envelope) {
	if r, ok := env.Msg.(model.Request[specs.RegisterInput]); ok {
		ctx.Respond(r.ID, specs.WriteOK())
	}
}

// fanout has k actors and k clients, client i writing to actor i: k independent
// messages to k different actors.
func fanout(k int) model.System {
	actors := make([]model.Actor, k)
	clients := make([]model.Client[specs.RegisterInput], k)
	for i := range actors {
		actors[i] = &writer{}
		clients[i] = model.Calls(model.ID(i), specs.Write(i))
	}
	return model.System{Name: "fanout", Actors: actors, Harness: model.Clients(specs.Register(), clients...)}
}

// Ping and Pong are the messages of the ping-pong chain.
type Ping struct {
	Req  model.RequestID
	Left int
}

type Pong struct {
	Req  model.RequestID
	Left int
}

// player passes the ball back and forth until the count runs out, then answers.
type player struct{ Hits int }

func (p *player) Receive(ctx *model.Ctx, env model.Envelope) {
	p.Hits++
	other := model.ID(1 - int(ctx.Self()))
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		ctx.Send(other, Ping{Req: m.ID, Left: m.Input.Value})
	case Ping:
		if m.Left == 0 {
			ctx.Respond(m.Req, specs.WriteOK())
			return
		}
		ctx.Send(other, Pong{Req: m.Req, Left: m.Left - 1})
	case Pong:
		if m.Left == 0 {
			ctx.Respond(m.Req, specs.WriteOK())
			return
		}
		ctx.Send(other, Ping{Req: m.Req, Left: m.Left - 1})
	}
}

// pingPong is one client whose write starts a chain of n+1 messages: a single schedule.
func pingPong(n int) model.System {
	return model.System{
		Name:    "ping-pong",
		Actors:  []model.Actor{&player{}, &player{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(n))),
	}
}

// Note is a message that changes nothing but its receiver's count.
type Note struct{ N int }

// broadcaster sends k notes to its peer at start-up; the peer counts them.
type broadcaster struct {
	K, Seen int
	Order   []int
}

func (b *broadcaster) Start(ctx *model.Ctx) {
	if ctx.Self() != 0 {
		return
	}
	for i := 0; i < b.K; i++ {
		ctx.Send(1, Note{N: i})
	}
}

func (b *broadcaster) Receive(ctx *model.Ctx, env model.Envelope) {
	if n, ok := env.Msg.(Note); ok {
		b.Seen++
		b.Order = append(b.Order, n.N)
	}
}

// burst has actor 0 send k notes to actor 1 at start-up, and a client with nothing to do.
func burst(k int, net model.Network) model.System {
	return model.System{
		Name:    "burst",
		Actors:  []model.Actor{&broadcaster{K: k}, &broadcaster{K: k}},
		Network: net,
		Harness: model.Clients(specs.Register(), model.Client[specs.RegisterInput]{Target: 0}),
	}
}

// sink receives everything and answers nothing.
type sink struct{ Got int }

func (s *sink) Receive(*model.Ctx, model.Envelope) { s.Got++ }

// sinks has k actors that never answer and one client with one write to actor 0.
func sinks(k int) model.System {
	actors := make([]model.Actor, k)
	for i := range actors {
		actors[i] = &sink{}
	}
	return model.System{Name: "sinks", Actors: actors, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)))}
}
