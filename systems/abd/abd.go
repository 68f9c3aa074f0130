// Package abd models a leaderless quorum register with write-back reads, after Attiya,
// Bar-Noy and Dolev (ABD): one writer, any number of readers, three replicas (or n), a
// majority quorum.
//
// Every replica holds a (timestamp, value) pair and coordinates the operations its
// clients send it. A write — single-writer, so its coordinator is always the same
// replica — takes the next timestamp and sends Store{ts, v} to every replica, itself
// included (it applies its own at once and counts itself); a replica keeps a stored pair
// only if its timestamp is newer, and answers StoreAck either way. On a majority of acks
// the writer answers its client.
//
// A read queries: the coordinator counts its own pair and sends Query to its peers; on a
// majority of QueryAck replies (its own included) it takes the pair with the highest
// timestamp, writes it back — applies it itself and sends Store to its peers — and
// answers the client with the value once a majority (itself included) holds it. Late
// replies are ignored.
//
// Why it is linearizable: a read returns only a value a majority holds; every later
// operation's quorum meets that majority, so no later read returns an older value.
//
// The bug (NewBuggy): reads answer right after the query phase, without writing back.
// A read at n1 that hears the new value from the writer n0 while the write's Stores are
// still in flight returns it, and a later read at n2 whose quorum is {n2, n1} returns
// the old value: the classic new–old inversion, with one writer and two readers.
package abd

import (
	"fmt"
	"strconv"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Req is the request message of the register's clients.
type Req = model.Request[specs.RegisterInput]

// Store asks a replica to keep Val under Ts.
type Store struct {
	Req model.RequestID
	Ts  int
	Val int
}

// StoreAck tells the coordinator of Req that a replica holds Ts or newer.
type StoreAck struct{ Req model.RequestID }

// Query asks a replica for its pair.
type Query struct{ Req model.RequestID }

// QueryAck carries a replica's pair.
type QueryAck struct {
	Req model.RequestID
	Ts  int
	Val int
}

// String renders the message for histories and schedules.
func (m Store) String() string {
	return "Store{" + m.Req.String() + " ts:" + strconv.Itoa(m.Ts) + " val:" + strconv.Itoa(m.Val) + "}"
}

// String renders the message for histories and schedules.
func (m StoreAck) String() string { return "StoreAck{" + m.Req.String() + "}" }

// String renders the message for histories and schedules.
func (m Query) String() string { return "Query{" + m.Req.String() + "}" }

// String renders the message for histories and schedules.
func (m QueryAck) String() string {
	return "QueryAck{" + m.Req.String() + " ts:" + strconv.Itoa(m.Ts) + " val:" + strconv.Itoa(m.Val) + "}"
}

// HashState fingerprints the message.
func (m Store) HashState(h *model.Hasher) { h.Uint64(1); h.Request(m.Req); h.Int(m.Ts); h.Int(m.Val) }

// HashState fingerprints the message.
func (m StoreAck) HashState(h *model.Hasher) { h.Uint64(2); h.Request(m.Req) }

// HashState fingerprints the message.
func (m Query) HashState(h *model.Hasher) { h.Uint64(3); h.Request(m.Req) }

// HashState fingerprints the message.
func (m QueryAck) HashState(h *model.Hasher) {
	h.Uint64(4)
	h.Request(m.Req)
	h.Int(m.Ts)
	h.Int(m.Val)
}

// Phases of an operation in flight at its coordinator.
const (
	PhaseQuery = iota + 1 // a read collecting pairs
	PhaseStore            // a write, or a read writing back, collecting acks
)

// Op is an operation in flight at its coordinator.
type Op struct {
	Req     model.RequestID
	Write   bool
	Phase   int
	Replies int // query replies or store acks so far
	Ts, Val int // the highest pair seen (query), the pair being stored (store)
}

// Replica is one replica. Its exported fields are its state.
type Replica struct {
	NoWriteBack bool // the bug: reads answer after the query phase
	Ts, Val     int
	Clock       int  // the writer's last timestamp
	Ops         []Op // ordered by request
}

// Clone returns a deep copy.
func (r *Replica) Clone() model.Actor {
	c := *r
	c.Ops = append([]Op(nil), r.Ops...)
	return &c
}

// HashState fingerprints the replica.
func (r *Replica) HashState(h *model.Hasher) {
	h.Bool(r.NoWriteBack)
	h.Int(r.Ts)
	h.Int(r.Val)
	h.Int(r.Clock)
	for _, o := range r.Ops {
		h.Request(o.Req)
		h.Bool(o.Write)
		h.Int(o.Phase)
		h.Int(o.Replies)
		h.Int(o.Ts)
		h.Int(o.Val)
	}
}

// Receive handles a client request or a replica message.
func (r *Replica) Receive(ctx *model.Ctx, env model.Envelope) {
	majority := len(ctx.Members())/2 + 1
	switch m := env.Msg.(type) {
	case Req:
		if m.Input.Write {
			r.Clock++
			r.keep(r.Clock, m.Input.Value)
			r.Ops = model.InsertByRequest(r.Ops, Op{Req: m.ID, Write: true, Phase: PhaseStore, Replies: 1, Ts: r.Clock, Val: m.Input.Value}, opReq)
			for _, p := range ctx.Peers() {
				ctx.Send(p, Store{Req: m.ID, Ts: r.Clock, Val: m.Input.Value})
			}
			return
		}
		r.Ops = model.InsertByRequest(r.Ops, Op{Req: m.ID, Phase: PhaseQuery, Replies: 1, Ts: r.Ts, Val: r.Val}, opReq)
		for _, p := range ctx.Peers() {
			ctx.Send(p, Query{Req: m.ID})
		}
		r.advance(ctx, m.ID, majority)
	case Store:
		r.keep(m.Ts, m.Val)
		ctx.Send(env.From, StoreAck{Req: m.Req})
	case StoreAck:
		if o := r.op(m.Req); o != nil && o.Phase == PhaseStore {
			o.Replies++
			r.advance(ctx, m.Req, majority)
		}
	case Query:
		ctx.Send(env.From, QueryAck{Req: m.Req, Ts: r.Ts, Val: r.Val})
	case QueryAck:
		if o := r.op(m.Req); o != nil && o.Phase == PhaseQuery {
			o.Replies++
			if m.Ts > o.Ts {
				o.Ts, o.Val = m.Ts, m.Val
			}
			r.advance(ctx, m.Req, majority)
		}
	default:
		panic(fmt.Sprintf("abd: unexpected message %T", env.Msg))
	}
}

// advance moves operation req on once its phase has a majority.
func (r *Replica) advance(ctx *model.Ctx, req model.RequestID, majority int) {
	i := r.index(req)
	o := &r.Ops[i]
	if o.Replies < majority {
		return
	}
	switch {
	case o.Phase == PhaseStore && o.Write:
		ctx.Respond(req, specs.WriteOK())
	case o.Phase == PhaseStore:
		ctx.Respond(req, specs.ReadOK(o.Val))
	case r.NoWriteBack:
		ctx.Respond(req, specs.ReadOK(o.Val))
	default: // write back what the query found
		o.Phase, o.Replies = PhaseStore, 1
		r.keep(o.Ts, o.Val)
		for _, p := range ctx.Peers() {
			ctx.Send(p, Store{Req: req, Ts: o.Ts, Val: o.Val})
		}
		r.advance(ctx, req, majority)
		return
	}
	r.Ops = append(r.Ops[:i], r.Ops[i+1:]...)
	if len(r.Ops) == 0 {
		r.Ops = nil // as in the initial state: the reflective fingerprint tells nil from empty
	}
}

func (r *Replica) keep(ts, val int) {
	if ts > r.Ts {
		r.Ts, r.Val = ts, val
	}
}

func (r *Replica) index(req model.RequestID) int {
	for i := range r.Ops {
		if r.Ops[i].Req == req {
			return i
		}
	}
	return -1
}

func (r *Replica) op(req model.RequestID) *Op {
	if i := r.index(req); i >= 0 {
		return &r.Ops[i]
	}
	return nil
}

func opReq(o Op) model.RequestID { return o.Req }

// Harnesses: "1w2r", the writer at n0 and a reader at each other replica; "2w2r", the
// writer writes twice; "1w1r", one reader at n1 (small enough for tests); "1w2r-seq",
// one client at n1 reads twice.
var Harnesses = map[string][]model.Client[specs.RegisterInput]{
	"1w2r":     {model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()), model.Calls(2, specs.Read())},
	"2w2r":     {model.Calls(0, specs.Write(1), specs.Write(2)), model.Calls(1, specs.Read()), model.Calls(2, specs.Read())},
	"1w1r":     {model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read())},
	"1w2r-seq": {model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read(), specs.Read())},
}

// HarnessNames lists the harnesses, the default first.
var HarnessNames = []string{"1w2r", "2w2r", "1w1r", "1w2r-seq"}

// New returns the correct register over n replicas (at least 3) with the named harness.
func New(n int, harness string) (model.System, error) { return build("abd", n, harness, false) }

// NewBuggy returns abd-buggy: reads do not write back.
func NewBuggy(n int, harness string) (model.System, error) {
	return build("abd-buggy", n, harness, true)
}

func build(name string, n int, harness string, buggy bool) (model.System, error) {
	if n < 3 {
		return model.System{}, fmt.Errorf("%s needs at least 3 replicas, got %d", name, n)
	}
	clients, err := model.NamedOperations(Harnesses, HarnessNames, harness)
	if err != nil {
		return model.System{}, err
	}
	actors := make([]model.Actor, n)
	for i := range actors {
		actors[i] = &Replica{NoWriteBack: buggy}
	}
	return model.System{Name: name, Actors: actors, Harness: model.Clients(specs.Register(), clients...)}, nil
}
