package model

import (
	"fmt"
)

// EffectKind says what a handler asked for.
type EffectKind uint8

// The effects a handler can have.
const (
	EffectSend        EffectKind = iota // send Msg to To
	EffectRespond                       // answer request Req with Msg
	EffectSetTimer                      // arm timer Name with payload Msg (replacing it if armed)
	EffectCancelTimer                   // disarm timer Name
	EffectFail                          // a local assertion failed: Msg is the reason
)

// Effect is one thing a handler did through its context, in the order it did them.
type Effect struct {
	Kind EffectKind
	To   ID
	Msg  any
	Req  RequestID
	Name string
}

// Ctx is a handler's window on the system: who it is, who its peers are, and the effects
// it may have. A Ctx is valid only during the call it is passed to.
//
// Engines create one with NewCtx and reuse it: Begin before each handler, Effects after.
type Ctx struct {
	self    ID
	actors  int
	clients int
	members []ID
	peers   [][]ID
	effects []Effect
	// failed: the handler called Fail; what it does after takes no effect.
	failed bool
	// arrived, when set, says how many requests of client k have reached an actor.
	arrived func(client int) int
}

// NewCtx returns a context for running the handlers of a system with the given numbers
// of actors and clients. It is for engines; handlers receive theirs.
func NewCtx(actors, clients int) *Ctx {
	c := &Ctx{actors: actors, clients: clients, members: make([]ID, actors), peers: make([][]ID, actors)}
	for i := range c.members {
		c.members[i] = ID(i)
	}
	for i := range c.peers {
		p := make([]ID, 0, actors-1)
		for j := 0; j < actors; j++ {
			if j != i {
				p = append(p, ID(j))
			}
		}
		c.peers[i] = p
	}
	return c
}

// Begin prepares the context for a handler of actor self and forgets earlier effects.
// It is for engines.
func (c *Ctx) Begin(self ID) {
	c.self = self
	c.effects = c.effects[:0]
	c.failed = false
}

// SetArrived tells the context how many requests of each client have reached an actor so
// far: arrived(k) for client k, whose requests Seq 0 to arrived(k)−1 have. Respond refuses
// an answer to a later one. The count must be current whenever a handler runs (in a
// start-up action, 0). An engine sets it once; without it, Respond does not check. It is
// for engines.
func (c *Ctx) SetArrived(arrived func(client int) int) { c.arrived = arrived }

// Failed reports whether the handler since Begin called Fail. An engine reports a panic
// after Fail as the assertion, since what a handler does after Fail takes no effect. It
// is for engines.
func (c *Ctx) Failed() bool { return c.failed }

// Effects returns what the handler did since Begin, in order. The slice is reused by the
// next Begin. It is for engines.
func (c *Ctx) Effects() []Effect { return c.effects }

// Self is the actor running the handler.
func (c *Ctx) Self() ID { return c.self }

// Members lists every actor of the system, in order, the caller included. The slice is
// shared: do not modify it.
func (c *Ctx) Members() []ID { return c.members }

// Peers lists every actor of the system but the caller, in order. The slice is shared:
// do not modify it.
func (c *Ctx) Peers() []ID { return c.peers[c.self] }

// IsClient reports whether id is one of the harness's clients rather than an actor.
func (c *Ctx) IsClient(id ID) bool { k, ok := id.Client(); return ok && k < c.clients }

// Send sends msg to actor to. The message becomes pending; the network decides when it is
// delivered. Sending to a client is a mistake (answer with Respond) and panics, which
// Ravel reports as a finding with its schedule.
func (c *Ctx) Send(to ID, msg any) {
	if c.failed {
		return
	}
	if to < 0 || int(to) >= c.actors {
		if c.IsClient(to) {
			panic(fmt.Sprintf("model: Send to client %v: answer clients with Ctx.Respond", to))
		}
		if to == NoActor {
			panic("model: Send to NoActor, the ID of no actor")
		}
		panic(fmt.Sprintf("model: Send to unknown actor %d (the system has %d)", to, c.actors))
	}
	c.effects = append(c.effects, Effect{Kind: EffectSend, To: to, Msg: msg})
}

// Respond answers the client request req with out, which must have the specification's
// output type. The response is recorded at once, in this step; the client then sends its
// next request, if it has one. A second answer to a request already answered is ignored
// (clients take the first response), as a real client ignores a duplicate.
//
// Answering a request that has not reached any actor yet — a later one of its client
// than the latest to arrive, as a wrong entry in a table of pending requests would give,
// or any request in a start-up action — is a mistake and panics, which Ravel reports as
// a finding with its schedule, as it does for an answer to a non-client.
func (c *Ctx) Respond(req RequestID, out any) {
	if c.failed {
		return
	}
	if !c.IsClient(req.Client) {
		panic(fmt.Sprintf("model: Respond to %v, which is not a client of the harness", req.Client))
	}
	if req.Seq < 0 {
		panic(fmt.Sprintf("model: Respond to %v: a request's Seq is never negative", req))
	}
	if c.arrived != nil {
		k, _ := req.Client.Client()
		if n := c.arrived(k); req.Seq >= n {
			latest := "no request of " + req.Client.String() + " has arrived yet"
			if n > 0 {
				latest = req.Client.String() + "'s latest request to arrive is " + RequestID{Client: req.Client, Seq: n - 1}.String()
			}
			panic(fmt.Sprintf("model: Respond to %v, a request that has not reached any actor yet (%s)", req, latest))
		}
	}
	c.effects = append(c.effects, Effect{Kind: EffectRespond, To: req.Client, Req: req, Msg: out})
}

// SetTimer arms the caller's timer name; when it fires, the caller receives msg in an
// Envelope whose Timer is name. Arming a timer that is armed replaces its payload (with
// the payload it holds, it changes nothing: the pending firing stays the same event).
// When a timer fires is the scheduler's choice, like the delivery of a message.
func (c *Ctx) SetTimer(name string, msg any) {
	if c.failed {
		return
	}
	if name == "" {
		panic("model: SetTimer with an empty name")
	}
	c.effects = append(c.effects, Effect{Kind: EffectSetTimer, To: c.self, Name: name, Msg: msg})
}

// CancelTimer disarms the caller's timer name, if it is armed.
func (c *Ctx) CancelTimer(name string) {
	if c.failed {
		return
	}
	c.effects = append(c.effects, Effect{Kind: EffectCancelTimer, To: c.self, Name: name})
}

// Fail reports that an invariant of the caller's state does not hold: reason says which.
// Ravel reports it as a violation of kind "assertion", with the schedule that led to it,
// beside non-linearizable histories; the schedule ends at this step. The handler goes on
// running after Fail returns, but what it does after Fail takes no effect: its sends,
// answers and timers are dropped, misused ones included, and a panic after Fail is not
// reported (the assertion is). A second Fail in one handler is ignored.
func (c *Ctx) Fail(reason string) {
	if c.failed {
		return
	}
	c.failed = true
	c.effects = append(c.effects, Effect{Kind: EffectFail, To: c.self, Msg: reason})
}
