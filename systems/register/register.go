// Package register models the distributed registers of the DS2 paper (§4.1–4.2,
// Algorithm 2): a read/write register replicated over n agents, agent n0 the leader.
//
// The correct register (New): any agent forwards a client's request, unchanged, to the
// leader, so the answer goes to the client that asked (DS2's code forwarded the
// forwarder instead, and such writes were never acknowledged). The leader applies a write
// at once under a new version, replicates it to its peers with WriteReplica, and answers
// the client when a majority — itself included — holds it. It answers a read when a
// majority of the values it collects with ReadReplica agree, its own value counted
// first; a read whose replies never reach a majority stays unanswered. Replicas apply a
// write only if its version is newer than theirs, so reordered replications cannot roll a
// replica back (DS2's replicas took whatever came last; with two agents that never shows,
// with three it breaks linearizability).
//
// The erroneous register (NewBuggy, §4.2): any agent answers a read from its own copy at
// once, and the leader acknowledges a write after the first replica's ack. A write can
// then complete while an agent that has not heard of it answers a later read with the
// old value. Its replicas also take replications in arrival order, ignoring versions, as
// DS2's did (Variant.IgnoreVersions).
//
// Without faults the correct register leaves some reads open: with 2 agents a read
// whose two values disagree (the leader's new one, a replica's old one) never has a
// majority, so its client never hears back and the history is incomplete (#IH).
package register

import (
	"fmt"
	"strconv"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Req is the request message of the register's clients.
type Req = model.Request[specs.RegisterInput]

// WriteReplica asks a replica to store Val under Version.
type WriteReplica struct {
	Req     model.RequestID
	Version int
	Val     int
}

// WriteReplicaAck tells the leader a replica stored the write of Req.
type WriteReplicaAck struct {
	Req model.RequestID
}

// ReadReplica asks a replica for its value.
type ReadReplica struct {
	Req model.RequestID
}

// ReadReplicaAck carries a replica's value and its version.
type ReadReplicaAck struct {
	Req     model.RequestID
	Version int
	Val     int
}

// String renders the message for histories and schedules.
func (m WriteReplica) String() string {
	return "WriteReplica{req:" + m.Req.String() + " ver:" + strconv.Itoa(m.Version) + " val:" + strconv.Itoa(m.Val) + "}"
}

// String renders the message for histories and schedules.
func (m WriteReplicaAck) String() string { return "WriteReplicaAck{req:" + m.Req.String() + "}" }

// String renders the message for histories and schedules.
func (m ReadReplica) String() string { return "ReadReplica{req:" + m.Req.String() + "}" }

// String renders the message for histories and schedules.
func (m ReadReplicaAck) String() string {
	return "ReadReplicaAck{req:" + m.Req.String() + " ver:" + strconv.Itoa(m.Version) + " val:" + strconv.Itoa(m.Val) + "}"
}

// HashState fingerprints the message.
func (m WriteReplica) HashState(h *model.Hasher) {
	h.Uint64(1)
	h.Request(m.Req)
	h.Int(m.Version)
	h.Int(m.Val)
}

// HashState fingerprints the message.
func (m WriteReplicaAck) HashState(h *model.Hasher) { h.Uint64(2); h.Request(m.Req) }

// HashState fingerprints the message.
func (m ReadReplica) HashState(h *model.Hasher) { h.Uint64(3); h.Request(m.Req) }

// HashState fingerprints the message.
func (m ReadReplicaAck) HashState(h *model.Hasher) {
	h.Uint64(4)
	h.Request(m.Req)
	h.Int(m.Version)
	h.Int(m.Val)
}

// Variant is how a register deviates from the correct one (its zero value): the
// erroneous register's bugs, and the twins that need a fault. It is not a fault the
// explorer injects (model.Faults: --crash, --drop …), but code that behaves otherwise.
type Variant struct {
	// LocalReads: every agent answers a read from its own copy, without the leader.
	LocalReads bool
	// AckAfterFirst: the leader acknowledges a write after the first replica's ack
	// instead of a majority's.
	AckAfterFirst bool
	// IgnoreVersions: a replica takes every WriteReplica as it arrives, whatever its
	// version, as DS2's replicas did — the erroneous register's third deviation.
	IgnoreVersions bool
	// Volatile: an agent keeps its copy of the register only in memory, so that it comes
	// back from a crash with the initial value (model.Restarter). Without it the copy is
	// durable and survives.
	Volatile bool
	// Idempotent: the leader counts each agent's ack of a write, and each agent's reply to
	// a read, once. Without it (DS2's register) it counts messages, and with 3 agents a
	// duplicated ReadReplicaAck carrying an old value makes a majority on its own.
	Idempotent bool
}

// Replica is one agent of the register. Its exported fields are its state; Clone and
// HashState are its fast paths.
type Replica struct {
	Variant Variant
	Leader  model.ID
	Version int
	Val     int
	// Writes and Reads are the leader's operations in flight, ordered by request so
	// that equal states have equal fields whatever the order of arrival.
	Writes []Write
	Reads  []Read
}

// Write is a write in flight at the leader.
type Write struct {
	Req  model.RequestID
	Acks int    // agents that hold it, the leader included
	From uint64 // with Variant.Idempotent: the agents whose ack was counted
}

// Read is a read in flight at the leader.
type Read struct {
	Req     model.RequestID
	Replies int    // values collected, the leader's own included
	From    uint64 // with Variant.Idempotent: the agents whose reply was counted
	Votes   []Vote // distinct (version, value) pairs seen, with their counts
}

// Vote counts the agents that reported one (version, value).
type Vote struct {
	Version, Val, Count int
}

// Clone returns a deep copy.
func (r *Replica) Clone() model.Actor {
	c := *r
	c.Writes = append([]Write(nil), r.Writes...)
	c.Reads = make([]Read, len(r.Reads))
	for i, rd := range r.Reads {
		rd.Votes = append([]Vote(nil), rd.Votes...)
		c.Reads[i] = rd
	}
	return &c
}

// HashState fingerprints the replica.
func (r *Replica) HashState(h *model.Hasher) {
	h.Bool(r.Variant.LocalReads)
	h.Bool(r.Variant.AckAfterFirst)
	if r.Variant.IgnoreVersions != (r.Variant.LocalReads || r.Variant.AckAfterFirst) {
		// Only when it is not what the other two flags imply (register-buggy sets all
		// three): fingerprints of the shipped registers stay as they were.
		h.Uint64(0x49676e56657273)
	}
	if r.Variant.Volatile {
		h.Uint64(0x566f6c6174696c65) // only when set: fingerprints without it stay as they were
	}
	if r.Variant.Idempotent {
		h.Uint64(0x4964656d706f74) // likewise
		for _, w := range r.Writes {
			h.Uint64(w.From)
		}
		for _, rd := range r.Reads {
			h.Uint64(rd.From)
		}
	}
	h.ID(r.Leader)
	h.Int(r.Version)
	h.Int(r.Val)
	h.Int(len(r.Writes))
	for _, w := range r.Writes {
		h.Request(w.Req)
		h.Int(w.Acks)
	}
	h.Int(len(r.Reads))
	for _, rd := range r.Reads {
		h.Request(rd.Req)
		h.Int(rd.Replies)
		h.Int(len(rd.Votes))
		for _, v := range rd.Votes {
			h.Int(v.Version)
			h.Int(v.Val)
			h.Int(v.Count)
		}
	}
}

// Receive handles one message.
func (r *Replica) Receive(ctx *model.Ctx, env model.Envelope) {
	n := len(ctx.Members())
	majority := n/2 + 1
	switch m := env.Msg.(type) {
	case Req:
		switch {
		case !m.Input.Write && r.Variant.LocalReads:
			ctx.Respond(m.ID, specs.ReadOK(r.Val))
		case ctx.Self() != r.Leader:
			ctx.Send(r.Leader, m)
		case m.Input.Write:
			r.Version++
			r.Val = m.Input.Value
			r.Writes = model.InsertByRequest(r.Writes, Write{Req: m.ID, Acks: 1}, func(w Write) model.RequestID { return w.Req })
			for _, p := range ctx.Peers() {
				ctx.Send(p, WriteReplica{Req: m.ID, Version: r.Version, Val: r.Val})
			}
			r.maybeAckWrite(ctx, m.ID, majority)
		default:
			r.Reads = model.InsertByRequest(r.Reads, Read{Req: m.ID, Replies: 1, Votes: []Vote{{Version: r.Version, Val: r.Val, Count: 1}}}, func(rd Read) model.RequestID { return rd.Req })
			for _, p := range ctx.Peers() {
				ctx.Send(p, ReadReplica{Req: m.ID})
			}
			r.maybeAnswerRead(ctx, m.ID, majority, n)
		}
	case WriteReplica:
		if m.Version > r.Version || r.Variant.IgnoreVersions {
			r.Version, r.Val = m.Version, m.Val
		}
		ctx.Send(env.From, WriteReplicaAck{Req: m.Req})
	case WriteReplicaAck:
		if i := find(r.Writes, m.Req, func(w Write) model.RequestID { return w.Req }); i >= 0 {
			if r.Variant.Idempotent && !firstFrom(&r.Writes[i].From, env.From) {
				return
			}
			r.Writes[i].Acks++
			need := majority
			if r.Variant.AckAfterFirst {
				need = 2
			}
			r.maybeAckWrite(ctx, m.Req, need)
		}
	case ReadReplica:
		ctx.Send(env.From, ReadReplicaAck{Req: m.Req, Version: r.Version, Val: r.Val})
	case ReadReplicaAck:
		i := find(r.Reads, m.Req, func(rd Read) model.RequestID { return rd.Req })
		if i < 0 {
			return
		}
		rd := &r.Reads[i]
		if r.Variant.Idempotent && !firstFrom(&rd.From, env.From) {
			return
		}
		rd.Replies++
		j := 0
		for j < len(rd.Votes) && (rd.Votes[j].Version != m.Version || rd.Votes[j].Val != m.Val) {
			j++
		}
		if j == len(rd.Votes) {
			rd.Votes = append(rd.Votes, Vote{Version: m.Version, Val: m.Val})
		}
		rd.Votes[j].Count++
		r.maybeAnswerRead(ctx, m.Req, majority, n)
	default:
		panic(fmt.Sprintf("register: unexpected message %T", env.Msg))
	}
}

// firstFrom records agent a in the set from and reports whether it was not there yet.
func firstFrom(from *uint64, a model.ID) bool {
	bit := uint64(1) << uint(a)
	if *from&bit != 0 {
		return false
	}
	*from |= bit
	return true
}

// Restart is the agent after a crash: its copy of the register (version and value) if it
// is durable, the initial one if it is Volatile; the operations it had in flight as leader
// are forgotten (their clients never hear back).
func (r *Replica) Restart() model.Actor {
	c := &Replica{Variant: r.Variant, Leader: r.Leader}
	if !r.Variant.Volatile {
		c.Version, c.Val = r.Version, r.Val
	}
	return c
}

func (r *Replica) maybeAckWrite(ctx *model.Ctx, req model.RequestID, need int) {
	i := find(r.Writes, req, func(w Write) model.RequestID { return w.Req })
	if i >= 0 && r.Writes[i].Acks >= need {
		ctx.Respond(req, specs.WriteOK())
		r.Writes = append(r.Writes[:i], r.Writes[i+1:]...)
	}
}

func (r *Replica) maybeAnswerRead(ctx *model.Ctx, req model.RequestID, majority, n int) {
	i := find(r.Reads, req, func(rd Read) model.RequestID { return rd.Req })
	if i < 0 {
		return
	}
	rd := r.Reads[i]
	for _, v := range rd.Votes {
		if v.Count >= majority {
			ctx.Respond(req, specs.ReadOK(v.Val))
			r.Reads = append(r.Reads[:i], r.Reads[i+1:]...)
			return
		}
	}
	if rd.Replies == n { // every agent answered and no value has a majority: the read stays open
		r.Reads = append(r.Reads[:i], r.Reads[i+1:]...)
	}
}

func find[T any](s []T, req model.RequestID, key func(T) model.RequestID) int {
	for i, v := range s {
		if key(v) == req {
			return i
		}
	}
	return -1
}
