// Package randsys builds small random protocols for oracle tests (dpor's strategies,
// explorer's state caching and checkpoints): each seed gives a system whose actors
// forward requests along a seed-chosen route, gossip values to each other and answer
// from whatever they hold when the request arrives, so that delivery order shows in the
// answers and many histories, linearizable and not, are reachable. NewCyclic's systems
// also have cycles in their state spaces (reads bouncing between actors, a timer
// re-armed), for stateful search.
package randsys

import (
	"fmt"
	"math/rand/v2"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Hop carries a request along its route.
type Hop struct {
	Req      model.RequestID
	Input    specs.RegisterInput
	Left     int
	Deferred bool // passed on once already by a Defer rule
}

// Gossip tells an actor a value.
type Gossip struct{ Val int }

// Ping and Pong are a pinger's round trip; Tick its timer.
type (
	Ping struct{}
	Pong struct{}
	Tick struct{}
)

// rule says what an actor does with a request or hop: how many more hops to make, and
// whether to gossip its value on the way.
type rule struct {
	Hops   int
	Gossip bool
	Next   int  // which peer to forward to (index into peers)
	Bounce bool // a read passes on, unchanged, while the actor holds no value: a loop
	// Defer: a read that has not been deferred passes on once, to the next peer, while
	// the actor holds no value; that peer answers it from what it holds. Whether the
	// actor answers then depends on whether a write or a gossip reached it first.
	Defer bool
}

// Node is an actor of a random protocol.
type Node struct {
	Val    int
	Rules  [2]rule // for reads and for writes
	Pinger bool    // pings a peer on a timer, re-armed while it holds no value: a loop
	// FailOn, when not zero, is a value whose arrival (a write or a gossip) fails the
	// actor (ctx.Fail) if it holds another value already: a failure that depends on the
	// order of deliveries (NewFailing).
	FailOn int
}

// Start arms a pinger's timer.
func (n *Node) Start(ctx *model.Ctx) {
	if n.Pinger {
		ctx.SetTimer("tick", Tick{})
	}
}

func (n *Node) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		n.handle(ctx, Hop{Req: m.ID, Input: m.Input, Left: n.rule(m.Input).Hops})
	case Hop:
		n.handle(ctx, m)
	case Gossip:
		if n.fails(m.Val) {
			ctx.Fail(fmt.Sprintf("value %d arrived while holding %d", m.Val, n.Val))
			return
		}
		n.Val = m.Val
	case Tick:
		ctx.Send(ctx.Peers()[n.Rules[0].Next%len(ctx.Peers())], Ping{})
	case Ping:
		ctx.Send(env.From, Pong{})
	case Pong:
		if n.Val == 0 {
			ctx.SetTimer("tick", Tick{})
		}
	}
}

// fails reports whether value v arriving now fails the actor (FailOn).
func (n *Node) fails(v int) bool { return n.FailOn != 0 && v == n.FailOn && n.Val != 0 && n.Val != v }

func (n *Node) rule(in specs.RegisterInput) rule {
	if in.Write {
		return n.Rules[1]
	}
	return n.Rules[0]
}

func (n *Node) handle(ctx *model.Ctx, h Hop) {
	r := n.rule(h.Input)
	if r.Bounce && !h.Input.Write && n.Val == 0 && len(ctx.Peers()) > 0 {
		ctx.Send(ctx.Peers()[r.Next%len(ctx.Peers())], h)
		return
	}
	if r.Defer && !h.Input.Write && !h.Deferred && n.Val == 0 && len(ctx.Peers()) > 0 {
		h.Deferred, h.Left = true, 0
		ctx.Send(ctx.Peers()[(r.Next+1)%len(ctx.Peers())], h)
		return
	}
	if h.Input.Write {
		if n.fails(h.Input.Value) {
			ctx.Fail(fmt.Sprintf("value %d arrived while holding %d", h.Input.Value, n.Val))
			return
		}
		n.Val = h.Input.Value
	}
	if r.Gossip && len(ctx.Peers()) > 0 {
		ctx.Send(ctx.Peers()[(r.Next+1)%len(ctx.Peers())], Gossip{Val: n.Val})
	}
	if h.Left > 0 && len(ctx.Peers()) > 0 {
		h.Left--
		ctx.Send(ctx.Peers()[r.Next%len(ctx.Peers())], h)
		return
	}
	if h.Input.Write {
		ctx.Respond(h.Req, specs.WriteOK())
	} else {
		ctx.Respond(h.Req, specs.ReadOK(n.Val))
	}
}

// New builds the system of seed: 2–3 actors, 2–3 clients with one or two operations
// each, on an unordered or (sometimes) FIFO network.
func New(seed uint64) model.System { return genSystem(seed, false) }

// NewCyclic builds a random system whose state space has cycles: reads bounce between
// actors until one holds a value, and an actor pings a peer on a timer it re-arms until
// it holds one.
func NewCyclic(seed uint64) model.System { return genSystem(seed, true) }

// NewDeferring builds the system of seed, acyclic, with New's actors but for their reads,
// which each actor defers (Defer) with probability one half: a read arriving before any
// value passes on to a peer, which answers it. Whether a delivery answers a client then
// depends on what its receiver got before it — a response that moves with the order of
// deliveries at one actor, which the history relation judges steps by.
func NewDeferring(seed uint64) model.System {
	sys := genSystem(seed, false)
	rng := rand.New(rand.NewPCG(seed, 0xdefe))
	for _, a := range sys.Actors {
		nd := a.(*Node)
		nd.Rules[0].Defer = rng.IntN(2) == 0
	}
	sys.Name = fmt.Sprintf("deferring-%d", seed)
	return sys
}

// NewFailing builds the system of seed, acyclic for even seeds and cyclic for odd ones,
// with an actor that fails (ctx.Fail) when a given value reaches it while it holds
// another: some schedules end in a failure, which depends on the order of deliveries. The
// rest of the system is New's (or NewCyclic's) for seed/2.
func NewFailing(seed uint64) model.System {
	sys := genSystem(seed/2, seed%2 == 1)
	rng := rand.New(rand.NewPCG(seed, 0xfa11))
	nd := sys.Actors[rng.IntN(len(sys.Actors))].(*Node)
	nd.FailOn = 1 + rng.IntN(2)
	sys.Name = fmt.Sprintf("failing-%d", seed)
	return sys
}

func genSystem(seed uint64, cyclic bool) model.System {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	n := 2 + rng.IntN(2)
	actors := make([]model.Actor, n)
	for i := range actors {
		nd := &Node{}
		for k := range nd.Rules {
			nd.Rules[k] = rule{Hops: rng.IntN(2), Gossip: rng.IntN(3) == 0, Next: rng.IntN(n)}
			if cyclic {
				nd.Rules[k].Bounce = rng.IntN(2) == 0
			}
		}
		nd.Pinger = cyclic && i == 0 && rng.IntN(2) == 0
		actors[i] = nd
	}
	c := 2 + rng.IntN(2)
	clients := make([]model.Client[specs.RegisterInput], c)
	val := 1
	for i := range clients {
		ops := []specs.RegisterInput{}
		for k := 0; k < 1+rng.IntN(2) && (i < 2 || k == 0); k++ {
			if rng.IntN(2) == 0 {
				ops = append(ops, specs.Write(val))
				val++
			} else {
				ops = append(ops, specs.Read())
			}
		}
		clients[i] = model.Calls(model.ID(rng.IntN(n)), ops...)
	}
	net := model.Unordered
	if rng.IntN(4) == 0 {
		net = model.FIFO
	}
	name := fmt.Sprintf("random-%d", seed)
	if cyclic {
		name = fmt.Sprintf("cyclic-%d", seed)
	}
	return model.System{Name: name, Actors: actors, Network: net, Harness: model.Clients(specs.Register(), clients...)}
}
