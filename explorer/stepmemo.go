package explorer

import (
	"slices"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
)

// The step memo remembers where the steps already run led, for CommutesAt's runs. A
// check asks whether a sleeping event a and the path's step t commute at the state s
// where t was taken, and compares s·a·t with s·t·a. Most sleepers were explored from s
// just before t (that is why they sleep), so s·a is a state the search has just been
// to, and often s·a·t too: their fingerprints are known, and a check that finds both
// runs only the third step, s·t·a (chord-fixed 2r1w: 248 runs instead of 531).
//
// The memo's key is the state's fingerprint and the event's content. Two states with one
// fingerprint are one state to the search (its visited set merges them), so the step
// that delivers an event of one content leads from both to one state, with the same
// effects: the memo relies on exactly what state caching relies on. It is asked only
// about events known to be pending and deliverable at the state (CommutesAt's contract,
// and commutesAt's rule for the step on the path), so the event the memo ran is the one
// the check means.
type stepOut struct {
	fp     uint64    // the next state's fingerprint
	effect uint64    // what the step did to the history: effectOf its StepInfo
	scope  memoScope // what decided the step's effects beyond the receiver's state (runOne)
}

// keptOut is a stepOut as the step memo keeps it, in two words: the scope in the effect's
// top bits, which effectOf leaves clear. A slot of three words instead cost a small
// search a third more of the fresh pages it writes, on a run of a few milliseconds.
type keptOut struct {
	fp, effect uint64
}

const scopeShift = 62

func (o stepOut) kept() keptOut {
	return keptOut{o.fp, o.effect | uint64(o.scope)<<scopeShift}
}

func (k keptOut) out() stepOut {
	return stepOut{fp: k.fp, effect: k.effect &^ (3 << scopeShift), scope: memoScope(k.effect >> scopeShift)}
}

// stepMemoSlots is the most slots of the step memo (96 KiB, which the caches hold).
const stepMemoSlots = 1 << 12

// stepMemo is a bounded cache of stepOut by stepKey (a slotCache): a step whose bucket
// is full takes the slot of another. The steps a check asks about were mostly taken a
// little earlier in the same subtree, and a table of every step, which held them all,
// cost a cache miss a step: more than the runs it saved (register 2r2w: 1.10x stateful
// DPOR's CPU).
type stepMemo struct {
	slotCache[keptOut]
	checks int64 // the checks that ran or recalled their steps
}

func newStepMemo() *stepMemo {
	return &stepMemo{slotCache: reservedSlotCache[keptOut](stepMemoSlots)}
}

// noStepMemo turns the step memo off: for the test that it changes nothing.
var noStepMemo = false

// stepKey is the step memo's key of delivering an event of content c at a state of
// fingerprint fp.
func stepKey(fp, c uint64) uint64 {
	return model.Mix64(fp ^ model.Mix64(c+0x7FB5D329728EA185))
}

// effectOf hashes what a step did to the history: Invokes, Returns and Answers, the
// parts of StepInfo that sameEffect compares. Its top two bits are clear (keptOut).
func effectOf(info *dpor.StepInfo) uint64 {
	var h uint64
	if info.Invokes {
		h |= 1
	}
	if info.Returns {
		h |= 2
	}
	for _, r := range info.Answers {
		h = model.Mix64(h ^ uint64(r.Client)<<32 ^ uint64(uint32(r.Seq)))
	}
	return h &^ (3 << scopeShift)
}

// noteStep keeps the step from st, delivering the event of content c, that led to next
// with info, for the checks to come; search says it is a step of the search, not of a
// check. A failed step is not kept, nor a step of the search once checks have become
// rare (stepMemoWarm).
func (e *engine) noteStep(st *state, c uint64, next *state, fail *failure, info *dpor.StepInfo, search bool) {
	if e.memo == nil || fail != nil || next == nil || noStepMemo {
		return
	}
	if search && e.stats.Steps > stepMemoWarm && stepMemoEvery*e.memo.checks < e.stats.Steps {
		return
	}
	e.memo.put(stepKey(st.fingerprint(), c), stepOut{fp: next.fingerprint(), effect: effectOf(info), scope: e.stepScope(st, next)}.kept())
}

// Past its first stepMemoWarm steps, the search keeps its steps in the step memo only
// while at least one check in stepMemoEvery steps has run: keeping a step costs two
// fingerprints and a store, which pays only where checks are frequent. On chord-fixed
// 2r1w 177 checks ran in 583 steps, on register 2r2w 2,079 in 40,544, on abd 1w2r-seq
// 741 in 124,232.
const (
	stepMemoWarm  = 1 << 12
	stepMemoEvery = 32
)

// stepScope is what the step the executor just ran, from st to next, depended on
// beyond the receiver's state and the event (CommutesAt).
func (e *engine) stepScope(st, next *state) memoScope {
	x := e.x
	if next.events != st.events || len(x.answered) > 0 || x.returned ||
		slices.ContainsFunc(x.ctx.Effects(), func(ef model.Effect) bool { return ef.Kind != model.EffectSend }) {
		return effects
	}
	return sendsOnly
}

// recall looks up the step delivering the event of content c at a state of
// fingerprint fp.
func (e *engine) recall(fp, c uint64) (stepOut, bool) {
	if e.memo == nil {
		return stepOut{}, false
	}
	k, ok := e.memo.get(stepKey(fp, c))
	return k.out(), ok
}
