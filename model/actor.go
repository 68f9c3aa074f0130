package model

import (
	"math"
	"strconv"
)

// ID names an actor of a system or a client of its harness. The system's own actors are
// 0 … n−1, in the order of System.Actors; client c is −1−c (see ClientID), so an ID says
// by itself whether it names a client. NoActor names neither: a field that may name no
// one — Raft's votedFor before a vote, a leader not yet known — holds NoActor, which
// reports print as "none" (a negative ID of your own would print as a client, c99).
type ID int

// NoActor is the ID of no actor and no client, printed "none": the value of an ID field
// that names no one yet. It is not a client (Client reports false), and Ctx.Send to it
// panics, as to any ID the system does not have.
const NoActor ID = math.MinInt32

// ClientID is the ID of client c (0-based).
func ClientID(c int) ID { return ID(-1 - c) }

// Client reports the client index of id, and whether id names a client at all.
func (id ID) Client() (int, bool) { return int(-1 - id), id < 0 && id != NoActor }

// String names id the way reports do: "n0", "n1", … for actors, "c0", "c1", … for
// clients, "none" for NoActor.
func (id ID) String() string {
	if id == NoActor {
		return "none"
	}
	if c, ok := id.Client(); ok {
		return "c" + strconv.Itoa(c)
	}
	return "n" + strconv.Itoa(int(id))
}

// Actor is a participant of the system. Its fields are its state.
//
// An actor that keeps state must be a pointer: Receive on *T, and &T{…} in
// System.Actors. A Receive with a value receiver runs on a copy, so every change it
// makes to the fields is lost, silently. A value actor suits one without state, or whose
// fields only configure it. Validate refuses a value actor whose Start, Restart, Clone
// or HashState method is on its pointer type, which Ravel would never call.
//
// Receive handles one message. It runs to completion before any other step, and must be
// deterministic (see the package documentation). It may change the actor's fields and
// call ctx to send messages, respond to clients and set timers; it must not keep ctx or
// env.Msg's mutable parts beyond the call, nor change what env.Msg points to (its
// slices, maps and pointed-to values): one message is shared by every schedule that
// delivers it, so a change would reach the others. Copy it to change it. Ravel checks
// this, and reports a change as a finding (kind "changed-message"). A message sent is
// taken as it is when the handler returns, not when Send is called: do not change a
// message after sending it (a network would carry what was sent; Ravel would deliver
// the change, and cannot tell). A panic in Receive is a finding about the system: Ravel
// reports it with the schedule that led to it.
type Actor interface {
	Receive(ctx *Ctx, env Envelope)
}

// Starter is an actor with a start-up action. Start runs once, before exploration, in
// the order of System.Actors; what it sends is pending in the initial state.
type Starter interface {
	Start(ctx *Ctx)
}

// Envelope is a message on its way: who sent it, who receives it, and the payload.
type Envelope struct {
	From, To ID
	// Msg is the payload: a message value, a client's Request, or the payload of a timer.
	Msg any
	// Timer is the timer's name when a timer fires, and empty for a message.
	Timer string
}

// Network says in which orders pending messages may be delivered.
type Network uint8

const (
	// Unordered is a bag: any pending message may be delivered next. This is DS2's
	// message reordering, and the default.
	Unordered Network = iota
	// FIFO delivers the messages of one (sender, receiver) channel in the order they were
	// sent; messages of different channels interleave freely.
	FIFO
)

// String names the network kind.
func (n Network) String() string {
	switch n {
	case Unordered:
		return "unordered"
	case FIFO:
		return "fifo"
	}
	return "Network(" + strconv.Itoa(int(n)) + ")"
}
