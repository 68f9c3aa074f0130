package explorer

import (
	"fmt"
	"math/bits"
	"reflect"
	"strings"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// Fault events (DESIGN.md, Semantics 3) are enabled events like deliveries: the executor
// lists them after a state's deliveries, and step runs them. In the engine's index lists a
// delivery is its index in state.pending (≥ 0) and a fault is −1 − (arg<<3 | code), where
// code is the fault's kind minus dpor.Drop and arg its pending index (drop, duplicate),
// its actor (crash, restart) or its side's index in executor.sides (partition).

// faultState is what faults have done to a state: budgets spent, the crashed actors and
// the partition. A state without any fault has none (nil), which keeps the fingerprints of
// fault-free runs exactly as they were. It is immutable once made, like the state.
type faultState struct {
	drops, dups, parts, crashes int32
	crashed                     uint64  // bit a: actor a is down
	cut                         uint64  // one side of the partition in force; 0: none
	timeouts                    []int32 // per client, the timeouts fired; nil: none yet
}

func (f *faultState) hash() uint64 {
	h := model.Hasher{}
	h.Uint64(0x4661756c7473) // "Faults"
	h.Uint64(uint64(f.drops) | uint64(f.dups)<<16 | uint64(f.parts)<<32 | uint64(f.crashes)<<48)
	h.Uint64(f.crashed)
	h.Uint64(f.cut)
	for _, t := range f.timeouts {
		h.Uint64(uint64(t))
	}
	return h.Sum64()
}

// faultsOf returns a copy of s's fault state for a step to change.
func faultsOf(s *state) *faultState {
	if s.faults == nil {
		return &faultState{}
	}
	f := *s.faults
	return &f
}

// faultSides lists the sides a partition may cut, as bit sets: the system's Sides, or
// every split into two nonempty sides (each counted once, by the side without the last
// actor).
func faultSides(sys *model.System) []uint64 {
	f := &sys.Faults
	if f.Partition == 0 {
		return nil
	}
	if len(f.Sides) > 0 {
		out := make([]uint64, len(f.Sides))
		for i, side := range f.Sides {
			for _, a := range side {
				out[i] |= 1 << uint(a)
			}
		}
		return out
	}
	n := len(sys.Actors)
	var out []uint64
	for m := uint64(1); m < 1<<uint(n-1); m++ {
		out = append(out, m)
	}
	return out
}

func faultIndex(kind dpor.EventKind, arg int) int { return -1 - (arg<<3 | int(kind-dpor.Drop)) }

func decodeFault(idx int) (dpor.EventKind, int) {
	v := -1 - idx
	return dpor.Drop + dpor.EventKind(v&7), v >> 3
}

func faultID(tag uint64, a, b uint64) uint64 {
	h := model.Hasher{}
	h.Uint64(tag)
	h.Uint64(a)
	h.Uint64(b)
	return h.Sum64()
}

const (
	tagDrop    = 0x44726f70         // "Drop"
	tagDup     = 0x4475706c         // "Dupl"
	tagCopy    = 0x436f7079         // "Copy"
	tagCrash   = 0x437261736800     // "Crash"
	tagRestart = 0x5265737461727400 // "Restart"
	tagCut     = 0x437574           // "Cut"
	tagHeal    = 0x4865616c         // "Heal"
	tagTimeout = 0x54696d656f7574   // "Timeout"
)

// retryTarget is the actor client c sends its k-th retry to: the k-th after its target.
func (x *executor) retryTarget(c, k int) model.ID {
	return model.ID((int(x.harness.Target(c)) + k) % len(x.sys.Actors))
}

// crossesCut reports whether p is a message between the two sides of cut.
func crossesCut(cut uint64, p *pending) bool {
	if cut == 0 || p.ev.Kind != dpor.Message || p.ev.From < 0 {
		return false
	}
	return cut>>uint(p.ev.From)&1 != cut>>uint(p.ev.To)&1
}

// held reports whether a partition holds p back (Faults.Hold).
func (x *executor) held(s *state, p *pending) bool {
	return x.hold && s.faults != nil && crossesCut(s.faults.cut, p)
}

// lost reports whether a message sent in state n is lost at once: its receiver is down,
// or it crosses a partition that loses messages.
func (x *executor) lost(n *state, p *pending) bool {
	f := n.faults
	if p.ev.To >= 0 && f.crashed>>uint(p.ev.To)&1 != 0 {
		return true
	}
	return !x.hold && crossesCut(f.cut, p)
}

// faultEvents appends the fault events enabled in s to buf and idx; deliv are the
// deliveries enabled (buf[:deliv]).
func (x *executor) faultEvents(s *state, buf []dpor.Event, idx []int, deliv int) ([]dpor.Event, []int) {
	f := &x.sys.Faults
	var st faultState
	if s.faults != nil {
		st = *s.faults
	}
	for _, kind := range [2]dpor.EventKind{dpor.Drop, dpor.Duplicate} {
		if (kind == dpor.Drop && int(st.drops) >= f.Drop) || (kind == dpor.Duplicate && int(st.dups) >= f.Duplicate) {
			continue
		}
		tag := uint64(tagDrop)
		if kind == dpor.Duplicate {
			tag = tagDup
		}
		for i := 0; i < deliv; i++ {
			ev := buf[i]
			if ev.Kind != dpor.Message || ev.From < 0 {
				continue
			}
			ev.Target, ev.ID, ev.Kind = ev.ID, faultID(tag, ev.ID, 0), kind
			buf = append(buf, ev)
			idx = append(idx, faultIndex(kind, idx[i]))
		}
	}
	for a := range s.actors {
		down := st.crashed>>uint(a)&1 != 0
		switch {
		case !down && int(st.crashes) < f.Crash:
			buf = append(buf, dpor.Event{ID: faultID(tagCrash, uint64(a), 0), Kind: dpor.Crash, From: model.ID(a), To: model.ID(a), Parent: -1})
			idx = append(idx, faultIndex(dpor.Crash, a))
		case down && !f.CrashStop:
			if _, ok := s.actors[a].(model.Restarter); ok {
				buf = append(buf, dpor.Event{ID: faultID(tagRestart, uint64(a), 0), Kind: dpor.Restart, From: model.ID(a), To: model.ID(a), Parent: -1})
				idx = append(idx, faultIndex(dpor.Restart, a))
			}
		}
	}
	if st.cut == 0 && int(st.parts) < f.Partition {
		for j, side := range x.sides {
			a := model.ID(bits.TrailingZeros64(side))
			buf = append(buf, dpor.Event{ID: faultID(tagCut, side, 0), Kind: dpor.Partition, From: a, To: a, Parent: -1, Target: side})
			idx = append(idx, faultIndex(dpor.Partition, j))
		}
	}
	if t := x.harness.Timeouts(); t > 0 {
		for c, cl := range s.clients {
			used := 0
			if st.timeouts != nil {
				used = int(st.timeouts[c])
			}
			if used >= t || int(cl.answered) >= x.harness.Ops(c) {
				continue
			}
			id := model.ClientID(c)
			to := x.retryTarget(c, used+1)
			buf = append(buf, dpor.Event{ID: faultID(tagTimeout, uint64(c), uint64(used)), Kind: dpor.Timeout, From: id, To: to, Parent: -1})
			idx = append(idx, faultIndex(dpor.Timeout, c))
		}
	}
	if st.cut != 0 {
		a := model.ID(bits.TrailingZeros64(st.cut))
		buf = append(buf, dpor.Event{ID: faultID(tagHeal, st.cut, 0), Kind: dpor.Heal, From: a, To: a, Parent: -1, Target: st.cut})
		idx = append(idx, faultIndex(dpor.Heal, 0))
	}
	return buf, idx
}

// stepFault runs the fault event idx (< 0) from s at path position depth.
func (x *executor) stepFault(s *state, idx int, depth int, log []histories.Event) (n *state, out []histories.Event, fail *failure) {
	defer func() {
		if r := recover(); r != nil {
			n, out, fail = s, log, x.stepPanic(r, "in a fault event")
		}
	}()
	x.answered, x.returned = x.answered[:0], false
	kind, arg := decodeFault(idx)
	if kind == dpor.Duplicate {
		return x.duplicate(s, arg, depth, log)
	}
	n = &state{actors: s.actors, ahash: s.ahash, clients: s.clients, events: s.events, hist: s.hist, asum: s.asum, psum: s.psum, pending: s.pending, fifo: s.fifo}
	f := faultsOf(s)
	n.faults = f
	switch kind {
	case dpor.Drop:
		f.drops++
		n.psum -= s.pending[arg].chash
		n.pending = make([]*pending, 0, len(s.pending)-1)
		n.pending = append(append(n.pending, s.pending[:arg]...), s.pending[arg+1:]...)
	case dpor.Crash:
		f.crashes++
		f.crashed |= 1 << uint(arg)
		n.removePending(func(p *pending) bool { return p.ev.To == model.ID(arg) })
	case dpor.Partition:
		f.parts++
		f.cut = x.sides[arg]
		if !x.hold {
			n.removePending(func(p *pending) bool { return crossesCut(f.cut, p) })
		}
	case dpor.Heal:
		f.cut = 0
	case dpor.Timeout:
		x.timeout(n, f, arg, depth)
	case dpor.Restart:
		n.pending = append(make([]*pending, 0, len(s.pending)+4), s.pending...)
		return x.restart(n, s, arg, depth, log)
	}
	return n, log, nil
}

// timeout fires client c's timer in n, whose faults f it owns: the client sends the
// request of its current operation again, to the next actor.
func (x *executor) timeout(n *state, f *faultState, c, depth int) {
	if f.timeouts == nil {
		f.timeouts = make([]int32, len(n.clients))
	} else {
		f.timeouts = append([]int32(nil), f.timeouts...)
	}
	used := int(f.timeouts[c])
	f.timeouts[c]++
	cl := model.ClientID(c)
	req := model.RequestID{Client: cl, Seq: int(n.clients[c].answered)}
	msg := x.harness.Request(req)
	to := x.retryTarget(c, used+1)
	// A retry of an operation not yet invoked (its request is still on its way, or was
	// lost) invokes it when delivered, unless the first request gets there before it.
	kind := dpor.Request
	if n.clients[c].invoked > n.clients[c].answered {
		kind = dpor.Message
	}
	ch := x.contentHash(kind, cl, to, "", x.hashValue(msg))
	n.pending = append(make([]*pending, 0, len(n.pending)+1), n.pending...)
	x.add(n, x.message(&pending{ev: dpor.Event{ID: messageID(faultID(tagTimeout, uint64(c), uint64(used)), 0, ch), Kind: kind, From: cl, To: to, Msg: msg, Parent: depth}, chash: ch, req: req}))
}

// removePending drops from n's pending set (shared with its parent) every entry gone says.
func (n *state) removePending(gone func(*pending) bool) {
	kept := make([]*pending, 0, len(n.pending))
	for _, p := range n.pending {
		if gone(p) {
			n.psum -= p.chash
			continue
		}
		kept = append(kept, p)
	}
	n.pending = kept
}

// duplicate delivers s.pending[k] and leaves a copy of it pending, with an identity of its
// own whose causal parent is this step.
func (x *executor) duplicate(s *state, k int, depth int, log []histories.Event) (*state, []histories.Event, *failure) {
	p := s.pending[k]
	n, log, fail := x.deliver(s, k, depth, log)
	if fail != nil {
		return n, log, fail
	}
	f := faultsOf(s)
	f.dups++
	n.faults = f
	cp := *p
	cp.ev.ID = faultID(tagCopy, p.ev.ID, 0)
	cp.ev.Parent = depth
	x.add(n, &cp)
	return n, log, nil
}

// sameObject reports whether a and b are one pointer to a value of non-zero size.
func sameObject(a, b model.Actor) bool {
	ta := reflect.TypeOf(a)
	return ta == reflect.TypeOf(b) && ta.Kind() == reflect.Pointer && ta.Elem().Size() > 0 &&
		reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// restart brings actor a back in n (a copy of s whose faults it owns): its Restart
// method's value, whose Start, if it has one, runs as part of the step. A panic after
// Start ran (hashing the restarted state) keeps what Start answered, as deliver does.
func (x *executor) restart(n, s *state, a int, depth int, log []histories.Event) (next *state, out []histories.Event, fail *failure) {
	defer func() {
		if r := recover(); r != nil {
			next, out, fail = n, log, x.stepPanic(r, "after restarting "+x.sys.ActorName(model.ID(a)))
		}
	}()
	n.faults.crashed &^= 1 << uint(a)
	var actor model.Actor
	if f := x.run(func() { actor = s.actors[a].(model.Restarter).Restart() }, model.ID(a), n.clients); f != nil {
		f.msg = "Restart of " + x.sys.ActorName(model.ID(a)) + ": " + f.msg
		return n, log, f
	}
	if actor == nil {
		return n, log, &failure{kind: "panic", msg: "Restart of " + x.sys.ActorName(model.ID(a)) + " returned nil"}
	}
	if sameObject(actor, s.actors[a]) {
		// The crashed state belongs to the snapshots of every schedule through it.
		return n, log, &failure{kind: "panic", msg: "Restart of " + x.sys.ActorName(model.ID(a)) + " returned the crashed actor itself; it must return a new value, sharing no mutable memory with it"}
	}
	x.stepper, x.stepping = model.ID(a), actor
	parent := dpor.Event{ID: faultID(tagRestart, uint64(a), uint64(n.faults.crashes)), To: model.ID(a), Parent: depth}
	if st, ok := actor.(model.Starter); ok {
		if f := x.run(func() { st.Start(x.ctx) }, model.ID(a), n.clients); f != nil {
			f.msg = "Start of restarted " + x.sys.ActorName(model.ID(a)) + ": " + f.msg
			return n, log, f
		}
		var f *failure
		if log, f = x.effects(n, s.clients, &parent, depth, log); f != nil {
			return n, log, f
		}
	}
	h := x.hashValue(actor)
	n.actors = append([]model.Actor(nil), s.actors...)
	n.ahash = append([]uint64(nil), s.ahash...)
	n.actors[a] = actor
	n.ahash[a] = h
	n.asum += actorTerm(a, h) - actorTerm(a, s.ahash[a])
	return n, log, nil
}

// DescribeFault renders a fault event of a schedule for people: "DROP n0 → n1
// WriteReplica{…}", "CRASH n1", "PARTITION n0 | n1 n2".
func DescribeFault(sys *model.System, d Delivery) string {
	switch d.Kind {
	case dpor.Drop, dpor.Duplicate:
		return fmt.Sprintf("%s %s → %s  %s", strings.ToUpper(d.Kind.String()), sys.ActorName(d.From), sys.ActorName(d.To), DescribeMessageOf(sys, d.Msg))
	case dpor.Crash, dpor.Restart:
		return strings.ToUpper(d.Kind.String()) + " " + sys.ActorName(d.To)
	case dpor.Timeout:
		return "TIMEOUT " + sys.ActorName(d.From) + ", retries at " + sys.ActorName(d.To)
	case dpor.Partition, dpor.Heal:
		var in, out []string
		for a := range sys.Actors {
			if d.Target>>uint(a)&1 != 0 {
				in = append(in, sys.ActorName(model.ID(a)))
			} else {
				out = append(out, sys.ActorName(model.ID(a)))
			}
		}
		return strings.ToUpper(d.Kind.String()) + " " + strings.Join(in, " ") + " | " + strings.Join(out, " ")
	}
	return d.Kind.String()
}
