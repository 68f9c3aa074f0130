package live

import (
	"fmt"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/samplers"
)

// The live runner schedules with the samplers of package samplers, the same code the
// model checker uses (docs/samplers.md), through the small interface below: an intercepted
// message is an event, the messages delivered to its sender before it was sent are the
// events it is causally after, and every message counts as racy (a live cluster declares
// nothing, and calibration runs would cost whole cluster iterations).

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

// NewChooser is the chooser of iteration run of a session seeded with seed: package
// samplers' pinned generator on stream (seed, run), so an iteration's draws do not
// depend on the iterations before it and stay the same across Go releases.
func NewChooser(seed uint64, run int) Chooser { return samplers.NewRand(seed, uint64(run)) }

// NewSampler returns the sampler of package samplers named name (random, rapos, pos,
// pctcp or its alias pct, tapct, dpos) for live iterations: depth is the bug depth d of
// the change-point samplers, events the n (and n̂, every message being racy) their change
// points are drawn from. "" is "random", the default.
func NewSampler(name string, depth, events int) (Sampler, error) {
	if name == "" {
		name = "random"
	}
	cfg, err := samplers.New(name, samplers.Options{Depth: depth, Events: events, RacyEvents: events})
	if err != nil {
		return nil, err
	}
	if cfg.HasBound() && events < 1 {
		return nil, fmt.Errorf("%s needs events ≥ 1 (got %d)", name, events)
	}
	return &adapter{s: cfg.Sampler(events)}, nil
}

// adapter runs a samplers.Sampler over intercepted messages.
type adapter struct {
	s       samplers.Sampler
	after   []uint64
	enabled []uint64
}

// Begin implements Sampler.
func (a *adapter) Begin(run int, c Chooser) { a.s.Begin(run, c) }

// Created implements Sampler.
func (a *adapter) Created(e EventInfo) {
	// The latest delivery to the sender comes first: samplers take After[0] as the
	// event whose delivery sent this one.
	a.after = a.after[:0]
	for i := len(e.After) - 1; i >= 0; i-- {
		a.after = append(a.after, uint64(e.After[i]))
	}
	a.s.Created(&samplers.Event{ID: uint64(e.ID), To: model.ID(e.To), After: a.after, Racy: true})
}

// Next implements Sampler.
func (a *adapter) Next(enabled []MsgID) MsgID {
	a.enabled = a.enabled[:0]
	for _, id := range enabled {
		a.enabled = append(a.enabled, uint64(id))
	}
	return MsgID(a.s.Next(a.enabled))
}

// Delivered implements Sampler. The messages intercepted since the previous step were
// already announced by Created, each with the deliveries it is causally after.
func (a *adapter) Delivered(id MsgID, _ []MsgID) { a.s.Delivered(uint64(id)) }
