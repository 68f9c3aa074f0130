// Package chord models Open Chord (DS2 paper §4.4): a distributed hash table whose nodes
// sit on a ring and each own the keys between their predecessor and themselves, with
// nodes joining while clients read and write.
//
// # The ring
//
// Identifiers are 8 bits: node k sits at FNV-1a("n<k>") mod 256 and a key at FNV-1a(key)
// mod 256 (the harness's keys: k1 at 193, k2 at 8; n0 at 147, n1 at 0). A node owns the
// keys in (predecessor, itself]; one alone owns every key. Requests are routed along
// successor pointers (no finger tables: with the paper's two nodes they would change
// nothing).
//
// # Joining
//
// Node n0 starts as a ring of one. Every other node k starts believing it is its own
// successor and predecessor, and its start-up action asks node k−1 to FindSuccessor of
// its position — so the join interleaves with the clients' operations, as in the paper.
// A node that is not in the ring yet holds a FindSuccessor until it has joined (it cannot
// route it), so node k's join is handled after node k−1's.
//
// FindSuccessor travels along successors to the node x whose arc (x, successor(x)]
// holds the joiner's position: x is the joiner's predecessor. x makes the joiner its
// successor and sends it UpdatePredecessor{x}. The joiner's successor s — x itself when
// x was alone, as with the paper's two nodes, else the node x tells with Notify — makes
// the joiner its predecessor, hands over the entries the joiner now owns, and sends them
// in SuccessorFound{s}, all in one step: from then on s forwards requests for those keys
// towards the joiner. The joiner has joined once it has both SuccessorFound and
// UpdatePredecessor; it then knows its arc and holds its entries.
//
// # Operations
//
// A client's Put goes to its node as UploadEntry, a Get as Request, each forwarded along
// successors to the key's owner, which stores or looks up the entry and sends Response
// back to the node the client asked; that node answers the client. A node that owns the
// key itself answers at once.
//
// # The bug (New, "chord")
//
// Unlike the other families, the plain name is the buggy variant here and "-fixed" the
// correct one: the names are the DS2 paper's, whose Open Chord is the erroneous system.
//
// A node that has not finished joining still believes it is alone, so it serves every
// read and write it receives from its own store. In the 2r1w harness, n0 (the paper's
// N1) stores k1 = "1" and acknowledges the write; then n1 (the paper's N2), whose join
// has not completed, answers a Get(k1) with its empty store: a stale read after the
// write completed — the violation of the DS2 paper's Figure 7 and Listing 1. (k1 is
// n1's key once it has joined, so n1 also answers reads that n0 forwards to it before
// its join completes.)
//
// # The fix (NewFixed, "chord-fixed")
//
// A node that has not joined defers every client request, UploadEntry and Request it
// receives, and handles them in arrival order in the step that completes its join, when
// it holds the entries it took over and knows its arc.
//
// # Faults
//
// A FindSuccessor whose joiner is already the node's successor is a copy of one handled
// before, and is ignored: a join runs once. The other messages are idempotent for the
// shipped harnesses, which write each key once, so chord-fixed is clean with --duplicate
// as with the other faults (docs/faults.md, "Which faults the correct systems tolerate").
package chord

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Ring is the size of the identifier space.
const Ring = 256

// Position is the ring position of a key or a node name: its 32-bit FNV-1a hash mod
// Ring (computed here without allocating; hash/fnv gives the same).
func Position(name string) int {
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= 16777619
	}
	return int(h % Ring)
}

// NodePosition is the ring position of node k.
func NodePosition(k int) int { return Position("n" + strconv.Itoa(k)) }

// between reports whether q lies in the ring interval (a, b]; (a, a] is the whole ring.
func between(q, a, b int) bool {
	if a < b {
		return a < q && q <= b
	}
	return q > a || q <= b
}

// Req is the request message of the map's clients.
type Req = model.Request[specs.KVInput]

// Entry is one key's value in a node's store.
type Entry struct {
	Key, Val string
}

// FindSuccessor asks for the successor of Pos, on behalf of Joiner.
type FindSuccessor struct {
	Joiner model.ID
	Pos    int
}

// Notify tells the joiner's successor that Joiner, at Pos, now precedes it: the keys
// in (PredPos, Pos] are the joiner's.
type Notify struct {
	Joiner  model.ID
	Pos     int
	PredPos int
}

// SuccessorFound tells a joiner its successor and the successor's position, with the
// entries it took over.
type SuccessorFound struct {
	Succ    model.ID
	Pos     int
	Entries []Entry
}

// UpdatePredecessor tells a joiner its predecessor and the predecessor's position.
type UpdatePredecessor struct {
	Pred model.ID
	Pos  int
}

// UploadEntry carries a client's write of Key to the key's owner, for node Origin: a
// put of Val, or an append when Append is set.
type UploadEntry struct {
	Req    model.RequestID
	Origin model.ID
	Key    string
	Val    string
	Append bool
}

// Request carries a client's read of Key to the key's owner, for node Origin.
type Request struct {
	Req    model.RequestID
	Origin model.ID
	Key    string
}

// Response brings the owner's answer to Origin: the value read, or "" for a write.
type Response struct {
	Req model.RequestID
	Key string
	Val string
}

// String renders the message for histories and schedules.
func (m FindSuccessor) String() string {
	return "FindSuccessor{joiner:" + m.Joiner.String() + " pos:" + strconv.Itoa(m.Pos) + "}"
}

// String renders the message for histories and schedules.
func (m Notify) String() string {
	return "Notify{joiner:" + m.Joiner.String() + " pos:" + strconv.Itoa(m.Pos) + " predpos:" + strconv.Itoa(m.PredPos) + "}"
}

// String renders the message for histories and schedules.
func (m SuccessorFound) String() string {
	var b strings.Builder
	b.WriteString("SuccessorFound{succ:" + m.Succ.String() + "@" + strconv.Itoa(m.Pos) + " entries:[")
	for i, e := range m.Entries {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(e.Key + "=" + strconv.Quote(e.Val))
	}
	b.WriteString("]}")
	return b.String()
}

// String renders the message for histories and schedules.
func (m UpdatePredecessor) String() string {
	return "UpdatePredecessor{pred:" + m.Pred.String() + "@" + strconv.Itoa(m.Pos) + "}"
}

// String renders the message for histories and schedules.
func (m UploadEntry) String() string {
	op := "="
	if m.Append {
		op = "+="
	}
	return "UploadEntry{req:" + m.Req.String() + " " + m.Key + op + strconv.Quote(m.Val) + " origin:" + m.Origin.String() + "}"
}

// String renders the message for histories and schedules.
func (m Request) String() string {
	return "Request{req:" + m.Req.String() + " key:" + m.Key + " origin:" + m.Origin.String() + "}"
}

// String renders the message for histories and schedules.
func (m Response) String() string {
	return "Response{req:" + m.Req.String() + " " + m.Key + "=" + strconv.Quote(m.Val) + "}"
}

// HashState fingerprints the message.
func (m FindSuccessor) HashState(h *model.Hasher) { h.Uint64(1); h.ID(m.Joiner); h.Int(m.Pos) }

// HashState fingerprints the message.
func (m Notify) HashState(h *model.Hasher) {
	h.Uint64(2)
	h.ID(m.Joiner)
	h.Int(m.Pos)
	h.Int(m.PredPos)
}

// HashState fingerprints the message.
func (m SuccessorFound) HashState(h *model.Hasher) {
	h.Uint64(3)
	h.ID(m.Succ)
	h.Int(m.Pos)
	hashEntries(h, m.Entries)
}

// HashState fingerprints the message.
func (m UpdatePredecessor) HashState(h *model.Hasher) { h.Uint64(4); h.ID(m.Pred); h.Int(m.Pos) }

// HashState fingerprints the message.
func (m UploadEntry) HashState(h *model.Hasher) {
	h.Uint64(5)
	h.Request(m.Req)
	h.ID(m.Origin)
	h.String(m.Key)
	h.String(m.Val)
	h.Bool(m.Append)
}

// HashState fingerprints the message.
func (m Request) HashState(h *model.Hasher) {
	h.Uint64(6)
	h.Request(m.Req)
	h.ID(m.Origin)
	h.String(m.Key)
}

// HashState fingerprints the message.
func (m Response) HashState(h *model.Hasher) {
	h.Uint64(7)
	h.Request(m.Req)
	h.String(m.Key)
	h.String(m.Val)
}

func hashEntries(h *model.Hasher, es []Entry) {
	h.Int(len(es))
	for _, e := range es {
		h.String(e.Key)
		h.String(e.Val)
	}
}

// Node is one Chord node. Its exported fields are its state; Clone and HashState are its
// fast paths.
type Node struct {
	// Fixed makes the node defer requests until it has joined (chord-fixed).
	Fixed bool
	// Pos is the node's ring position.
	Pos int
	// Succ and Pred are the node's neighbours, with their positions; a node alone is
	// both. Positions are what routing needs; keeping them here spares a lookup table.
	Succ, Pred       model.ID
	SuccPos, PredPos int
	// Joined is set once the node is in the ring; GotSucc and GotPred record which half
	// of the join has arrived.
	Joined, GotSucc, GotPred bool
	// Store holds the node's entries, ordered by key.
	Store []Entry
	// Deferred holds the messages a node that has not joined keeps for later, in
	// arrival order (chord-fixed; and FindSuccessor in both variants).
	Deferred []any
}

// Clone returns a deep copy. Deferred messages are values that nothing mutates, so the
// copy shares them.
func (n *Node) Clone() model.Actor {
	c := *n
	c.Store = append([]Entry(nil), n.Store...)
	c.Deferred = append([]any(nil), n.Deferred...)
	return &c
}

// HashState fingerprints the node.
func (n *Node) HashState(h *model.Hasher) {
	h.Bool(n.Fixed)
	h.Int(n.Pos)
	h.ID(n.Succ)
	h.ID(n.Pred)
	h.Int(n.SuccPos)
	h.Int(n.PredPos)
	h.Bool(n.Joined)
	h.Bool(n.GotSucc)
	h.Bool(n.GotPred)
	hashEntries(h, n.Store)
	h.Int(len(n.Deferred))
	for _, m := range n.Deferred {
		h.Value(m)
	}
}

// Start sends a joining node's FindSuccessor to the node before it.
func (n *Node) Start(ctx *model.Ctx) {
	if !n.Joined {
		ctx.Send(ctx.Self()-1, FindSuccessor{Joiner: ctx.Self(), Pos: n.Pos})
	}
}

// owns reports whether the node serves key: the key is in its arc — or the node has not
// joined, and so believes it is alone and owns every key.
func (n *Node) owns(key string) bool {
	return !n.Joined || between(Position(key), n.PredPos, n.Pos)
}

// Receive handles one message.
func (n *Node) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case FindSuccessor:
		n.findSuccessor(ctx, m)
	case Notify:
		if !n.Joined {
			n.Deferred = append(n.Deferred, m)
			return
		}
		n.takePredecessor(ctx, m.Joiner, m.Pos, m.PredPos)
	case SuccessorFound:
		n.Succ, n.SuccPos, n.GotSucc = m.Succ, m.Pos, true
		for _, e := range m.Entries {
			n.put(e.Key, e.Val)
		}
		n.maybeJoined(ctx)
	case UpdatePredecessor:
		n.Pred, n.PredPos, n.GotPred = m.Pred, m.Pos, true
		n.maybeJoined(ctx)
	case Req:
		if n.defer_(m) {
			return
		}
		switch {
		case n.owns(m.Input.Key):
			ctx.Respond(m.ID, n.apply(m.Input))
		case m.Input.Op == specs.KVGet:
			ctx.Send(n.Succ, Request{Req: m.ID, Origin: ctx.Self(), Key: m.Input.Key})
		default:
			ctx.Send(n.Succ, UploadEntry{Req: m.ID, Origin: ctx.Self(), Key: m.Input.Key, Val: m.Input.Value, Append: m.Input.Op == specs.KVAppend})
		}
	case UploadEntry:
		if n.defer_(m) {
			return
		}
		if !n.owns(m.Key) {
			ctx.Send(n.Succ, m)
			return
		}
		if m.Append {
			n.put(m.Key, n.get(m.Key)+m.Val)
		} else {
			n.put(m.Key, m.Val)
		}
		n.answer(ctx, m.Origin, Response{Req: m.Req, Key: m.Key})
	case Request:
		if n.defer_(m) {
			return
		}
		if !n.owns(m.Key) {
			ctx.Send(n.Succ, m)
			return
		}
		n.answer(ctx, m.Origin, Response{Req: m.Req, Key: m.Key, Val: n.get(m.Key)})
	case Response:
		ctx.Respond(m.Req, specs.KVOutput{Value: m.Val})
	default:
		panic(fmt.Sprintf("chord: unexpected message %T", env.Msg))
	}
}

// defer_ keeps msg for after the join, in chord-fixed, when the node has not joined.
func (n *Node) defer_(msg any) bool {
	if !n.Fixed || n.Joined {
		return false
	}
	n.Deferred = append(n.Deferred, msg)
	return true
}

func (n *Node) findSuccessor(ctx *model.Ctx, m FindSuccessor) {
	switch {
	case !n.Joined:
		n.Deferred = append(n.Deferred, m) // not in the ring: cannot route it yet
	case m.Joiner == n.Succ:
		// The joiner is already the node's successor: this is a copy of a FindSuccessor
		// handled before (--duplicate). Handling it again would re-run the join, Notify
		// the joiner about itself and move its entries out of its own store.
	case !between(m.Pos, n.Pos, n.SuccPos):
		ctx.Send(n.Succ, m)
	default: // the joiner lies in (n, successor]: n is its predecessor
		old := n.Succ
		n.Succ, n.SuccPos = m.Joiner, m.Pos
		ctx.Send(m.Joiner, UpdatePredecessor{Pred: ctx.Self(), Pos: n.Pos})
		if old == ctx.Self() {
			n.takePredecessor(ctx, m.Joiner, m.Pos, n.Pos)
		} else {
			ctx.Send(old, Notify{Joiner: m.Joiner, Pos: m.Pos, PredPos: n.Pos})
		}
	}
}

// takePredecessor makes joiner, at pos, the node's predecessor and hands it the entries
// of the arc (predPos, pos] that it now owns, in SuccessorFound.
func (n *Node) takePredecessor(ctx *model.Ctx, joiner model.ID, pos, predPos int) {
	n.Pred, n.PredPos = joiner, pos
	var moved, kept []Entry // nil when empty, so that fingerprints see one empty store
	for _, e := range n.Store {
		if between(Position(e.Key), predPos, pos) {
			moved = append(moved, e)
		} else {
			kept = append(kept, e)
		}
	}
	n.Store = kept
	ctx.Send(joiner, SuccessorFound{Succ: ctx.Self(), Pos: n.Pos, Entries: moved})
}

// maybeJoined completes the join once both halves have arrived, and handles what was
// deferred, in order.
func (n *Node) maybeJoined(ctx *model.Ctx) {
	if n.Joined || !n.GotSucc || !n.GotPred {
		return
	}
	n.Joined = true
	deferred := n.Deferred
	n.Deferred = nil
	for _, m := range deferred {
		n.Receive(ctx, model.Envelope{To: ctx.Self(), Msg: m})
	}
}

// answer sends r to origin, or answers the client at once when the node is the origin.
func (n *Node) answer(ctx *model.Ctx, origin model.ID, r Response) {
	if origin == ctx.Self() {
		ctx.Respond(r.Req, specs.KVOutput{Value: r.Val})
		return
	}
	ctx.Send(origin, r)
}

// apply performs a client's operation on the node's own store.
func (n *Node) apply(in specs.KVInput) specs.KVOutput {
	switch in.Op {
	case specs.KVGet:
		return specs.KVOutput{Value: n.get(in.Key)}
	case specs.KVPut:
		n.put(in.Key, in.Value)
	default:
		n.put(in.Key, n.get(in.Key)+in.Value)
	}
	return specs.KVOutput{}
}

func (n *Node) get(key string) string {
	for _, e := range n.Store {
		if e.Key == key {
			return e.Val
		}
	}
	return ""
}

// put sets key in the store, keeping it ordered by key.
func (n *Node) put(key, val string) {
	i := 0
	for i < len(n.Store) && n.Store[i].Key < key {
		i++
	}
	if i < len(n.Store) && n.Store[i].Key == key {
		n.Store[i].Val = val
		return
	}
	n.Store = append(n.Store, Entry{})
	copy(n.Store[i+1:], n.Store[i:])
	n.Store[i] = Entry{Key: key, Val: val}
}
