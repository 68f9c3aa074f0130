// Package gossip is a synthetic system whose state space grows with its number of
// agents, for scaling benchmarks and for the tests of state caching.
//
// Every agent holds a register value and a count of the updates it has seen from each
// agent. A write sets the agent's value, answers the client at once, and broadcasts an
// Update to every peer; an agent takes an update's value when its origin's count says it
// is newer than what it has from that origin. Reads answer from the local value. Writes
// are acknowledged before they spread, so reads can be stale: the system is not
// linearizable, which gives the checker work; it is here for its state space — n agents
// exchange n·(n−1) updates whose deliveries interleave freely and often converge to the
// same state.
package gossip

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Update tells a peer the value Origin wrote as its Seq-th write.
type Update struct {
	Origin model.ID
	Seq    int
	Val    int
}

// String renders the update.
func (u Update) String() string {
	return "Update{from:" + u.Origin.String() + " seq:" + strconv.Itoa(u.Seq) + " val:" + strconv.Itoa(u.Val) + "}"
}

// HashState fingerprints the update.
func (u Update) HashState(h *model.Hasher) {
	h.ID(u.Origin)
	h.Int(u.Seq)
	h.Int(u.Val)
}

// Agent is one member of the gossip group.
type Agent struct {
	Val  int
	Seen []int // Seen[a]: the newest write of agent a applied here
}

// Clone returns a deep copy.
func (a *Agent) Clone() model.Actor {
	c := *a
	c.Seen = append([]int(nil), a.Seen...)
	return &c
}

// HashState fingerprints the agent.
func (a *Agent) HashState(h *model.Hasher) {
	h.Int(a.Val)
	for _, s := range a.Seen {
		h.Int(s)
	}
}

// Receive handles a request or an update.
func (a *Agent) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		if !m.Input.Write {
			ctx.Respond(m.ID, specs.ReadOK(a.Val))
			return
		}
		self := ctx.Self()
		a.Seen[self]++
		a.Val = m.Input.Value
		for _, p := range ctx.Peers() {
			ctx.Send(p, Update{Origin: self, Seq: a.Seen[self], Val: a.Val})
		}
		ctx.Respond(m.ID, specs.WriteOK())
	case Update:
		if m.Seq > a.Seen[m.Origin] {
			a.Seen[m.Origin] = m.Seq
			a.Val = m.Val
		}
	default:
		panic(fmt.Sprintf("gossip: unexpected message %T", env.Msg))
	}
}

// HarnessNames are the harnesses: "writes", every agent's client writes once (agent i
// writes i+1); "rw", even agents' clients write and odd agents' clients read.
var HarnessNames = []string{"writes", "rw"}

// New returns the gossip system of n agents with the named harness.
func New(n int, harness string) (model.System, error) {
	if n < 1 {
		return model.System{}, fmt.Errorf("gossip needs at least 1 agent, got %d", n)
	}
	clients := make([]model.Client[specs.RegisterInput], n)
	for i := range clients {
		op := specs.Write(i + 1)
		switch harness {
		case "writes":
		case "rw":
			if i%2 == 1 {
				op = specs.Read()
			}
		default:
			return model.System{}, fmt.Errorf("unknown harness %q (valid: %s)", harness, strings.Join(HarnessNames, ", "))
		}
		clients[i] = model.Calls(model.ID(i), op)
	}
	actors := make([]model.Actor, n)
	for i := range actors {
		actors[i] = &Agent{Seen: make([]int, n)}
	}
	return model.System{Name: "gossip", Actors: actors, Harness: model.Clients(specs.Register(), clients...)}, nil
}
