// Package randsys builds small random protocols for oracle tests (dpor's strategies,
// explorer's state caching and checkpoints): each seed gives a system whose actors
// forward requests along a seed-chosen route, gossip values to each other and answer
// from whatever they hold when the request arrives, so that delivery order shows in the
// answers and many histories, linearizable and not, are reachable.
package randsys

import (
	"fmt"
	"math/rand/v2"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Hop carries a request along its route.
type Hop struct {
	Req   model.RequestID
	Input specs.RegisterInput
	Left  int
}

// Gossip tells an actor a value.
type Gossip struct{ Val int }

// rule says what an actor does with a request or hop: how many more hops to make, and
// whether to gossip its value on the way.
type rule struct {
	Hops   int
	Gossip bool
	Next   int // which peer to forward to (index into peers)
}

// Node is an actor of a random protocol.
type Node struct {
	Val   int
	Rules [2]rule // for reads and for writes
}

func (n *Node) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		n.handle(ctx, Hop{Req: m.ID, Input: m.Input, Left: n.rule(m.Input).Hops})
	case Hop:
		n.handle(ctx, m)
	case Gossip:
		n.Val = m.Val
	}
}

func (n *Node) rule(in specs.RegisterInput) rule {
	if in.Write {
		return n.Rules[1]
	}
	return n.Rules[0]
}

func (n *Node) handle(ctx *model.Ctx, h Hop) {
	r := n.rule(h.Input)
	if h.Input.Write {
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

// New builds the system of seed: 2–3 actors, 2–3 clients with one or two
// operations each, on an unordered or (sometimes) FIFO network.
func New(seed uint64) model.System {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	n := 2 + rng.IntN(2)
	actors := make([]model.Actor, n)
	for i := range actors {
		nd := &Node{}
		for k := range nd.Rules {
			nd.Rules[k] = rule{Hops: rng.IntN(2), Gossip: rng.IntN(3) == 0, Next: rng.IntN(n)}
		}
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
	return model.System{Name: fmt.Sprintf("random-%d", seed), Actors: actors, Network: net, Harness: model.Clients(specs.Register(), clients...)}
}
