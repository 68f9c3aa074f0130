package live

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// The scheduler interface below is shaped exactly as SAMPLERS.md §7's
// Sampler{Begin, Created, Next, Delivered} with its Chooser{IntN, Uint64}, so that the
// samplers of package samplers (issue 11) plug in with an adapter once that package
// lands. RandomWalk and PCT here are small stand-ins, TO BE REPLACED by package samplers;
// they follow SAMPLERS.md §3.1 (random walk) and Burckhardt et al.'s PCT.

// MsgID numbers the intercepted messages of one iteration, in interception order.
type MsgID int

// Chooser is the only source of randomness of a Sampler.
type Chooser interface {
	IntN(k int) int // uniform in [0, k); IntN(1) is 0
	Uint64() uint64
}

// EventInfo describes a newly intercepted message to a Sampler: its endpoints, its kind,
// and the messages that happen before it (delivered to its sender before it was sent,
// by the vector clocks).
type EventInfo struct {
	ID       MsgID
	From, To int
	Kind     string
	After    []MsgID
}

// Sampler chooses which held message the live runner delivers next.
//
// Begin starts iteration run with the chooser of (seed, run); Created announces each
// intercepted message; Next picks one of enabled (never empty, ascending IDs); Delivered
// reports that the message was delivered and which messages were intercepted since the
// previous step (those its delivery may have caused).
type Sampler interface {
	Begin(run int, c Chooser)
	Created(e EventInfo)
	Next(enabled []MsgID) MsgID
	Delivered(id MsgID, sent []MsgID)
}

// NewChooser is the chooser of iteration run of a session seeded with seed: PCG seeded
// with (seed, run), so an iteration's draws do not depend on the iterations before it.
// (Package samplers pins its own generator; this one is replaced with it.)
func NewChooser(seed uint64, run int) Chooser {
	return rand.New(rand.NewPCG(seed, uint64(run)))
}

// RandomWalk delivers a uniformly chosen enabled message at each step.
type RandomWalk struct{ c Chooser }

// Begin implements Sampler.
func (r *RandomWalk) Begin(_ int, c Chooser) { r.c = c }

// Created implements Sampler.
func (r *RandomWalk) Created(EventInfo) {}

// Next implements Sampler.
func (r *RandomWalk) Next(enabled []MsgID) MsgID { return enabled[r.c.IntN(len(enabled))] }

// Delivered implements Sampler.
func (r *RandomWalk) Delivered(MsgID, []MsgID) {}

// PCT is the probabilistic concurrency testing scheduler for messages: every message gets
// a random rank among those created so far, the highest-ranked enabled one is delivered,
// and at Depth−1 change points, drawn uniformly among the first Events steps, the message
// about to be delivered is demoted below every other instead.
type PCT struct {
	Depth  int // d ≥ 1
	Events int // n: the expected number of steps of an iteration (≥ 1)

	c       Chooser
	rank    []MsgID       // highest priority first
	low     map[MsgID]int // demoted messages: lower value, lower priority; all below rank
	changes []int         // steps (1-based) at which to demote, ascending
	step    int
}

// Begin implements Sampler.
func (p *PCT) Begin(_ int, c Chooser) {
	p.c = c
	p.rank = p.rank[:0]
	p.low = map[MsgID]int{}
	p.step = 0
	p.changes = p.changes[:0]
	n := max(p.Events, 1)
	for range max(p.Depth, 1) - 1 {
		p.changes = append(p.changes, 1+c.IntN(n))
	}
	slices.Sort(p.changes)
}

// Created implements Sampler.
func (p *PCT) Created(e EventInfo) {
	p.rank = slices.Insert(p.rank, p.c.IntN(len(p.rank)+1), e.ID)
}

// Next implements Sampler.
func (p *PCT) Next(enabled []MsgID) MsgID {
	p.step++
	best := p.highest(enabled)
	for len(p.changes) > 0 && p.changes[0] == p.step {
		// Change point i (counting down) gets priority i below every rank.
		p.demote(best, -len(p.changes))
		p.changes = p.changes[1:]
		best = p.highest(enabled)
	}
	return best
}

func (p *PCT) demote(id MsgID, prio int) {
	if i := slices.Index(p.rank, id); i >= 0 {
		p.rank = slices.Delete(p.rank, i, i+1)
	}
	p.low[id] = prio
}

func (p *PCT) highest(enabled []MsgID) MsgID {
	bestRank, best := -1, enabled[0]
	for i, id := range p.rank {
		if slices.Contains(enabled, id) {
			bestRank, best = i, id
			break
		}
	}
	if bestRank >= 0 {
		return best
	}
	bestLow := 0
	found := false
	for _, id := range enabled {
		if v, ok := p.low[id]; ok && (!found || v > bestLow) {
			bestLow, best, found = v, id, true
		}
	}
	return best // an unknown message (never Created) only when nothing else is enabled
}

// Delivered implements Sampler.
func (p *PCT) Delivered(id MsgID, _ []MsgID) {
	if i := slices.Index(p.rank, id); i >= 0 {
		p.rank = slices.Delete(p.rank, i, i+1)
	}
	delete(p.low, id)
}

// NewSampler returns the stand-in sampler named name ("random" or "pct").
func NewSampler(name string, depth, events int) (Sampler, error) {
	switch name {
	case "random", "":
		return &RandomWalk{}, nil
	case "pct":
		if depth < 1 || events < 1 {
			return nil, fmt.Errorf("pct needs depth ≥ 1 and events ≥ 1 (got %d, %d)", depth, events)
		}
		return &PCT{Depth: depth, Events: events}, nil
	}
	return nil, fmt.Errorf("unknown scheduler %q (valid: random, pct)", name)
}
