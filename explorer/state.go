package explorer

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/snapshot"
)

// pending is a message (or armed timer) not yet delivered. It is immutable once made:
// states share it.
type pending struct {
	ev    dpor.Event
	chash uint64          // content: kind, sender, receiver, timer name, payload
	req   model.RequestID // the operation, when ev.Kind is dpor.Request
	// mhash is the payload's hash when it was sent (0: not kept), against which deliver
	// checks that the receiving handler left the message as it was.
	mhash uint64
}

// client is a client's progress: how many of its requests were delivered (invoked) and
// answered.
type client struct {
	invoked, answered int32
	open              uint64 // the canonical term of its operation invoked and not answered (canonkey.go)
}

// state is a complete snapshot of the system (DESIGN.md, Semantics 6–7). Nothing mutates
// a state once the step that made it has finished; a step copies only what it changes.
// The history is not stored here: a state on the search path has as its history the
// first events of the path's event log (see engine.events).
type state struct {
	actors  []model.Actor
	ahash   []uint64 // each actor's fingerprint
	pending []*pending
	clients []client
	events  int         // length of the history
	hist    uint64      // the history's chain hash, or its canonical key (executor.byCanon, canonkey.go)
	asum    uint64      // Σ mix(i, ahash[i])
	psum    uint64      // Σ chash over pending (order-independent)
	faults  *faultState // nil until a fault happens
	fifo    bool        // the network is FIFO: fingerprint covers each channel's order
}

// fingerprint covers actors, pending messages and timers, the order of the messages in
// each FIFO channel, and the history (which also fixes each client's progress).
func (s *state) fingerprint() uint64 {
	fp := model.Mix64(s.asum ^ model.Mix64(s.psum+0x9E3779B97F4A7C15) ^ model.Mix64(s.hist^0xC2B2AE3D27D4EB4F))
	if s.faults != nil {
		fp = model.Mix64(fp ^ s.faults.hash())
	}
	if s.fifo {
		if o := s.fifoOrder(); o != 0 {
			fp = model.Mix64(fp ^ o)
		}
	}
	if finerFingerprints {
		fp = model.Mix64(fp ^ s.pendingOrder())
	}
	return fp
}

// finerFingerprints makes fingerprint cover the order of every pending event, which
// separates states that fifoOrder would merge: for the oracle test of fifoOrder only.
var finerFingerprints = false

// pendingOrder hashes the pending events in their order.
func (s *state) pendingOrder() uint64 {
	h := uint64(len(s.pending))
	for _, p := range s.pending {
		h = model.Mix64(h ^ p.chash)
	}
	return h
}

// sendOrder hashes, for each actor, its pending messages and timers in the order they
// were sent (s.pending's), independently of how the actors' queues interleave: for a
// strategy whose choices depend on that order (dpor.Needs.SendOrder), which the
// fingerprint, blind to order but within FIFO channels, does not cover. It covers the
// messages not enabled too (behind another on a FIFO channel, held by a partition): their
// place in the queue decides their costs once they are.
func (s *state) sendOrder() uint64 {
	type chain struct {
		to model.ID
		h  uint64
	}
	var buf [16]chain
	chains := buf[:0]
	for _, p := range s.pending {
		k := 0
		for k < len(chains) && chains[k].to != p.ev.To {
			k++
		}
		if k == len(chains) {
			chains = append(chains, chain{to: p.ev.To})
		}
		chains[k].h = model.Mix64(chains[k].h*0x9E3779B97F4A7C15 + p.chash)
	}
	var sum uint64
	for _, c := range chains {
		sum += model.Mix64(c.h ^ uint64(uint32(c.to))<<32)
	}
	return sum
}

// fifoOrder hashes the order of the messages within each FIFO channel: each message's
// content with its place in its channel, summed over the messages behind another. psum
// is a sum, blind to order, and on a FIFO network two states with the same messages
// pending in another order have different futures: merging them cut states off
// (a random FIFO system, internal/randsys seed 58 cyclic, reached 5 states by dpor that
// exhaustive search with caching never did). 0 when no channel holds two messages, so
// the fingerprints of other systems are unchanged.
func (s *state) fifoOrder() uint64 {
	var h uint64
	for i, p := range s.pending {
		if !p.ev.FIFO {
			continue
		}
		rank := uint64(0)
		for _, q := range s.pending[:i] {
			if q.ev.FIFO && q.ev.From == p.ev.From && q.ev.To == p.ev.To {
				rank++
			}
		}
		if rank > 0 {
			h += model.Mix64(p.chash ^ model.Mix64(rank))
		}
	}
	return h
}

func actorTerm(i int, h uint64) uint64 { return model.Mix64(h + uint64(i)*0x9E3779B97F4A7C15) }

// executor runs steps of one system. It is not safe for concurrent use.
type executor struct {
	sys     *model.System
	harness *model.Harness
	spec    interface{ IsOutput(any) bool }
	mode    snapshot.Mode
	ctx     *model.Ctx
	h       *model.Hasher
	fifo    bool
	// byCanon: a state's hist is its history's canonical key, not its chain hash
	// (Options.CanonicalStates).
	byCanon bool
	// keys: fill in the events' keys (for key-aware strategies).
	keys bool
	// channels is enabled's scratch set of the FIFO channels seen.
	channels map[[2]model.ID]bool
	// What the last step answered (Respond effects) and whether it recorded a return.
	answered []model.RequestID
	returned bool
	// clients: the clients' progress as the running handler sees it, for Ctx.Respond's
	// check of the requests that have arrived (run sets it).
	clients []client
	// sentTo: the actors at which the last step put a new event (dpor.StepInfo.SendsTo).
	sentTo uint64
	// disabled: the last step disarmed an armed timer (dpor.StepInfo.Disables).
	disabled bool
	// Faults: whether the system allows any, whether partitions hold messages rather than
	// lose them, and the sides a partition may cut (faults.go).
	faulty bool
	hold   bool
	sides  []uint64
	// shared caches snapshot.MayHoldPointer of the types of delivered messages: a
	// handler can change such a message where every schedule that delivers it sees it.
	shared map[reflect.Type]bool
	// stepper and stepping are the actor whose handler (or Restart and Start) the step
	// runs and its new state, so that a value that cannot be fingerprinted is named
	// (unhashable); stepping is nil when the step runs no handler.
	stepper  model.ID
	stepping model.Actor
	// delivering is the event whose handler deliver started last, for RunningDelivery.
	delivering atomic.Pointer[pending]
	// reflectiveCopies counts the actors copied by reflection, of which copyTime and
	// copiesTimed are the time and number of those timed (Stats.CopyTime).
	reflectiveCopies, copiesTimed int64
	copyTime                      time.Duration
	// cloneChecked counts the steps checkClone checked.
	cloneChecked int
}

// cloneChecks is how many steps checkClone checks in a run.
const cloneChecks = 100_000

// sharesMemory reports whether a handler could change msg in place, so that deliver
// must check that it did not (snapshot.MayHoldPointer of its type, cached).
func (x *executor) sharesMemory(msg any) bool {
	t := reflect.TypeOf(msg)
	if t == nil {
		return false
	}
	m, ok := x.shared[t]
	if !ok {
		if x.shared == nil {
			x.shared = map[reflect.Type]bool{}
		}
		m = snapshot.MayHoldPointer(t)
		x.shared[t] = m
	}
	return m
}

// unhashable names what a step handed to Ravel that cannot be fingerprinted, once
// Mode.Hash has panicked with e: the first message, timer payload or answer among the
// handler's effects whose hash panics, or else the actor's new state, with the part at
// fault and what to change (Mode.CheckHashable); or "" when it finds none. Hashing runs
// on every value anyway, so the path is looked for only here, where a run has already
// failed; a func that is nil hashes as nothing and is no finding.
func (x *executor) unhashable(e *snapshot.UnhashableError) string {
	if x.stepping == nil { // no handler ran: x.ctx holds an earlier step's effects
		return ""
	}
	name := x.sys.ActorName(x.stepper)
	for _, ef := range x.ctx.Effects() {
		var did string
		switch ef.Kind {
		case model.EffectSend:
			did = fmt.Sprintf("sent a %T", ef.Msg)
		case model.EffectSetTimer:
			did = fmt.Sprintf("armed timer %q with a %T", ef.Name, ef.Msg)
		case model.EffectRespond:
			did = fmt.Sprintf("answered with a %T", ef.Msg)
		default:
			continue
		}
		if !x.hashes(ef.Msg) {
			why := x.whyUnhashable(ef.Msg, e)
			if ce, ok := why.(*snapshot.CopyError); ok { // a message, not the state
				c := *ce
				c.Fix = strings.Replace(c.Fix, "remove it from the state", "send a value without it", 1)
				why = &c
			}
			return fmt.Sprintf("%s %s, which cannot be fingerprinted: %v", name, did, why)
		}
	}
	if !x.hashes(x.stepping) {
		return fmt.Sprintf("%s's state cannot be fingerprinted after the step: %v", name, x.whyUnhashable(x.stepping, e))
	}
	return ""
}

// whyUnhashable returns the path to the part of v that cannot be fingerprinted, or e when
// Mode.CheckHashable finds none (a part it trusts, with a HashState method, met it).
func (x *executor) whyUnhashable(v any, e error) error {
	if err := x.mode.CheckHashable(v); err != nil {
		return err
	}
	return e
}

// hashes reports whether hashing v ends without a panic.
func (x *executor) hashes(v any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	x.hashValue(v)
	return true
}

// stepPanic is the finding of a panic on Ravel's side of a step, where lead says where:
// a value the step handed over that cannot be fingerprinted is named (unhashable).
func (x *executor) stepPanic(r any, lead string) *failure {
	if e, ok := r.(*snapshot.UnhashableError); ok {
		if msg := x.unhashable(e); msg != "" {
			return &failure{kind: KindUncopyable, msg: msg}
		}
	}
	return &failure{kind: "panic", msg: fmt.Sprintf("%s: %v", lead, r), stack: string(debug.Stack())}
}

// failure is a finding made while running a step: a panic or an ill-typed response.
type failure struct {
	kind, msg, stack string
}

func newExecutor(sys *model.System, reflective bool) (*executor, error) {
	if err := sys.Validate(); err != nil {
		return nil, err
	}
	mode := snapshot.Mode{Reflective: reflective}
	for i, a := range sys.Actors {
		if err := mode.CheckCopyable(a); err != nil {
			return nil, fmt.Errorf("actor %s: %w", sys.ActorName(model.ID(i)), err)
		}
	}
	x := &executor{
		sys:     sys,
		harness: sys.Harness,
		mode:    mode,
		ctx:     model.NewCtx(len(sys.Actors), sys.Harness.NumClients()),
		h:       mode.NewHasher(),
		fifo:    sys.Network == model.FIFO,
		faulty:  sys.Faults.Any() || sys.Harness.Timeouts() > 0,
		hold:    sys.Faults.Hold,
		sides:   faultSides(sys),
	}
	sp := sys.Harness.Spec()
	x.spec = outputChecker(sp.IsOutput)
	// A request has reached an actor when its operation is invoked (deliver).
	x.ctx.SetArrived(func(c int) int { return int(x.clients[c].invoked) })
	return x, nil
}

type outputChecker func(any) bool

func (f outputChecker) IsOutput(v any) bool { return f(v) }

func (x *executor) hashValue(v any) uint64 {
	x.h.Reset()
	x.mode.Hash(x.h, v)
	return x.h.Sum64()
}

func (x *executor) contentHash(kind dpor.EventKind, from, to model.ID, timer string, payload uint64) uint64 {
	h := model.Hasher{}
	h.Uint64(uint64(kind))
	h.ID(from)
	h.ID(to)
	if timer != "" {
		h.String(timer)
	}
	h.Uint64(payload)
	return h.Sum64()
}

func messageID(parent uint64, index int, content uint64) uint64 {
	h := model.Hasher{}
	h.Uint64(parent)
	h.Int(index)
	h.Uint64(content)
	return h.Sum64()
}

// request makes the pending request of client c's operation seq, sent by the step at
// path position parent (−1 for the first operations, pending from the start).
func (x *executor) request(c int, seq int32, parent int) *pending {
	id := model.RequestID{Client: model.ClientID(c), Seq: int(seq)}
	msg := x.harness.Request(id)
	to := x.harness.Target(c)
	ch := x.contentHash(dpor.Request, id.Client, to, "", x.hashValue(msg))
	p := &pending{
		ev:    dpor.Event{ID: messageID(0x52657175657374, c<<20|id.Seq, ch), Kind: dpor.Request, From: id.Client, To: to, Msg: msg, Parent: parent},
		chash: ch,
		req:   id,
	}
	p.ev.Content = ch
	p.ev.FIFO = x.fifo
	if x.keys {
		if part := x.harness.Spec().Partition; part != nil {
			p.ev.Key, p.ev.KeyKnown = part(x.harness.InputOf(id)), true
		}
	}
	return p
}

// message makes the pending event of a send or a timer, filling in its key when the
// strategy needs keys.
func (x *executor) message(p *pending) *pending {
	p.ev.Content = p.chash
	p.ev.FIFO = x.fifo && p.ev.Kind != dpor.Timer // as enabled orders them
	if x.keys {
		p.ev.Key, p.ev.KeyKnown, p.ev.Excluded = x.sys.Keys.Of(p.ev.Msg)
	}
	return p
}

// initial builds the initial state: copies of the system's actors after their start-up
// actions, the messages those sent, and every client's first request. It reports a panic
// in a start-up action as a failure.
func (x *executor) initial() (*state, *failure, error) {
	n := len(x.sys.Actors)
	s := &state{
		actors:  make([]model.Actor, n),
		ahash:   make([]uint64, n),
		clients: make([]client, x.harness.NumClients()),
		fifo:    x.fifo,
	}
	for i, a := range x.sys.Actors {
		c, err := x.mode.Clone(a)
		if err != nil {
			return nil, nil, fmt.Errorf("copying actor %s: %w", x.sys.ActorName(model.ID(i)), err)
		}
		s.actors[i] = c
	}
	for i, a := range s.actors {
		st, ok := a.(model.Starter)
		if !ok {
			continue
		}
		parent := dpor.Event{ID: messageID(0x5374617274, i, 0), To: model.ID(i), Parent: -1}
		if f := x.run(func() { st.Start(x.ctx) }, model.ID(i), s.clients); f != nil {
			f.msg = "start-up of " + x.sys.ActorName(model.ID(i)) + ": " + f.msg
			return nil, f, nil
		}
		if f := x.apply(s, &parent, -1); f != nil {
			return nil, f, nil
		}
	}
	for i, a := range s.actors {
		s.ahash[i] = x.hashValue(a)
		s.asum += actorTerm(i, s.ahash[i])
	}
	for c := range s.clients {
		if x.harness.Ops(c) > 0 {
			p := x.request(c, 0, -1)
			s.pending = append(s.pending, p)
			s.psum += p.chash
		}
	}
	return s, nil, nil
}

// run calls a handler of self, turning a panic into a failure; clients is the clients'
// progress the handler sees (what Ctx.Respond checks an answer against).
func (x *executor) run(f func(), self model.ID, clients []client) (fail *failure) {
	defer func() {
		if r := recover(); r != nil && !x.ctx.Failed() {
			fail = &failure{kind: "panic", msg: fmt.Sprint(r), stack: string(debug.Stack())}
		}
	}()
	x.clients = clients
	x.ctx.Begin(self)
	f()
	return nil
}

// enabled lists the events deliverable from s into buf, with the index in s.pending of
// each, in pending order: every pending event on an unordered network; on FIFO, the oldest
// pending message of each (sender, receiver) channel, and every timer.
func (x *executor) enabled(s *state, buf []dpor.Event, idx []int) ([]dpor.Event, []int) {
	// Sized once: appending to a buffer that grows by doubling copied the events of a
	// state with thousands of pending messages several times over, at every step.
	buf, idx = slices.Grow(buf[:0], len(s.pending)), slices.Grow(idx[:0], len(s.pending))
	for i, p := range s.pending {
		if x.fifo && i == fifoScan {
			x.seedChannels(s.pending[:i])
		}
		if x.fifo && p.ev.Kind != dpor.Timer && x.blockedFIFO(s.pending[:i], p) {
			continue
		}
		if x.faulty && x.held(s, p) {
			continue
		}
		buf = append(buf, p.ev)
		buf[len(buf)-1].FIFO = x.fifo && p.ev.Kind != dpor.Timer
		idx = append(idx, i)
	}
	if x.faulty {
		return x.faultEvents(s, buf, idx, len(buf))
	}
	return buf, idx
}

// fifoScan is the number of pending messages up to which blockedFIFO looks at the
// earlier ones directly; beyond it, a set of the channels seen so far keeps enabled
// linear in the pending messages rather than quadratic.
const fifoScan = 16

// seedChannels makes the set of the channels of the non-timer messages of earlier, from
// which blockedFIFO goes on.
func (x *executor) seedChannels(earlier []*pending) {
	if x.channels == nil {
		x.channels = make(map[[2]model.ID]bool)
	}
	clear(x.channels)
	for _, q := range earlier {
		if q.ev.Kind != dpor.Timer {
			x.channels[[2]model.ID{q.ev.From, q.ev.To}] = true
		}
	}
}

// waitsBehind reports whether a message of earlier is on p's channel: on FIFO, p waits
// for it.
func waitsBehind(earlier []*pending, p *pending) bool {
	for _, q := range earlier {
		if q.ev.From == p.ev.From && q.ev.To == p.ev.To && q.ev.Kind != dpor.Timer {
			return true
		}
	}
	return false
}

// blockedFIFO reports whether an earlier message than p waits on p's channel. enabled
// calls it for the messages in order: past the first fifoScan, it keeps the channels
// seen in a set (seedChannels).
func (x *executor) blockedFIFO(earlier []*pending, p *pending) bool {
	if len(earlier) < fifoScan {
		return waitsBehind(earlier, p)
	}
	ch := [2]model.ID{p.ev.From, p.ev.To}
	if x.channels[ch] {
		return true
	}
	x.channels[ch] = true
	return false
}

// step delivers s.pending[k] at path position depth and returns the next state, the
// history events it adds (appended to log), or the failure it ran into. What a handler
// hands to Ravel can still make Ravel's side of the step panic — a message holding a
// func cannot be fingerprinted — and that too is a finding about the system.
func (x *executor) step(s *state, k int, depth int, log []histories.Event) (*state, []histories.Event, *failure) {
	x.sentTo, x.disabled = 0, false
	x.stepping = nil
	if k < 0 {
		return x.stepFault(s, k, depth, log)
	}
	return x.deliver(s, k, depth, log)
}

// panicAfter is the failure of a panic on Ravel's side of a step of self, after its
// handler ran: hashing what the handler left, a message or the actor itself. A value
// that cannot be fingerprinted is named (stepPanic).
func (x *executor) panicAfter(self model.ID, r any) *failure {
	return x.stepPanic(r, "after "+x.sys.ActorName(self)+"'s handler")
}

// deliver runs the delivery of s.pending[k] (step). A panic after the handler ran keeps
// the step's state and history so far, as a panic in the handler does: the finding's
// schedule then shows what the step invoked and answered (effects keeps its own).
func (x *executor) deliver(s *state, k int, depth int, log []histories.Event) (n *state, out []histories.Event, fail *failure) {
	defer func() {
		if r := recover(); r != nil {
			if n == nil {
				n = s
			}
			out, fail = log, x.panicAfter(s.pending[k].ev.To, r)
		}
	}()
	x.answered, x.returned = x.answered[:0], false
	p := s.pending[k]
	n = &state{
		actors:  s.actors,
		ahash:   s.ahash,
		clients: s.clients,
		events:  s.events,
		hist:    s.hist,
		asum:    s.asum,
		psum:    s.psum - p.chash,
		faults:  s.faults,
		fifo:    s.fifo,
	}
	n.pending = make([]*pending, 0, len(s.pending)+4)
	n.pending = append(n.pending, s.pending[:k]...)
	n.pending = append(n.pending, s.pending[k+1:]...)
	if p.ev.Kind == dpor.Request {
		// A retried request (Harness.Retrying) invokes its operation only if it gets
		// there first.
		if c, _ := p.req.Client.Client(); s.clients[c].invoked == int32(p.req.Seq) {
			n.clients = append([]client(nil), s.clients...)
			n.clients[c].invoked++
			log = x.record(n, log, histories.Event{Kind: histories.Invoke, Req: p.req})
		}
	}
	to := int(p.ev.To)
	actor, err := x.clone(s.actors[to])
	if err != nil {
		return n, log, &failure{kind: KindUncopyable, msg: "Ravel cannot copy " + x.sys.ActorName(p.ev.To) + "'s state, as the schedule's earlier steps left it: " + err.Error()}
	}
	x.stepper, x.stepping = p.ev.To, actor
	x.delivering.Store(p)
	running.Store(x)
	env := model.Envelope{From: p.ev.From, To: p.ev.To, Msg: p.ev.Msg, Timer: p.ev.Timer}
	before := p.mhash
	shared := x.sharesMemory(p.ev.Msg)
	if shared && before == 0 { // a client's request: not sent by a handler
		before = x.hashValue(p.ev.Msg)
	}
	if f := x.run(func() { actor.Receive(x.ctx, env) }, p.ev.To, n.clients); f != nil {
		return n, log, f
	}
	if shared && x.hashValue(p.ev.Msg) != before {
		return n, log, &failure{kind: "changed-message", msg: fmt.Sprintf("%s's handler changed the %T it received: a message is shared by every schedule that delivers it, so a handler must not change it (copy it first)", x.sys.ActorName(p.ev.To), p.ev.Msg)}
	}
	var f *failure
	log, f = x.effects(n, s.clients, &p.ev, depth, log)
	if f != nil {
		return n, log, f
	}
	if h := x.hashValue(actor); h != s.ahash[to] {
		if f := x.checkClone(s, to, actor); f != nil {
			return n, log, f
		}
		n.actors = append([]model.Actor(nil), s.actors...)
		n.ahash = append([]uint64(nil), s.ahash...)
		n.actors[to] = actor
		n.ahash[to] = h
		n.asum += actorTerm(to, h) - actorTerm(to, s.ahash[to])
	}
	return n, log, nil
}

func (x *executor) record(n *state, log []histories.Event, e histories.Event) []histories.Event {
	log = append(log[:n.events], e)
	n.events++
	if x.byCanon {
		n.recordCanon(e)
	} else {
		n.hist = histories.ChainHash(n.hist, e)
	}
	return log
}

// apply performs the effects of the handler that just ran on behalf of parent, without a
// history (start-up actions).
func (x *executor) apply(s *state, parent *dpor.Event, depth int) *failure {
	_, f := x.effects(s, nil, parent, depth, nil)
	return f
}

// effects applies what the handler of event parent (the step at path position depth)
// asked for to n, which the step owns.
// shared is the parent state's client slice, which n must copy before changing.
//
// A panic here (hashing a message whose HashState panics) keeps the events recorded so
// far, which only effects has: a return recorded before it stays in the finding.
func (x *executor) effects(n *state, shared []client, parent *dpor.Event, depth int, log []histories.Event) (out []histories.Event, fail *failure) {
	self := parent.To
	defer func() {
		if r := recover(); r != nil {
			out, fail = log, x.panicAfter(self, r)
		}
	}()
	for i, e := range x.ctx.Effects() {
		switch e.Kind {
		case model.EffectSend:
			mh := x.hashValue(e.Msg)
			ch := x.contentHash(dpor.Message, self, e.To, "", mh)
			x.add(n, x.message(&pending{ev: dpor.Event{ID: messageID(parent.ID, i, ch), Kind: dpor.Message, From: self, To: e.To, Msg: e.Msg, Parent: depth}, chash: ch, mhash: mh}))
		case model.EffectSetTimer:
			mh := x.hashValue(e.Msg)
			ch := x.contentHash(dpor.Timer, self, self, e.Name, mh)
			if x.armed(n, self, e.Name, ch) {
				// Armed already with this payload: the timer stays the event it was, with
				// its identity and its cause. Replacing it by an equal one made it a new
				// event caused by this step, and DPOR's race analysis, which takes an
				// enabled event to stay enabled until it runs, then never tried the old
				// one first (probe C1: a violation dpor missed).
				continue
			}
			x.cancel(n, self, e.Name)
			x.add(n, x.message(&pending{ev: dpor.Event{ID: messageID(parent.ID, i, ch), Kind: dpor.Timer, From: self, To: self, Msg: e.Msg, Timer: e.Name, Parent: depth}, chash: ch, mhash: mh}))
		case model.EffectCancelTimer:
			x.cancel(n, self, e.Name)
		case model.EffectFail:
			return log, &failure{kind: "assertion", msg: fmt.Sprintf("%s failed an assertion: %v", x.sys.ActorName(self), e.Msg)}
		case model.EffectRespond:
			x.answered = append(x.answered, e.Req)
			c, _ := e.Req.Client.Client()
			cl := n.clients[c]
			if log == nil || int32(e.Req.Seq) != cl.answered || cl.answered >= cl.invoked {
				continue // a duplicate: the client ignores it (Ctx.Respond refuses one not yet arrived)
			}
			if !x.spec.IsOutput(e.Msg) {
				return log, &failure{kind: "bad-response", msg: fmt.Sprintf("%s answered %s's %s with %T %+v; the specification's outputs are %s",
					x.sys.ActorName(self), x.sys.ActorName(e.Req.Client), x.harness.Spec().Input(x.harness.Input(c, e.Req.Seq)), e.Msg, e.Msg, x.harness.Spec().OutputType())}
			}
			if &n.clients[0] == &shared[0] {
				n.clients = append([]client(nil), n.clients...)
			}
			n.clients[c].answered++
			x.returned = true
			log = x.record(n, log, histories.Event{Kind: histories.Return, Req: e.Req, Output: e.Msg, OutputHash: x.hashValue(e.Msg)})
			if next := n.clients[c].answered; int(next) < x.harness.Ops(c) {
				x.add(n, x.request(c, next, depth))
			}
		}
	}
	return log, nil
}

// add makes p pending in n.
func (x *executor) add(n *state, p *pending) {
	if n.faults != nil && x.lost(n, p) {
		return
	}
	n.pending = append(n.pending, p)
	n.psum += p.chash
	if to := p.ev.To; to >= 0 && to < 64 {
		x.sentTo |= 1 << to
	}
}

// armed reports whether self's timer name is armed in n with content hash ch.
func (x *executor) armed(n *state, self model.ID, name string, ch uint64) bool {
	for _, p := range n.pending {
		if p.ev.Kind == dpor.Timer && p.ev.To == self && p.ev.Timer == name {
			return p.chash == ch
		}
	}
	return false
}

// cancel disarms self's timer name in n, if it is armed.
func (x *executor) cancel(n *state, self model.ID, name string) {
	for i, p := range n.pending {
		if p.ev.Kind == dpor.Timer && p.ev.To == self && p.ev.Timer == name {
			n.psum -= p.chash
			n.pending = slices.Delete(n.pending, i, i+1) // n owns its pending slice
			x.disabled = true
			return
		}
	}
}

// checkClone checks, after a handler of actor to ran on its copy actor, that the state
// it was copied from — s's, which other schedules go on from — did not change with it:
// a Clone method that shares a map, slice or pointer with the original lets the handler
// change both, and the search would then go on from states no schedule reaches (false
// violations, blamed on a handler that is not deterministic). Only actors copied by
// their own Clone method are checked (Ravel's reflective copy shares nothing), at the
// cost of one more fingerprint of the actor a step; the check is exact, for it fires on a
// change that happened, not on sharing that may be harmless (data no handler changes).
// deliver calls it only for steps that changed the actor (a handler that changed nothing
// through the copy changed nothing through a shared part either), and only for the first
// cloneChecks of those, at the cost of one more fingerprint each: a Clone that shares
// memory shows at once.
func (x *executor) checkClone(s *state, to int, actor model.Actor) *failure {
	orig := s.actors[to]
	if _, ok := orig.(snapshot.Cloner); !ok || x.mode.Reflective || x.cloneChecked >= cloneChecks {
		return nil
	}
	x.cloneChecked++
	if x.hashValue(orig) == s.ahash[to] {
		return nil
	}
	name := x.sys.ActorName(model.ID(to))
	msg := fmt.Sprintf("the Clone method of %T shares memory with the original: %s's handler, which runs on a copy, changed %s's state before the step too", orig, name, name)
	if paths := snapshot.SharedPaths(orig, actor, 3); paths != nil {
		msg += fmt.Sprintf(" (the copy and the original share %s)", strings.Join(paths, ", "))
	} else {
		msg += " (no map, slice or pointer is shared now: through a global, or the actor's HashState is not deterministic?)"
	}
	msg += "; every schedule that goes on from that state sees the change, so findings would be false. " +
		"A Clone must copy every map, slice and pointer a handler may change (maps.Clone, slices.Clone, a copy of the pointee); or remove the Clone method, or run with --reflective (raveltest.Reflective), to let Ravel copy the state"
	return &failure{kind: KindSharedClone, msg: msg}
}

// running is the executor that started a delivery last, in any search of the process.
var running atomic.Pointer[executor]

// RunningDelivery describes the delivery whose handler a search of this process started
// last — "n0 → n1 Update{Value:1}" —, or returns "" when none has. A command that finds
// a handler that has not returned names it with this: the search itself cannot, since it
// waits for the handler. It is safe to call from any goroutine.
func RunningDelivery() string {
	x := running.Load()
	if x == nil {
		return ""
	}
	p := x.delivering.Load()
	if p == nil {
		return ""
	}
	what := DescribeMessageOf(x.sys, p.ev.Msg)
	if p.ev.Timer != "" {
		what = "timer " + strconv.Quote(p.ev.Timer) + " " + what
	}
	return fmt.Sprintf("%s → %s  %s", x.sys.ActorName(p.ev.From), x.sys.ActorName(p.ev.To), what)
}

// clone copies a for a step, timing some of the copies made by reflection
// (Stats.CopyTime).
func (x *executor) clone(a model.Actor) (model.Actor, error) {
	if _, ok := a.(snapshot.Cloner); ok && !x.mode.Reflective {
		return x.mode.Clone(a)
	}
	x.reflectiveCopies++
	if x.reflectiveCopies > 16 && x.reflectiveCopies&63 != 0 {
		return x.mode.Clone(a)
	}
	start := time.Now()
	c, err := x.mode.Clone(a)
	x.copyTime += time.Since(start)
	x.copiesTimed++
	return c, err
}
