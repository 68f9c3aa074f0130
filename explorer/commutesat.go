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
// and none of the three runs did more than send messages (no timer set or cancelled, no
// response, no history event), the answer depends only on that actor's state and the two
// events' contents: the handlers are deterministic functions of them, the messages sent
// are the same whatever else is pending, and the fingerprint counts pending messages by
// content (and FIFO order by channel, which the sends alone decide here).
func (e *engine) CommutesAt(d int, id uint64) bool {
	s := e.states[d]
	t := e.nodes[d].Step()
	k := slices.IndexFunc(s.pending, func(p *pending) bool { return p.ev.ID == id })
	if k < 0 {
		return false // a fault, or not pending: judged by the relation
	}
	a := &s.pending[k].ev
	local := a.To == t.Event.To && a.Kind != dpor.Request && t.Event.Kind != dpor.Request &&
		slices.ContainsFunc(s.pending, func(p *pending) bool { return p.ev.ID == t.Event.ID })
	var key uint64
	if local {
		key = model.Mix64(s.ahash[a.To] ^ model.Mix64(a.Content+0x9E3779B97F4A7C15) ^ model.Mix64(t.Event.Content^0xC2B2AE3D27D4EB4F))
		if v, ok := e.commuteMemo[key]; ok && !noCommuteMemo {
			return v
		}
	}
	v, sendsOnly := e.commutesAt(d, id)
	if local && sendsOnly {
		if e.commuteMemo == nil || len(e.commuteMemo) >= commuteMemoSize {
			e.commuteMemo = make(map[uint64]bool)
		}
		e.commuteMemo[key] = v
	}
	return v
}

// commuteMemoSize bounds CommutesAt's memo (about 40 MiB full); it starts again empty.
const commuteMemoSize = 1 << 20

// noCommuteMemo turns the memo's answers off: for the test that it changes nothing.
var noCommuteMemo = false

// commutesAt runs the three steps of CommutesAt; sendsOnly reports that none of those
// it ran did more than send messages.
func (e *engine) commutesAt(d int, id uint64) (commutes, sendsOnly bool) {
	x := e.x
	// The executor's record of the last step is the engine's until the step is explored.
	answered, returned := slices.Clone(x.answered), x.returned
	defer func() { x.answered, x.returned = answered, returned }()
	s, s2 := e.states[d], e.states[d+1]
	t := e.nodes[d].Step()
	sa, la, a1, ok1, only1 := e.runOne(s, e.log[:s.events], id, d)
	if !ok1 {
		return false, only1
	}
	sat, _, t2, ok2, only2 := e.runOne(sa, la, t.Event.ID, d+1)
	if !ok2 {
		return false, only1 && only2
	}
	sta, _, a2, ok3, only3 := e.runOne(s2, e.log[:s2.events], id, d+1)
	sendsOnly = only1 && only2 && only3
	if !ok3 {
		return false, sendsOnly
	}
	return sat.fingerprint() == sta.fingerprint() && sameEffect(&a1, &a2) && sameEffect(&t2, t), sendsOnly
}

// runOne delivers the pending event id from st, whose history is log, off the path: it
// returns the next state, its history, and what the step did to the history; false when
// the event is not enabled at st or the step fails. sendsOnly reports that the step,
// if it ran, did nothing but send messages.
func (e *engine) runOne(st *state, log []histories.Event, id uint64, depth int) (next *state, out []histories.Event, info dpor.StepInfo, ok, sendsOnly bool) {
	x := e.x
	k := slices.IndexFunc(st.pending, func(p *pending) bool { return p.ev.ID == id })
	if k < 0 || !e.deliverable(st, k) {
		return nil, nil, dpor.StepInfo{}, false, true
	}
	next, out, fail := x.step(st, k, depth, slices.Clip(log))
	if fail != nil || next == nil {
		return nil, nil, dpor.StepInfo{}, false, false
	}
	sendsOnly = next.events == st.events && len(x.answered) == 0 && !x.returned &&
		!slices.ContainsFunc(x.ctx.Effects(), func(ef model.Effect) bool { return ef.Kind != model.EffectSend })
	info = dpor.StepInfo{Invokes: st.pending[k].ev.Kind == dpor.Request, Returns: x.returned, Answers: slices.Clone(x.answered)}
	return next, out[:next.events], info, true, sendsOnly
}

// deliverable reports whether st.pending[k] is enabled at st: executor.enabled's rule
// for one event.
func (e *engine) deliverable(st *state, k int) bool {
	x, p := e.x, st.pending[k]
	if x.faulty && x.held(st, p) {
		return false
	}
	return !x.fifo || p.ev.Kind == dpor.Timer || !waitsBehind(st.pending[:k], p)
}
