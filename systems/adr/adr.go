// Package adr models "another distributed register" of the DS2 paper (§4.3): a
// read/write register replicated over n agents in which every agent coordinates the
// operations its clients send it. There is no leader.
//
// # Writes
//
// A coordinator orders writes by stamps: a counter and, to break ties, the coordinator's
// ID. To write v it takes the stamp (c+1, self), where c is the counter of the stamp it
// holds, stores v under it, and sends Replicate{stamp, v} to every other agent. An agent
// stores a replicated value only if its stamp is newer than the one it holds, so
// reordered replications never roll a copy back, and acknowledges with ReplicateAck in
// either case. When every agent has acknowledged — all of them hold this write or a newer
// one — the coordinator answers the client. Writes never retry: a write overtaken by a
// newer stamp simply takes effect just before that one (DS2's agents repeated
// overlapping replications; with stamps that order every write, nothing needs
// repeating).
//
// # Reads
//
// A read runs in rounds. In each, the coordinator notes its own (stamp, value) and sends
// Query{round} to every other agent, which replies with its own in QueryReply. When every
// agent has replied, the coordinator answers the client if all n values agree. If they
// disagree — a write is still spreading — it starts the next round, up to the retry limit
// (DS2's code had the condition inverted: it retried when the values agreed, so a read
// that saw a disagreement never completed). A read whose last round still disagrees is
// abandoned: the client gets no answer, an open operation that linearizability lets take
// effect anywhere after its invocation, or not at all.
//
// Why it is linearizable: a write answers only when every copy holds it or a newer stamp;
// copies only move forward; a coordinator's new stamp exceeds every stamp it holds, and
// so every write that completed before (each left its stamp at every agent). A read that
// answers saw one (stamp, value) at every agent, each observed inside the read's
// interval, so it is ordered after every write that completed before it began, and a read
// that begins after it ends sees that stamp or a newer one everywhere. Ordering writes by
// stamp and each read at its value's stamp is then a linearization.
//
// # The bug (NewBuggy)
//
// adr-buggy's coordinator answers a read whose values disagree at once, with its own
// copy, instead of retrying. The flawed reasoning is tempting: a disagreement means a
// write is in flight, so the read overlaps it and either value would do. But another
// read may already have returned the new value: with the write's coordinator n0 holding
// 1 and its Replicate to n1 still in flight, a read at n0 sees {1, 0} and returns 1, and
// a read at n1 that starts after it sees {0, 1} and returns 0 — the new value, then the
// old one, while the write is still running. No order of the three operations explains
// that.
package adr

import (
	"fmt"
	"strconv"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Req is the request message of the register's clients.
type Req = model.Request[specs.RegisterInput]

// Stamp orders writes: a counter, ties broken by the coordinator that made it. The zero
// Stamp is the initial value's.
type Stamp struct {
	N    int
	Node model.ID
}

// Less reports whether s is older than t.
func (s Stamp) Less(t Stamp) bool {
	if s.N != t.N {
		return s.N < t.N
	}
	return s.Node < t.Node
}

// String renders the stamp: "1.n0", and the zero Stamp, which no coordinator made,
// "initial".
func (s Stamp) String() string {
	if s == (Stamp{}) {
		return "initial"
	}
	return strconv.Itoa(s.N) + "." + s.Node.String()
}

func (s Stamp) hash(h *model.Hasher) { h.Int(s.N); h.ID(s.Node) }

// Replicate asks an agent to store Val under Stamp, for the write Req.
type Replicate struct {
	Req   model.RequestID
	Stamp Stamp
	Val   int
}

// ReplicateAck tells the write's coordinator that the agent holds the write's stamp or a
// newer one.
type ReplicateAck struct {
	Req model.RequestID
}

// Query asks an agent for its value, for round Round of the read Req.
type Query struct {
	Req   model.RequestID
	Round int
}

// QueryReply carries an agent's stamp and value.
type QueryReply struct {
	Req   model.RequestID
	Round int
	Stamp Stamp
	Val   int
}

// String renders the message for histories and schedules.
func (m Replicate) String() string {
	return "Replicate{req:" + m.Req.String() + " stamp:" + m.Stamp.String() + " val:" + strconv.Itoa(m.Val) + "}"
}

// String renders the message for histories and schedules.
func (m ReplicateAck) String() string { return "ReplicateAck{req:" + m.Req.String() + "}" }

// String renders the message for histories and schedules.
func (m Query) String() string {
	return "Query{req:" + m.Req.String() + " round:" + strconv.Itoa(m.Round) + "}"
}

// String renders the message for histories and schedules.
func (m QueryReply) String() string {
	return "QueryReply{req:" + m.Req.String() + " round:" + strconv.Itoa(m.Round) + " stamp:" + m.Stamp.String() + " val:" + strconv.Itoa(m.Val) + "}"
}

// HashState fingerprints the message.
func (m Replicate) HashState(h *model.Hasher) {
	h.Uint64(1)
	h.Request(m.Req)
	m.Stamp.hash(h)
	h.Int(m.Val)
}

// HashState fingerprints the message.
func (m ReplicateAck) HashState(h *model.Hasher) { h.Uint64(2); h.Request(m.Req) }

// HashState fingerprints the message.
func (m Query) HashState(h *model.Hasher) { h.Uint64(3); h.Request(m.Req); h.Int(m.Round) }

// HashState fingerprints the message.
func (m QueryReply) HashState(h *model.Hasher) {
	h.Uint64(4)
	h.Request(m.Req)
	h.Int(m.Round)
	m.Stamp.hash(h)
	h.Int(m.Val)
}

// Agent is one copy of the register and the coordinator of its clients' operations. Its
// exported fields are its state; Clone and HashState are its fast paths.
type Agent struct {
	// Buggy makes the agent answer a disagreeing read with its own value (adr-buggy).
	Buggy bool
	// Retries is the number of extra rounds a read may run after its first.
	Retries int
	Stamp   Stamp
	Val     int
	// Writes and Reads are the operations this agent coordinates, ordered by request so
	// that equal states have equal fields whatever the order of arrival.
	Writes []Write
	Reads  []Read
}

// Write is a write in flight at its coordinator.
type Write struct {
	Req  model.RequestID
	Acks int // agents that acknowledged, the coordinator not counted
}

// Read is a read in flight at its coordinator: its current round, the replies of that
// round, and the value they must all agree on (the coordinator's own at the round's start).
type Read struct {
	Req     model.RequestID
	Round   int
	Replies int
	Stamp   Stamp
	Val     int
	Agree   bool // every reply of this round so far matched (Stamp, Val)
}

// Clone returns a deep copy.
func (a *Agent) Clone() model.Actor {
	c := *a
	c.Writes = append([]Write(nil), a.Writes...)
	c.Reads = append([]Read(nil), a.Reads...)
	return &c
}

// HashState fingerprints the agent.
func (a *Agent) HashState(h *model.Hasher) {
	h.Bool(a.Buggy)
	h.Int(a.Retries)
	a.Stamp.hash(h)
	h.Int(a.Val)
	h.Int(len(a.Writes))
	for _, w := range a.Writes {
		h.Request(w.Req)
		h.Int(w.Acks)
	}
	h.Int(len(a.Reads))
	for _, r := range a.Reads {
		h.Request(r.Req)
		h.Int(r.Round)
		h.Int(r.Replies)
		r.Stamp.hash(h)
		h.Int(r.Val)
		h.Bool(r.Agree)
	}
}

// Receive handles one message.
func (a *Agent) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case Req:
		if m.Input.Write {
			a.Stamp = Stamp{N: a.Stamp.N + 1, Node: ctx.Self()}
			a.Val = m.Input.Value
			a.Writes = model.InsertByRequest(a.Writes, Write{Req: m.ID}, func(w Write) model.RequestID { return w.Req })
			for _, p := range ctx.Peers() {
				ctx.Send(p, Replicate{Req: m.ID, Stamp: a.Stamp, Val: a.Val})
			}
			a.maybeAckWrite(ctx, m.ID)
			return
		}
		a.Reads = model.InsertByRequest(a.Reads, Read{Req: m.ID}, func(r Read) model.RequestID { return r.Req })
		a.startRound(ctx, m.ID, 0)
	case Replicate:
		if a.Stamp.Less(m.Stamp) {
			a.Stamp, a.Val = m.Stamp, m.Val
		}
		ctx.Send(env.From, ReplicateAck{Req: m.Req})
	case ReplicateAck:
		if i := find(a.Writes, m.Req, func(w Write) model.RequestID { return w.Req }); i >= 0 {
			a.Writes[i].Acks++
			a.maybeAckWrite(ctx, m.Req)
		}
	case Query:
		ctx.Send(env.From, QueryReply{Req: m.Req, Round: m.Round, Stamp: a.Stamp, Val: a.Val})
	case QueryReply:
		i := find(a.Reads, m.Req, func(r Read) model.RequestID { return r.Req })
		if i < 0 || a.Reads[i].Round != m.Round {
			return // a reply to a read or a round that is over
		}
		r := &a.Reads[i]
		r.Replies++
		if m.Stamp != r.Stamp || m.Val != r.Val {
			r.Agree = false
		}
		a.maybeAnswerRead(ctx, i)
	default:
		panic(fmt.Sprintf("adr: unexpected message %T", env.Msg))
	}
}

// startRound starts round round of the read req: note the agent's own value, ask every
// other agent for theirs.
func (a *Agent) startRound(ctx *model.Ctx, req model.RequestID, round int) {
	i := find(a.Reads, req, func(r Read) model.RequestID { return r.Req })
	a.Reads[i] = Read{Req: req, Round: round, Stamp: a.Stamp, Val: a.Val, Agree: true}
	for _, p := range ctx.Peers() {
		ctx.Send(p, Query{Req: req, Round: round})
	}
	a.maybeAnswerRead(ctx, i)
}

func (a *Agent) maybeAckWrite(ctx *model.Ctx, req model.RequestID) {
	i := find(a.Writes, req, func(w Write) model.RequestID { return w.Req })
	if i >= 0 && a.Writes[i].Acks == len(ctx.Peers()) {
		ctx.Respond(req, specs.WriteOK())
		a.Writes = remove(a.Writes, i)
	}
}

// maybeAnswerRead ends the round of a.Reads[i] once every agent has replied: answer if
// the values agree, else retry (or, in adr-buggy, answer with the agent's own value).
func (a *Agent) maybeAnswerRead(ctx *model.Ctx, i int) {
	r := a.Reads[i]
	if r.Replies < len(ctx.Peers()) {
		return
	}
	switch {
	case r.Agree:
		ctx.Respond(r.Req, specs.ReadOK(r.Val))
	case a.Buggy:
		ctx.Respond(r.Req, specs.ReadOK(a.Val)) // the bug: a disagreement answered with the local copy
	case r.Round < a.Retries:
		a.startRound(ctx, r.Req, r.Round+1)
		return
	}
	// Answered, or out of retries: the read is over.
	a.Reads = remove(a.Reads, i)
}

// remove deletes s[i], leaving nil rather than an empty slice, so that equal states
// look equal to the reflective fingerprint too.
func remove[T any](s []T, i int) []T {
	if len(s) == 1 {
		return nil
	}
	return append(s[:i], s[i+1:]...)
}

func find[T any](s []T, req model.RequestID, key func(T) model.RequestID) int {
	for i, v := range s {
		if key(v) == req {
			return i
		}
	}
	return -1
}
