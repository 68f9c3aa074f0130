package live

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"
)

// Message is one intercepted message, held until the scheduler decides its fate.
type Message struct {
	ID      MsgID
	From    int    // sending node, -1 when the translator cannot tell
	To      int    // receiving node
	Kind    string // what the translator calls it ("POST /raft MsgApp", "frame")
	Summary string // a readable one-line description
	// Clock is the sender's vector clock at the send (one entry per node): a happens
	// before b when a.Clock ≤ b.Clock entrywise and they differ. Send and receive order
	// give it: a node's clock advances at each send and takes the maximum with the
	// message's clock at each delivery.
	Clock []uint64
	At    time.Time // when it was intercepted
}

// HappensBefore reports whether a is causally before b.
func HappensBefore(a, b Message) bool {
	less := false
	for i := range a.Clock {
		if i >= len(b.Clock) || a.Clock[i] > b.Clock[i] {
			return false
		}
		if a.Clock[i] < b.Clock[i] {
			less = true
		}
	}
	return less
}

// Fate is what became of a held message.
type Fate uint8

// The fates of a message.
const (
	Delivered Fate = iota + 1
	Dropped        // by the scheduler's drop fault
	Cut            // by a partition, or because its receiver was down
)

// String is the fate's name as in events.txt: deliver, drop, cut (held when undecided).
func (f Fate) String() string {
	switch f {
	case Delivered:
		return "deliver"
	case Dropped:
		return "drop"
	case Cut:
		return "cut"
	}
	return "held"
}

type held struct {
	msg  Message
	fate chan Fate
}

// Network is the network manager: it numbers and holds every message the interceptors
// give it, keeps the vector clocks, and applies the scheduler's decisions and the faults
// (partitions, nodes down). It is safe for concurrent use.
type Network struct {
	mu      sync.Mutex
	n       int
	next    MsgID
	held    map[MsgID]*held
	clocks  [][]uint64
	group   []int // partition group of each node; all 0 when whole
	down    []bool
	arrived chan struct{} // signalled (non-blocking) at each new held message
	closed  bool
	counts  Counts
}

// Counts are the network's totals.
type Counts struct {
	// Intercepted counts the peer messages the interceptors caught; each of them is
	// then counted in one of Delivered, Dropped, Cut and Held.
	Intercepted int
	// Delivered counts the messages forwarded to their receiver.
	Delivered int
	// Dropped counts the messages lost by the scheduler's drop fault.
	Dropped int
	// Cut counts the messages lost without a drop fault: a partition separated sender
	// and receiver, or the receiver was down, when the message arrived or when it was
	// due; or its sender gave up on it (the connection closed) while it was held.
	Cut int
	// Refused counts the requests a translator answered itself without holding them
	// (etcd's stream requests): not messages, and not in Intercepted.
	Refused int
	// Held counts the messages still held when the network was closed (at the end of an
	// iteration), neither delivered nor lost by a fault.
	Held int
}

// NewNetwork returns the network of n nodes, whole and all up.
func NewNetwork(n int) *Network {
	nw := &Network{n: n, held: map[MsgID]*held{}, group: make([]int, n), down: make([]bool, n), arrived: make(chan struct{}, 1)}
	for range n {
		nw.clocks = append(nw.clocks, make([]uint64, n))
	}
	return nw
}

// Arrived is signalled when a message is intercepted (at most one signal pending).
func (nw *Network) Arrived() <-chan struct{} { return nw.arrived }

// Hold registers m (From, To, Kind, Summary filled by the translator) and blocks until
// its fate is decided or ctx is done (then it is Cut). It is what translators call.
func (nw *Network) Hold(ctx context.Context, m Message) Fate {
	nw.mu.Lock()
	if nw.closed {
		nw.mu.Unlock()
		return Cut
	}
	m.ID = nw.next
	nw.next++
	m.At = time.Now()
	if m.From >= 0 && m.From < nw.n {
		c := nw.clocks[m.From]
		c[m.From]++
		m.Clock = slices.Clone(c)
	} else {
		m.Clock = make([]uint64, nw.n)
	}
	nw.counts.Intercepted++
	if nw.cutLocked(m.From, m.To) {
		nw.counts.Cut++
		nw.mu.Unlock()
		return Cut
	}
	h := &held{msg: m, fate: make(chan Fate, 1)}
	nw.held[m.ID] = h
	nw.mu.Unlock()
	select {
	case nw.arrived <- struct{}{}:
	default:
	}
	select {
	case f := <-h.fate:
		return f
	case <-ctx.Done():
		nw.decide(m.ID, Cut)
		return Cut
	}
}

// Refused counts a request the translator answered itself without holding it (etcd's
// stream requests).
func (nw *Network) Refused() {
	nw.mu.Lock()
	nw.counts.Refused++
	nw.mu.Unlock()
}

// cutLocked reports whether a message from → to cannot pass now.
func (nw *Network) cutLocked(from, to int) bool {
	if to < 0 || to >= nw.n {
		return false
	}
	if nw.down[to] {
		return true
	}
	if from >= 0 && from < nw.n {
		return nw.group[from] != nw.group[to]
	}
	// An unknown sender is some other node: when to is alone on its side, any other
	// node is across the partition.
	return nw.n > 1 && nw.alone(to)
}

// alone reports whether node to is the only node on its side of a partition in force
// (never when the network is whole).
func (nw *Network) alone(to int) bool {
	for i, g := range nw.group {
		if i != to && g == nw.group[to] {
			return false
		}
	}
	return true
}

// Held returns the held messages in interception order.
func (nw *Network) Held() []Message {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	out := make([]Message, 0, len(nw.held))
	for _, h := range nw.held {
		out = append(out, h.msg)
	}
	slices.SortFunc(out, func(a, b Message) int { return int(a.ID - b.ID) })
	return out
}

// Deliver lets held message id through; false when it is no longer held.
func (nw *Network) Deliver(id MsgID) bool { return nw.decide(id, Delivered) }

// Drop loses held message id; false when it is no longer held.
func (nw *Network) Drop(id MsgID) bool { return nw.decide(id, Dropped) }

func (nw *Network) decide(id MsgID, f Fate) bool {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	return nw.decideLocked(id, f)
}

func (nw *Network) decideLocked(id MsgID, f Fate) bool {
	h, ok := nw.held[id]
	if !ok {
		return false
	}
	delete(nw.held, id)
	switch f {
	case Delivered:
		nw.counts.Delivered++
		if to := h.msg.To; to >= 0 && to < nw.n {
			c := nw.clocks[to]
			for i, v := range h.msg.Clock {
				c[i] = max(c[i], v)
			}
			c[to]++
		}
	case Dropped:
		nw.counts.Dropped++
	case Cut:
		nw.counts.Cut++
	}
	h.fate <- f
	return true
}

// Partition splits the nodes into groups (group[i] is node i's); messages between groups
// are cut, those held now and those sent later, until Heal. It returns how many held
// messages it cut. group has one entry a node: a shorter one leaves the nodes past its
// end in the group they were in, entries past the last node are ignored.
func (nw *Network) Partition(group []int) int {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	copy(nw.group, group)
	return nw.cutHeldLocked()
}

// Heal makes the network whole again.
func (nw *Network) Heal() {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	clear(nw.group)
}

// Partitioned reports whether a partition is in force.
func (nw *Network) Partitioned() bool {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	return slices.ContainsFunc(nw.group, func(g int) bool { return g != 0 })
}

// SetDown marks node i down (crashed: messages to it are cut, held ones now) or up. It
// returns how many held messages it cut (0 when marking a node up). It panics if i is
// not a node's index (0 ≤ i < the number of nodes), as a slice index does.
func (nw *Network) SetDown(i int, down bool) int {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.down[i] = down
	if down {
		// A restarted process starts from its disk, not from what it had seen.
		return nw.cutHeldLocked()
	}
	return 0
}

func (nw *Network) cutHeldLocked() int {
	var ids []MsgID
	for id, h := range nw.held {
		if nw.cutLocked(h.msg.From, h.msg.To) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		nw.decideLocked(id, Cut)
	}
	return len(ids)
}

// Counts returns the totals so far.
func (nw *Network) Counts() Counts {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	return nw.counts
}

// Close cuts every held message and every later one.
func (nw *Network) Close() {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.closed = true
	for id := range nw.held {
		nw.decideLocked(id, Cut)
		nw.counts.Cut--
		nw.counts.Held++
	}
}

// Translator turns the byte stream of one intercepted connection into messages: it reads
// from down (a peer's connection to node to's interceptor), calls nw.Hold for each message
// and, when delivered, passes it to the node over a connection from dial (opened when
// first needed, kept for the connection's life). It returns when either side closes.
type Translator interface {
	Serve(ctx context.Context, nw *Network, to int, down net.Conn, dial func() (net.Conn, error))
}

// Interceptor listens on a node's advertised peer address and serves every connection
// with a translator, forwarding to the node's real peer address.
type Interceptor struct {
	ln     net.Listener
	target string
	to     int
	nw     *Network
	tr     Translator
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	cancel context.CancelFunc
}

// Intercept starts an interceptor for node to listening on listen and forwarding to
// target (both host:port). Close stops it and closes every connection it holds.
func Intercept(nw *Network, to int, listen, target string, tr Translator) (*Interceptor, error) {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("live: interceptor for node %d: %w", to, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ic := &Interceptor{ln: ln, target: target, to: to, nw: nw, tr: tr, conns: map[net.Conn]struct{}{}, cancel: cancel}
	ic.wg.Add(1)
	go ic.accept(ctx)
	return ic, nil
}

// Addr is the address the interceptor listens on.
func (ic *Interceptor) Addr() string { return ic.ln.Addr().String() }

func (ic *Interceptor) track(c net.Conn) bool {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	if ic.conns == nil {
		c.Close()
		return false
	}
	ic.conns[c] = struct{}{}
	return true
}

func (ic *Interceptor) untrack(c net.Conn) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	if ic.conns != nil {
		delete(ic.conns, c)
	}
	c.Close()
}

func (ic *Interceptor) accept(ctx context.Context) {
	defer ic.wg.Done()
	for {
		down, err := ic.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		if !ic.track(down) {
			return
		}
		ic.wg.Add(1)
		go func() {
			defer ic.wg.Done()
			var up []net.Conn
			dial := func() (net.Conn, error) {
				c, err := net.DialTimeout("tcp", ic.target, time.Second)
				if err != nil {
					return nil, err
				}
				if !ic.track(c) {
					return nil, net.ErrClosed
				}
				up = append(up, c)
				return c, nil
			}
			ic.tr.Serve(ctx, ic.nw, ic.to, down, dial)
			ic.untrack(down)
			for _, c := range up {
				ic.untrack(c)
			}
		}()
	}
}

// Close stops listening, closes every connection and waits for the translators.
func (ic *Interceptor) Close() error {
	err := ic.ln.Close()
	ic.cancel()
	ic.mu.Lock()
	for c := range ic.conns {
		c.Close()
	}
	ic.conns = nil
	ic.mu.Unlock()
	ic.wg.Wait()
	return err
}
