package explorer

import (
	"slices"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// CommutesAt implements dpor.Commuter for stateful DPOR's context-sensitive sleep sets
// (dpor/contextsleep.go): from the state of node d it runs the event id and then node
// d's step, and the event id from the state after the step, and compares.
//
// Most calls are answered from commuteMemo. When both events are deliveries to one actor
// X, the three runs are X's handlers on X's state and the two events, and what each asks
// for is a function of those: the messages it sends, the timers of X it arms and
// disarms, the answers it gives. The answer is a function of those effects and of what
// decides how they land:
//   - which actors are down and which partition holds: a message to a crashed actor or
//     across the cut is lost or held, and then its FIFO order does not count;
//   - which timers X has armed: the two orders run different handlers (each sees X as
//     the other left it), so one order may disarm a timer the other leaves, which tells
//     the orders apart only if it was armed (the leader-based register: a Prepare deposes
//     a leader and disarms its heartbeat; an Accept of the same term first makes it a
//     follower, and the Prepare then does not). The step on the path counts too, though
//     the check does not run it again, so this is in the key whatever the runs did;
//   - when a run answered a client, each client's progress: an answer to a request no
//     longer outstanding is ignored, and an answer to an outstanding one records a return
//     and makes the client's next request pending.
//
// A client's request is a delivery like a message: its content holds its identity
// (client and sequence number) and input, which is all its handler sees. Its delivery
// records an invocation, so a run of one counts as more than sends, and the key then
// holds the clients' progress too.
//
// Sends need nothing more: the fingerprint counts pending messages by content and FIFO
// order by channel, and the two orders add theirs to the same messages. So the memo's key
// is X's state and armed timers, the two events' contents and the fault state, and,
// unless the runs only sent messages, the clients' progress.
func (e *engine) CommutesAt(d int, id uint64) bool {
	s := e.states[d]
	t := &e.nodes[d].Step().Event
	// One pass over the pending events: the sleeping event, whether the step's event was
	// pending (a fault's is not), and the timers its receiver has armed.
	var a *dpor.Event
	var tPending bool
	var timers uint64
	for _, p := range s.pending {
		switch {
		case a == nil && p.ev.ID == id:
			a = &p.ev
		case p.ev.ID == t.ID:
			tPending = true
		}
		if p.ev.Kind == dpor.Timer && p.ev.To == t.To {
			timers += model.Mix64(p.chash)
		}
	}
	if a == nil {
		return false // a fault, or not pending: judged by the relation
	}
	if a.To != t.To || !tPending {
		v, _ := e.commutesAt(d, id)
		return v
	}
	key := model.Mix64(s.ahash[a.To] ^ model.Mix64(a.Content+0x9E3779B97F4A7C15) ^ model.Mix64(t.Content^0xC2B2AE3D27D4EB4F))
	if f := s.faults; f != nil {
		key = model.Mix64(key ^ model.Mix64(f.crashed+0x165667B19E3779F9) ^ model.Mix64(f.cut^0x27D4EB2F165667C5))
	}
	key = model.Mix64(key ^ model.Mix64(timers^0x85EBCA77C2B2AE63))
	ekey := clientsKey(key, s.clients)
	if !noCommuteMemo {
		if v, ok := e.commuteMemo[key]; ok {
			return v
		}
		if v, ok := e.commuteMemo[ekey]; ok {
			return v
		}
	}
	v, scope := e.commutesAt(d, id)
	switch scope {
	case sendsOnly:
		e.remember(key, v)
	case effects:
		e.remember(ekey, v)
	}
	return v
}

// clientsKey mixes the clients' progress into a memo key.
func clientsKey(key uint64, cs []client) uint64 {
	for _, c := range cs {
		key = model.Mix64(key ^ uint64(uint32(c.invoked))<<32 ^ uint64(uint32(c.answered)))
	}
	return model.Mix64(key ^ 0x94D049BB133111EB)
}

// remember keeps an answer of CommutesAt.
func (e *engine) remember(key uint64, v bool) {
	if e.commuteMemo == nil || len(e.commuteMemo) >= commuteMemoSize {
		e.commuteMemo = make(map[uint64]bool)
	}
	e.commuteMemo[key] = v
}

// memoScope is what, besides the receiver's state and armed timers, the two events and
// the fault state, decides the answer of a check whose runs were all deliveries to one
// actor.
type memoScope uint8

const (
	sendsOnly memoScope = iota // nothing more: the runs only sent messages
	effects                    // the clients' progress: the runs also armed or disarmed timers, answered, or invoked
	unknown                    // not kept: a step failed
)

// commuteMemoSize bounds CommutesAt's memo (about 40 MiB full); it starts again empty.
const commuteMemoSize = 1 << 20

// noCommuteMemo turns the memo's answers off: for the test that it changes nothing.
var noCommuteMemo = false

// commutesAt answers CommutesAt from its three steps, recalling from the step memo
// (stepmemo.go) those it holds; scope says what decided the answer when both events
// are deliveries to one actor.
func (e *engine) commutesAt(d int, id uint64) (commutes bool, scope memoScope) {
	x := e.x
	// The executor's record of the last step is the engine's until the step is explored.
	answered, returned := slices.Clone(x.answered), x.returned
	defer func() { x.answered, x.returned = answered, returned }()
	if e.memo != nil {
		e.memo.checks++
	}
	commutes, scope, recalled := e.threeSteps(d, id, !noStepMemo)
	if stepMemoProbe != nil && recalled {
		runs, runsScope, _ := e.threeSteps(d, id, false)
		stepMemoProbe(commutes, scope, runs, runsScope)
	}
	return commutes, scope
}

// stepMemoProbe, when set (by tests), sees each answer commutesAt took in part from the
// step memo next to the answer of the three runs.
var stepMemoProbe func(memo bool, memoScope memoScope, runs bool, runsScope memoScope)

// threeSteps compares s·a·t with s·t·a, where s is node d's state, t its step and a the
// event id: it runs the three steps, or with recall takes from the step memo those it
// holds, and reports whether it did.
func (e *engine) threeSteps(d int, id uint64, recall bool) (commutes bool, scope memoScope, recalled bool) {
	s, s2 := e.states[d], e.states[d+1]
	t := e.nodes[d].Step()
	k := slices.IndexFunc(s.pending, func(p *pending) bool { return p.ev.ID == id })
	if k < 0 {
		return false, sendsOnly, false
	}
	c := s.pending[k].ev.Content
	// s·a and s·a·t. The path's step t is still pending and deliverable after a when t
	// is a message or a request (a delivery removes no other event and puts none ahead of
	// it in its channel); a timer a disarmed, and perhaps armed again as another event
	// of the same content, a fault, and so on are left to the runs.
	var sa, sat, sta stepOut
	hit12, hit3 := false, false
	if recall && (t.Event.Kind == dpor.Message || t.Event.Kind == dpor.Request) {
		if sa, hit12 = e.recall(s.fingerprint(), c); hit12 {
			sat, hit12 = e.recall(sa.fp, t.Event.Content)
		}
	}
	if !hit12 {
		st, la, a1, ok1, scope1 := e.runOne(s, e.log[:s.events], &e.checkLogs[0], id, d)
		if !ok1 {
			return false, scope1, false
		}
		sa = stepOut{effect: effectOf(&a1), scope: scope1}
		next, _, t2, ok2, scope2 := e.runOne(st, la, &e.checkLogs[1], t.Event.ID, d+1)
		if !ok2 {
			return false, max(scope1, scope2), false
		}
		sat = stepOut{fp: next.fingerprint(), effect: effectOf(&t2), scope: scope2}
	}
	// s·t·a: a is pending and enabled there (CommutesAt's contract).
	if recall {
		sta, hit3 = e.recall(s2.fingerprint(), c)
	}
	if !hit3 {
		next, la, a2, ok3, scope3 := e.runOne(s2, e.log[:s2.events], &e.checkLogs[0], id, d+1)
		if !ok3 {
			return false, max(sa.scope, sat.scope, scope3), hit12
		}
		sta = stepOut{fp: next.fingerprint(), effect: effectOf(&a2), scope: scope3}
		e.keepCheckRun(d+1, id, next, la)
	}
	commutes = sat.fp == sta.fp && sa.effect == sta.effect && sat.effect == effectOf(t)
	return commutes, max(sa.scope, sat.scope, sta.scope), hit12 || hit3
}

// runOne delivers the pending event id from st, whose history is log, off the path: it
// returns the next state, its history, and what the step did to the history; false when
// the event is not enabled at st or the step fails. scope says what the step's effects
// depend on beyond the receiver's state and the event (CommutesAt).
//
// The step appends to a copy of log in *buf, which the history returned shares: it is
// valid until *buf is used again. A step's history must not be appended to where log
// lies, which holds the path's later events; appending to a clipped log instead, as
// before, allocated a copy of the history at every run that invoked or answered (on
// chord-fixed 2r1w a tenth of stateful DPOR's fresh pages beyond exhaustive search's).
func (e *engine) runOne(st *state, log []histories.Event, buf *[]histories.Event, id uint64, depth int) (next *state, out []histories.Event, info dpor.StepInfo, ok bool, scope memoScope) {
	x := e.x
	k := slices.IndexFunc(st.pending, func(p *pending) bool { return p.ev.ID == id })
	if k < 0 || !e.deliverable(st, k) {
		return nil, nil, dpor.StepInfo{}, false, sendsOnly
	}
	if log != nil { // a nil history stays nil, an empty one empty: effects tells them apart
		*buf = append(slices.Grow((*buf)[:0], len(log)+1), log...)
		log = *buf
	}
	next, out, fail := x.step(st, k, depth, log)
	if log != nil && cap(out) > cap(*buf) {
		*buf = out[:0] // the step grew it: keep the larger array
	}
	if fail != nil || next == nil {
		return nil, nil, dpor.StepInfo{}, false, unknown
	}
	scope = e.stepScope(st, next)
	info = dpor.StepInfo{Invokes: st.pending[k].ev.Kind == dpor.Request, Returns: x.returned, Answers: slices.Clone(x.answered)}
	e.noteStep(st, st.pending[k].ev.Content, next, nil, &info, false)
	return next, out[:next.events], info, true, scope
}

// keepCheckRun keeps the step a check just ran from the top state, delivering the event
// id, to next with history log, as that state's peek: when the event stays awake there
// (it did not commute), the search peeks at it to choose its first event (SendsTo) and
// may take it, and would run it again. Only the top state's peeks outlive the check: a
// state below it has moved past the step. The executor still holds what the step did
// (e.info), since runOne ran it last.
func (e *engine) keepCheckRun(d int, id uint64, next *state, log []histories.Event) {
	if d != len(e.states)-1 || e.opts.Stateless || noKeepCheckRun {
		return
	}
	k := e.nodes[d].Find(id)
	if k < 0 {
		return
	}
	p := e.peekSlot(d, k)
	if p.ok {
		return
	}
	*p = peek{ok: true, next: next, events: stepEvents(e.states[d], next, log), info: e.info(e.nodes[d].Enabled[k]), byCheck: true}
}

// useCheckRun marks the peek p of event k at depth d, which a check ran, as the search's
// own from now on: it counts it as the step the search would have run.
func (e *engine) useCheckRun(d, k int, p *peek) {
	p.byCheck = false
	e.stats.Steps++
	if checkRunHook != nil {
		checkRunHook(e, d, k, p)
	}
}

// checkRunHook, when set (by tests), sees each step a check ran that the search then
// uses in place of running it.
var checkRunHook func(e *engine, d, k int, p *peek)

// noKeepCheckRun turns keepCheckRun off: for the test that it changes nothing.
var noKeepCheckRun = false

// deliverable reports whether st.pending[k] is enabled at st: executor.enabled's rule
// for one event.
func (e *engine) deliverable(st *state, k int) bool {
	x, p := e.x, st.pending[k]
	if x.faulty && x.held(st, p) {
		return false
	}
	return !x.fifo || p.ev.Kind == dpor.Timer || !waitsBehind(st.pending[:k], p)
}
