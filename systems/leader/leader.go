// Package leader models a leader-based register with an election timer and request
// forwarding, whose state space has cycles: three nodes, n0 the leader of term 0, n1 the
// node that takes over when it stops hearing from it.
//
// # Normal operation
//
// A node that is not the leader forwards a client's request, as Fwd, to the node it
// believes leads; a node that receives a Fwd and does not lead forwards it on. The
// leader applies a write at once under the next version and sends Accept{term, version,
// value} to its peers; on a majority of AcceptOK (itself included) the write is
// committed and the leader answers the client. A read takes the committed value and
// confirms the leader's term with Check; on a majority of CheckOK it answers with it. A
// node that has promised a higher term ignores Accept and Check of an older one, and the
// operation waits until its leader hears of the new term (Prepare); a deposed leader then
// hands its operations in flight to the node it now believes leads.
//
// # The election timer
//
// The leader's "heartbeat" timer sends Heartbeat to n1, which answers HeartbeatOK; the
// leader re-arms the timer when the answer arrives, so one heartbeat is in flight at a
// time. n1's "election" timer, when it fires, clears n1's Heard flag if a heartbeat
// arrived since it last fired, and re-arms; if none did, n1 starts an election for term
// 1: it sends Prepare to its peers and, on a majority of Promise replies (itself
// included), adopts the value with the highest version among them and leads. Heartbeats
// and election timeouts go round and round — the state space's cycles — until an
// election happens, which ends both timers.
//
// While n1 is a candidate it still forwards to n0, and n0, once it has promised term 1,
// forwards to n1: a request bounces between them until n1 wins — another cycle.
//
// # Why it is linearizable
//
// A committed write is held by a majority, and a promise majority meets it, so the new
// leader adopts it; a node that promised term 1 rejects term 0's Accept and Check, so the
// old leader can neither commit nor confirm a read once the new leader can exist.
//
// # The bug (NewBuggy)
//
// leader-buggy's new leader keeps its own value instead of adopting the newest promised
// one: a write that n0 committed with n2 is lost, and a read at n1 after the election
// returns the old value.
package leader

import (
	"fmt"
	"strconv"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Req is the request message of the register's clients.
type Req = model.Request[specs.RegisterInput]

// Fwd carries a client's request to the leader.
type Fwd struct {
	Req   model.RequestID
	Input specs.RegisterInput
}

// Accept asks a peer to hold Val under Ver, for the leader of Term.
type Accept struct{ Term, Ver, Val int }

// AcceptOK acknowledges an Accept.
type AcceptOK struct{ Term, Ver int }

// Check asks a peer to confirm that Term is current.
type Check struct {
	Term int
	Req  model.RequestID
}

// CheckOK confirms a Check.
type CheckOK struct {
	Term int
	Req  model.RequestID
}

// Prepare asks for a promise for Term.
type Prepare struct{ Term int }

// Promise promises Term and carries the node's value.
type Promise struct{ Term, Ver, Val int }

// Heartbeat is the leader's sign of life; HeartbeatOK its answer.
type Heartbeat struct{ Term int }

// HeartbeatOK answers a Heartbeat.
type HeartbeatOK struct{ Term int }

// Tick is the payload of both timers.
type Tick struct{}

// String renders the message for histories and schedules.
func (m Fwd) String() string { return "Fwd{" + m.Req.String() + " " + m.Input.String() + "}" }

// String renders the message for histories and schedules.
func (m Accept) String() string {
	return "Accept{term:" + strconv.Itoa(m.Term) + " ver:" + strconv.Itoa(m.Ver) + " val:" + strconv.Itoa(m.Val) + "}"
}

// String renders the message for histories and schedules.
func (m AcceptOK) String() string {
	return "AcceptOK{term:" + strconv.Itoa(m.Term) + " ver:" + strconv.Itoa(m.Ver) + "}"
}

// String renders the message for histories and schedules.
func (m Check) String() string {
	return "Check{term:" + strconv.Itoa(m.Term) + " req:" + m.Req.String() + "}"
}

// String renders the message for histories and schedules.
func (m CheckOK) String() string {
	return "CheckOK{term:" + strconv.Itoa(m.Term) + " req:" + m.Req.String() + "}"
}

// String renders the message for histories and schedules.
func (m Prepare) String() string { return "Prepare{term:" + strconv.Itoa(m.Term) + "}" }

// String renders the message for histories and schedules.
func (m Promise) String() string {
	return "Promise{term:" + strconv.Itoa(m.Term) + " ver:" + strconv.Itoa(m.Ver) + " val:" + strconv.Itoa(m.Val) + "}"
}

// String renders the message for histories and schedules.
func (m Heartbeat) String() string { return "Heartbeat{term:" + strconv.Itoa(m.Term) + "}" }

// String renders the message for histories and schedules.
func (m HeartbeatOK) String() string { return "HeartbeatOK{term:" + strconv.Itoa(m.Term) + "}" }

// HashState fingerprints the message.
func (m Fwd) HashState(h *model.Hasher) {
	h.Uint64(1)
	h.Request(m.Req)
	h.Bool(m.Input.Write)
	h.Int(m.Input.Value)
}

// HashState fingerprints the message.
func (m Accept) HashState(h *model.Hasher) { h.Uint64(2); h.Int(m.Term); h.Int(m.Ver); h.Int(m.Val) }

// HashState fingerprints the message.
func (m AcceptOK) HashState(h *model.Hasher) { h.Uint64(3); h.Int(m.Term); h.Int(m.Ver) }

// HashState fingerprints the message.
func (m Check) HashState(h *model.Hasher) { h.Uint64(4); h.Int(m.Term); h.Request(m.Req) }

// HashState fingerprints the message.
func (m CheckOK) HashState(h *model.Hasher) { h.Uint64(5); h.Int(m.Term); h.Request(m.Req) }

// HashState fingerprints the message.
func (m Prepare) HashState(h *model.Hasher) { h.Uint64(7); h.Int(m.Term) }

// HashState fingerprints the message.
func (m Promise) HashState(h *model.Hasher) { h.Uint64(8); h.Int(m.Term); h.Int(m.Ver); h.Int(m.Val) }

// HashState fingerprints the message.
func (m Heartbeat) HashState(h *model.Hasher) { h.Uint64(9); h.Int(m.Term) }

// HashState fingerprints the message.
func (m HeartbeatOK) HashState(h *model.Hasher) { h.Uint64(10); h.Int(m.Term) }

// HashState fingerprints the message.
func (Tick) HashState(h *model.Hasher) { h.Uint64(11) }

// Op is an operation in flight at the leader.
type Op struct {
	Req   model.RequestID
	Input specs.RegisterInput
	Ver   int // a write's version; a read's committed version when it began
	Val   int // a read's answer
	Acks  int // AcceptOK or CheckOK so far, the leader's own included
}

// Node is one node. Its exported fields are its state.
type Node struct {
	KeepOwn   bool     // the bug: a new leader keeps its own value
	Term      int      // the highest term seen or promised
	Leader    model.ID // the node believed to lead
	Candidate bool     // n1 is collecting promises
	Heard     bool     // n1 heard a heartbeat since its election timer last fired
	Ver, Val  int      // the value held
	CVer      int      // the leader's committed version
	CVal      int      // and value
	Promises  int      // promises collected, own included
	PVer      int      // the newest promised version
	PVal      int      // and its value
	Ops       []Op     // the leader's operations in flight, ordered by request
}

// Clone returns a deep copy.
func (n *Node) Clone() model.Actor {
	c := *n
	c.Ops = append([]Op(nil), n.Ops...)
	return &c
}

// HashState fingerprints the node.
func (n *Node) HashState(h *model.Hasher) {
	h.Bool(n.KeepOwn)
	h.Int(n.Term)
	h.ID(n.Leader)
	h.Bool(n.Candidate)
	h.Bool(n.Heard)
	h.Int(n.Ver)
	h.Int(n.Val)
	h.Int(n.CVer)
	h.Int(n.CVal)
	h.Int(n.Promises)
	h.Int(n.PVer)
	h.Int(n.PVal)
	for _, o := range n.Ops {
		h.Request(o.Req)
		h.Bool(o.Input.Write)
		h.Int(o.Input.Value)
		h.Int(o.Ver)
		h.Int(o.Val)
		h.Int(o.Acks)
	}
}

const (
	heartbeat = "heartbeat"
	election  = "election"
	follower  = model.ID(1) // the node whose election timer runs
)

// Start arms the leader's heartbeat and the follower's election timer.
func (n *Node) Start(ctx *model.Ctx) {
	switch ctx.Self() {
	case n.Leader:
		ctx.SetTimer(heartbeat, Tick{})
	case follower:
		ctx.SetTimer(election, Tick{})
	}
}

func (n *Node) leads(ctx *model.Ctx) bool { return n.Leader == ctx.Self() && !n.Candidate }

// Receive handles a request, a message or a timer.
func (n *Node) Receive(ctx *model.Ctx, env model.Envelope) {
	majority := len(ctx.Members())/2 + 1
	switch m := env.Msg.(type) {
	case Req:
		n.request(ctx, Fwd{Req: m.ID, Input: m.Input}, majority)
	case Fwd:
		n.request(ctx, m, majority)
	case Tick:
		n.tick(ctx, env.Timer, majority)
	case Heartbeat:
		if m.Term >= n.Term {
			n.Heard = true
			ctx.Send(env.From, HeartbeatOK{Term: m.Term})
		}
	case HeartbeatOK:
		if m.Term == n.Term && n.leads(ctx) {
			ctx.SetTimer(heartbeat, Tick{})
		}
	case Accept:
		if m.Term < n.Term {
			return // a deposed leader learns of the new term from Prepare
		}
		n.Term, n.Leader = m.Term, env.From
		if m.Ver > n.Ver {
			n.Ver, n.Val = m.Ver, m.Val
		}
		ctx.Send(env.From, AcceptOK{Term: m.Term, Ver: m.Ver})
	case AcceptOK:
		if m.Term != n.Term || !n.leads(ctx) {
			return
		}
		for i := range n.Ops {
			if o := &n.Ops[i]; o.Input.Write && o.Ver == m.Ver {
				o.Acks++
				n.settle(ctx, majority)
				return
			}
		}
	case Check:
		if m.Term < n.Term {
			return
		}
		ctx.Send(env.From, CheckOK(m))
	case CheckOK:
		if m.Term != n.Term || !n.leads(ctx) {
			return
		}
		for i := range n.Ops {
			if o := &n.Ops[i]; !o.Input.Write && o.Req == m.Req {
				o.Acks++
				n.settle(ctx, majority)
				return
			}
		}
	case Prepare:
		if m.Term <= n.Term {
			return
		}
		n.depose(ctx, m.Term, env.From)
		ctx.Send(env.From, Promise{Term: m.Term, Ver: n.Ver, Val: n.Val})
	case Promise:
		if !n.Candidate || m.Term != n.Term {
			return
		}
		n.Promises++
		if m.Ver > n.PVer {
			n.PVer, n.PVal = m.Ver, m.Val
		}
		if n.Promises >= majority {
			n.win(ctx)
		}
	default:
		panic(fmt.Sprintf("leader: unexpected message %T", env.Msg))
	}
}

// request serves or forwards a client's operation.
func (n *Node) request(ctx *model.Ctx, f Fwd, majority int) {
	if !n.leads(ctx) {
		ctx.Send(n.Leader, f)
		return
	}
	for _, o := range n.Ops {
		if o.Req == f.Req {
			return // already in flight
		}
	}
	o := Op{Req: f.Req, Input: f.Input, Acks: 1}
	if f.Input.Write {
		n.Ver++
		n.Val = f.Input.Value
		o.Ver = n.Ver
		for _, p := range ctx.Peers() {
			ctx.Send(p, Accept{Term: n.Term, Ver: n.Ver, Val: n.Val})
		}
	} else {
		o.Ver, o.Val = n.CVer, n.CVal
		for _, p := range ctx.Peers() {
			ctx.Send(p, Check{Term: n.Term, Req: f.Req})
		}
	}
	n.Ops = model.InsertByRequest(n.Ops, o, func(o Op) model.RequestID { return o.Req })
	n.settle(ctx, majority)
}

// settle answers the operations that have their majority.
func (n *Node) settle(ctx *model.Ctx, majority int) {
	kept := n.Ops[:0]
	for _, o := range n.Ops {
		switch {
		case o.Acks < majority:
			kept = append(kept, o)
		case o.Input.Write:
			if o.Ver > n.CVer {
				n.CVer, n.CVal = o.Ver, o.Input.Value
			}
			ctx.Respond(o.Req, specs.WriteOK())
		default:
			ctx.Respond(o.Req, specs.ReadOK(o.Val))
		}
	}
	n.Ops = kept
	if len(kept) == 0 {
		n.Ops = nil // as in the initial state: the reflective fingerprint tells nil from empty
	}
}

// tick handles a timer.
func (n *Node) tick(ctx *model.Ctx, timer string, majority int) {
	switch {
	case timer == heartbeat && n.leads(ctx):
		ctx.Send(follower, Heartbeat{Term: n.Term})
	case timer == election && n.Heard:
		n.Heard = false
		ctx.SetTimer(election, Tick{})
	case timer == election:
		n.Term++
		n.Candidate = true
		n.Promises, n.PVer, n.PVal = 1, n.Ver, n.Val
		for _, p := range ctx.Peers() {
			ctx.Send(p, Prepare{Term: n.Term})
		}
	}
}

// win makes the candidate the leader, with the newest promised value (or, with the bug,
// its own).
func (n *Node) win(ctx *model.Ctx) {
	n.Candidate = false
	n.Leader = ctx.Self()
	if !n.KeepOwn {
		n.Ver, n.Val = n.PVer, n.PVal
	}
	n.CVer, n.CVal = n.Ver, n.Val
}

// depose makes the node follow the leader of a newer term; a deposed leader hands its
// operations in flight to that node.
func (n *Node) depose(ctx *model.Ctx, term int, leader model.ID) {
	if term <= n.Term && !n.leads(ctx) {
		return
	}
	was := n.leads(ctx)
	n.Term, n.Leader = max(term, n.Term), leader
	if was {
		ctx.CancelTimer(heartbeat)
		for _, o := range n.Ops {
			ctx.Send(leader, Fwd{Req: o.Req, Input: o.Input})
		}
		n.Ops = nil
	}
}

// Harnesses: "1w1r", a write at n0 and a read at n1; "1w2r", a write at n0 and a read
// at each other node; "2w1r", writes at n0 and n1 and a read at n2; "1rw", one client at
// n1 that writes and then reads (the smallest, used with faults). The names put the
// writes first; register, adr, paxos and chord put the reads first (ravel list leader).
var Harnesses = map[string][]model.Client[specs.RegisterInput]{
	"1w1r": {model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read())},
	"1rw":  {model.Calls(1, specs.Write(1), specs.Read())},
	"1w2r": {model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()), model.Calls(2, specs.Read())},
	"2w1r": {model.Calls(0, specs.Write(1)), model.Calls(1, specs.Write(2)), model.Calls(2, specs.Read())},
}

// HarnessNames lists the harnesses, the default first.
var HarnessNames = []string{"1w1r", "1w2r", "2w1r", "1rw"}

// New returns the correct register over 3 nodes with the named harness.
func New(n int, harness string) (model.System, error) { return build("leader", n, harness, false) }

// NewBuggy returns leader-buggy: the new leader keeps its own value.
func NewBuggy(n int, harness string) (model.System, error) {
	return build("leader-buggy", n, harness, true)
}

func build(name string, n int, harness string, buggy bool) (model.System, error) {
	if n != 3 {
		return model.System{}, fmt.Errorf("%s has exactly 3 nodes, got %d", name, n)
	}
	clients, err := model.NamedOperations(Harnesses, HarnessNames, harness)
	if err != nil {
		return model.System{}, err
	}
	actors := make([]model.Actor, n)
	for i := range actors {
		actors[i] = &Node{KeepOwn: buggy}
	}
	return model.System{Name: name, Actors: actors, Harness: model.Clients(specs.Register(), clients...)}, nil
}
