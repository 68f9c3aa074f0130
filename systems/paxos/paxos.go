// Package paxos models the DS2 paper's Multi-Paxos replicated map (§4.5): a key-value map
// whose operations are ordered by a log of slots that Paxos decides, n0 the leader.
//
// # Roles
//
// Every node is an acceptor. n0 is also the proposer and the learner: it gives every
// client operation, reads included, the next slot of the log, has Paxos decide the
// slot, and applies the decided log to its copy of the map in slot order. The other
// nodes forward their clients' requests, unchanged, to n0 (DS2's Propose). The leader's
// own acceptor is part of its state and answers it without messages.
//
// # The protocol
//
// Phase 1 runs once per ballot, for every slot at once, as in Multi-Paxos: the first
// request the leader gets makes it send Prepare{ballot}. An acceptor that has promised
// nothing as high promises the ballot and answers Promise with every vote it has cast
// (slot, ballot, command); otherwise it answers Nack with the ballot it promised.
// Requests that arrive meanwhile get their slots and wait.
//
// On a quorum (a majority) of promises the leader leads: it sends Accept{ballot, slot,
// command} for every slot it has assigned and not yet seen decided — where a promise
// reported a vote for the slot, the command of the highest-ballot vote, as Paxos
// requires — and from then on one Accept for each new request. An acceptor accepts
// unless it has promised a higher ballot, answering Accepted or Nack. On a quorum of
// Accepted the slot is chosen. The leader sends each Accept once and answers each client
// once (DS2's leader re-sent both on every reply after the quorum).
//
// When acceptors enough to deny it a quorum have answered Nack, the ballot is beaten: the
// leader prepares again with a ballot above every one it heard of and, once it leads,
// sends Accepts for every slot not yet chosen — at most the retry limit times; after
// that it stops, and operations not yet chosen are never answered (open operations,
// which linearizability lets take effect or not). With one proposer no acceptor promises
// a ballot the leader did not send, so the harnesses never see a Nack: it takes an
// acceptor that promised a higher ballot before (a former leader's; the tests set one
// up). DS2's model ran both phases for every operation, each with a fresh ballot, so
// that the leader's own operations preempted each other and retried; that made Nacks
// common and the state space explode (beyond 20 million DPOR schedules on 2r1w with one
// retry, against 1,876 here), and it is not how a Multi-Paxos leader works.
//
// # Answers
//
// A write is answered as soon as its slot is chosen: its place in the log is fixed. A
// read is answered when its slot is applied — once every slot before it has been chosen
// and applied — with its key's value at that point. Slots are chosen out of order (the
// Accepts of several slots are in flight at once), but applied in order. The slots'
// order linearizes every history: an operation that begins after another ends gets a
// later slot, and a read sees exactly the writes in the slots before its own.
//
// # The bug (NewBuggy, "paxos-buggy")
//
// paxos-buggy's leader answers a read as soon as the read's own slot is chosen, with the
// map as applied so far, without waiting for the slots before it — as if committing the
// read fixed what it sees. But slots are chosen out of order, so the applied map can lag
// behind writes the leader has already acknowledged. In the 2r1w harness: one read takes
// slot 0 and its Accepted is delayed; the write takes slot 1, is chosen and
// acknowledged; the other read then takes slot 2, which is chosen while slot 0 is not,
// and returns "" — the write completed before that read began, yet the read missed it.
package paxos

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Req is the request message of the map's clients.
type Req = model.Request[specs.KVInput]

// Command is an operation as the log holds it: the client's request and its input.
type Command struct {
	Req model.RequestID
	In  specs.KVInput
}

// String renders the command: "c0.0 Put(k1, \"1\")".
func (c Command) String() string { return c.Req.String() + " " + c.In.String() }

func (c Command) hash(h *model.Hasher) {
	h.ID(c.Req.Client)
	h.Int(c.Req.Seq)
	h.Uint64(uint64(c.In.Op))
	h.String(c.In.Key)
	h.String(c.In.Value)
}

// Vote is a command an acceptor accepted for a slot, at a ballot.
type Vote struct {
	Slot, Ballot int
	Cmd          Command
}

func (v Vote) hash(h *model.Hasher) { h.Int(v.Slot); h.Int(v.Ballot); v.Cmd.hash(h) }

func hashVotes(h *model.Hasher, vs []Vote) {
	h.Int(len(vs))
	for _, v := range vs {
		v.hash(h)
	}
}

// Prepare is phase 1a: the leader asks for a promise of Ballot, for every slot.
type Prepare struct {
	Ballot int
}

// Promise is phase 1b: the acceptor promised Ballot; Votes are the votes it has cast,
// ordered by slot.
type Promise struct {
	Ballot int
	Votes  []Vote
}

// Nack refuses Ballot: the acceptor has promised Promised, which is higher.
type Nack struct {
	Ballot, Promised int
}

// Accept is phase 2a: the leader asks the acceptors to accept Cmd for Slot at Ballot.
type Accept struct {
	Ballot, Slot int
	Cmd          Command
}

// Accepted is phase 2b: the acceptor accepted Ballot's command for Slot.
type Accepted struct {
	Ballot, Slot int
}

// String renders the message for histories and schedules.
func (m Prepare) String() string { return "Prepare{ballot:" + strconv.Itoa(m.Ballot) + "}" }

// String renders the message for histories and schedules.
func (m Promise) String() string {
	var b strings.Builder
	b.WriteString("Promise{ballot:" + strconv.Itoa(m.Ballot) + " votes:[")
	for i, v := range m.Votes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(v.Slot) + "@" + strconv.Itoa(v.Ballot) + " " + v.Cmd.String())
	}
	b.WriteString("]}")
	return b.String()
}

// String renders the message for histories and schedules.
func (m Nack) String() string {
	return "Nack{ballot:" + strconv.Itoa(m.Ballot) + " promised:" + strconv.Itoa(m.Promised) + "}"
}

// String renders the message for histories and schedules.
func (m Accept) String() string {
	return "Accept{ballot:" + strconv.Itoa(m.Ballot) + " slot:" + strconv.Itoa(m.Slot) + " " + m.Cmd.String() + "}"
}

// String renders the message for histories and schedules.
func (m Accepted) String() string {
	return "Accepted{ballot:" + strconv.Itoa(m.Ballot) + " slot:" + strconv.Itoa(m.Slot) + "}"
}

// HashState fingerprints the message.
func (m Prepare) HashState(h *model.Hasher) { h.Uint64(1); h.Int(m.Ballot) }

// HashState fingerprints the message.
func (m Promise) HashState(h *model.Hasher) { h.Uint64(2); h.Int(m.Ballot); hashVotes(h, m.Votes) }

// HashState fingerprints the message.
func (m Nack) HashState(h *model.Hasher) { h.Uint64(3); h.Int(m.Ballot); h.Int(m.Promised) }

// HashState fingerprints the message.
func (m Accept) HashState(h *model.Hasher) {
	h.Uint64(4)
	h.Int(m.Ballot)
	h.Int(m.Slot)
	m.Cmd.hash(h)
}

// HashState fingerprints the message.
func (m Accepted) HashState(h *model.Hasher) { h.Uint64(5); h.Int(m.Ballot); h.Int(m.Slot) }

// The leader's phases.
const (
	Idle      = iota // no ballot yet
	Preparing        // phase 1 of Ballot under way
	Leading          // a quorum promised Ballot
	Stopped          // beaten more often than the retry limit allows
)

// Slot is one slot of the leader's log: the command it proposes there, the acceptors
// that accepted it at the current ballot (a bit each), and whether it is chosen.
type Slot struct {
	Cmd      Command
	Accepted Acceptors
	Chosen   bool
}

// Acceptors is a set of agents, a bit each: it prints as the agents it holds, "{n0 n2}",
// not as the number the bits make.
type Acceptors uint64

// String lists the agents in the set.
func (a Acceptors) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < 64; i++ {
		if a&(1<<uint(i)) != 0 {
			if b.Len() > 1 {
				b.WriteByte(' ')
			}
			b.WriteString(model.ID(i).String())
		}
	}
	b.WriteByte('}')
	return b.String()
}

// Entry is one key's value in the map.
type Entry struct {
	Key, Val string
}

// Node is one node: an acceptor, and at n0 the leader too. Its exported fields are its
// state; Clone and HashState are its fast paths.
type Node struct {
	// Buggy makes the leader answer reads when chosen rather than applied (paxos-buggy).
	Buggy bool
	// Retries is the number of times the leader may prepare again after being beaten.
	Retries int
	Leader  model.ID

	// The acceptor: the highest ballot promised, and its votes, ordered by slot.
	Promised int
	Votes    []Vote

	// The leader: its ballot, the highest it heard of, and its phase; the acceptors that promised or refused the
	// ballot (a bit each); the highest-ballot vote the promises reported for each slot;
	// how often it prepared again; the log; how many slots are applied; and the map.
	Ballot   int
	Heard    int // the highest ballot a Nack reported
	Phase    int
	Promises Acceptors
	Nacks    Acceptors
	Reported []Vote
	Tries    int
	Log      []Slot
	Applied  int
	Data     []Entry
}

// Clone returns a deep copy.
func (n *Node) Clone() model.Actor {
	c := *n
	c.Votes = append([]Vote(nil), n.Votes...)
	c.Reported = append([]Vote(nil), n.Reported...)
	c.Log = append([]Slot(nil), n.Log...)
	c.Data = append([]Entry(nil), n.Data...)
	return &c
}

// HashState fingerprints the node.
func (n *Node) HashState(h *model.Hasher) {
	h.Bool(n.Buggy)
	h.Int(n.Retries)
	h.ID(n.Leader)
	h.Int(n.Promised)
	hashVotes(h, n.Votes)
	h.Int(n.Ballot)
	h.Int(n.Heard)
	h.Int(n.Phase)
	h.Uint64(uint64(n.Promises))
	h.Uint64(uint64(n.Nacks))
	hashVotes(h, n.Reported)
	h.Int(n.Tries)
	h.Int(len(n.Log))
	for _, s := range n.Log {
		s.Cmd.hash(h)
		h.Uint64(uint64(s.Accepted))
		h.Bool(s.Chosen)
	}
	h.Int(n.Applied)
	h.Int(len(n.Data))
	for _, e := range n.Data {
		h.String(e.Key)
		h.String(e.Val)
	}
}

// Receive handles one message.
func (n *Node) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case Req:
		if ctx.Self() != n.Leader {
			ctx.Send(n.Leader, m)
			return
		}
		n.Log = append(n.Log, Slot{Cmd: Command{Req: m.ID, In: m.Input}})
		switch n.Phase {
		case Idle:
			n.prepare(ctx)
		case Leading:
			n.accept(ctx, len(n.Log)-1)
		}
	case Prepare:
		if m.Ballot <= n.Promised {
			ctx.Send(env.From, Nack{Ballot: m.Ballot, Promised: n.Promised})
			return
		}
		n.Promised = m.Ballot
		ctx.Send(env.From, Promise{Ballot: m.Ballot, Votes: append([]Vote(nil), n.Votes...)})
	case Accept:
		if !n.vote(m.Ballot, m.Slot, m.Cmd) {
			ctx.Send(env.From, Nack{Ballot: m.Ballot, Promised: n.Promised})
			return
		}
		ctx.Send(env.From, Accepted{Ballot: m.Ballot, Slot: m.Slot})
	case Promise:
		if n.Phase == Preparing && m.Ballot == n.Ballot {
			n.Promises |= bit(env.From)
			for _, v := range m.Votes {
				n.report(v)
			}
			n.maybeLead(ctx)
		}
	case Accepted:
		if n.Phase == Leading && m.Ballot == n.Ballot && m.Slot < len(n.Log) && !n.Log[m.Slot].Chosen {
			n.Log[m.Slot].Accepted |= bit(env.From)
			n.maybeChosen(ctx, m.Slot)
		}
	case Nack:
		if (n.Phase == Preparing || n.Phase == Leading) && m.Ballot == n.Ballot {
			n.Heard = max(n.Heard, m.Promised)
			n.Nacks |= bit(env.From)
			n.maybeBeaten(ctx)
		}
	default:
		panic(fmt.Sprintf("paxos: unexpected message %T", env.Msg))
	}
}

func bit(id model.ID) Acceptors { return 1 << uint(id) }

func quorum(ctx *model.Ctx) int { return len(ctx.Members())/2 + 1 }

// vote is the acceptor's phase 2: accept cmd for slot at ballot unless a higher ballot
// was promised.
func (n *Node) vote(ballot, slot int, cmd Command) bool {
	if ballot < n.Promised {
		return false
	}
	n.Promised = ballot
	i := 0
	for i < len(n.Votes) && n.Votes[i].Slot < slot {
		i++
	}
	v := Vote{Slot: slot, Ballot: ballot, Cmd: cmd}
	if i < len(n.Votes) && n.Votes[i].Slot == slot {
		n.Votes[i] = v
		return true
	}
	n.Votes = append(n.Votes, Vote{})
	copy(n.Votes[i+1:], n.Votes[i:])
	n.Votes[i] = v
	return true
}

// report keeps v if it is the highest-ballot vote reported for its slot.
func (n *Node) report(v Vote) {
	i := 0
	for i < len(n.Reported) && n.Reported[i].Slot < v.Slot {
		i++
	}
	if i < len(n.Reported) && n.Reported[i].Slot == v.Slot {
		if v.Ballot > n.Reported[i].Ballot {
			n.Reported[i] = v
		}
		return
	}
	n.Reported = append(n.Reported, Vote{})
	copy(n.Reported[i+1:], n.Reported[i:])
	n.Reported[i] = v
}

// prepare starts phase 1 with a ballot above every one the leader has used or heard of.
// Its own acceptor promises at once (no one else proposes, so nothing it promised is
// higher), reporting its votes.
func (n *Node) prepare(ctx *model.Ctx) {
	n.Ballot = max(n.Ballot, n.Heard, n.Promised) + 1
	n.Phase, n.Promises, n.Nacks, n.Reported = Preparing, 0, 0, nil
	n.Promised = n.Ballot
	n.Promises |= bit(ctx.Self())
	for _, v := range n.Votes {
		n.report(v)
	}
	for _, p := range ctx.Peers() {
		ctx.Send(p, Prepare{Ballot: n.Ballot})
	}
	n.maybeLead(ctx)
}

// maybeLead starts phase 2 on a quorum of promises: every slot not yet chosen is
// proposed, with the reported command where there is one.
func (n *Node) maybeLead(ctx *model.Ctx) {
	if bits.OnesCount64(uint64(n.Promises)) < quorum(ctx) {
		return
	}
	n.Phase = Leading
	for _, v := range n.Reported {
		// Paxos binds the slot to the command voted with the highest ballot; the leader's
		// own command for it moves to a new slot. (With one proposer that never reuses a
		// slot, the vote is always the leader's own command.)
		for v.Slot >= len(n.Log) {
			n.Log = append(n.Log, Slot{})
		}
		if s := &n.Log[v.Slot]; !s.Chosen && s.Cmd != v.Cmd {
			if s.Cmd != (Command{}) {
				n.Log = append(n.Log, Slot{Cmd: s.Cmd})
			}
			n.Log[v.Slot].Cmd = v.Cmd
		}
	}
	n.Reported = nil
	for s := range n.Log {
		if !n.Log[s].Chosen {
			n.accept(ctx, s)
		}
	}
}

// accept proposes slot's command at the leader's ballot: its own acceptor votes, and
// the others are asked once.
func (n *Node) accept(ctx *model.Ctx, slot int) {
	n.Log[slot].Accepted = 0
	if !n.vote(n.Ballot, slot, n.Log[slot].Cmd) {
		n.Nacks |= bit(ctx.Self())
		n.maybeBeaten(ctx)
		return
	}
	n.Log[slot].Accepted |= bit(ctx.Self())
	for _, p := range ctx.Peers() {
		ctx.Send(p, Accept{Ballot: n.Ballot, Slot: slot, Cmd: n.Log[slot].Cmd})
	}
	n.maybeChosen(ctx, slot)
}

// maybeBeaten prepares again, or stops, once the acceptors that refused the ballot leave
// too few for a quorum.
func (n *Node) maybeBeaten(ctx *model.Ctx) {
	if bits.OnesCount64(uint64(n.Nacks)) <= len(ctx.Members())-quorum(ctx) {
		return
	}
	if n.Tries >= n.Retries {
		n.Phase = Stopped
		return
	}
	n.Tries++
	n.prepare(ctx)
}

// maybeChosen decides slot on a quorum of votes: a write is answered at once (and, in
// paxos-buggy, a read too), and the log is applied as far as it is decided.
func (n *Node) maybeChosen(ctx *model.Ctx, slot int) {
	s := &n.Log[slot]
	if s.Chosen || bits.OnesCount64(uint64(s.Accepted)) < quorum(ctx) {
		return
	}
	s.Chosen = true
	switch {
	case s.Cmd == (Command{}): // a no-op filling a slot no one voted for
	case s.Cmd.In.Op != specs.KVGet:
		ctx.Respond(s.Cmd.Req, specs.KVOutput{})
	case n.Buggy:
		ctx.Respond(s.Cmd.Req, specs.KVOutput{Value: n.get(s.Cmd.In.Key)}) // the bug: earlier slots may not be applied yet
	}
	for n.Applied < len(n.Log) && n.Log[n.Applied].Chosen {
		c := n.Log[n.Applied].Cmd
		switch {
		case c == (Command{}):
		case c.In.Op == specs.KVGet:
			if !n.Buggy {
				ctx.Respond(c.Req, specs.KVOutput{Value: n.get(c.In.Key)})
			}
		case c.In.Op == specs.KVPut:
			n.put(c.In.Key, c.In.Value)
		default:
			n.put(c.In.Key, n.get(c.In.Key)+c.In.Value)
		}
		n.Applied++
	}
}

func (n *Node) get(key string) string {
	for _, e := range n.Data {
		if e.Key == key {
			return e.Val
		}
	}
	return ""
}

// put sets key in the map, keeping it ordered by key.
func (n *Node) put(key, val string) {
	i := 0
	for i < len(n.Data) && n.Data[i].Key < key {
		i++
	}
	if i < len(n.Data) && n.Data[i].Key == key {
		n.Data[i].Val = val
		return
	}
	n.Data = append(n.Data, Entry{})
	copy(n.Data[i+1:], n.Data[i:])
	n.Data[i] = Entry{Key: key, Val: val}
}
