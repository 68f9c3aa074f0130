package explorer

import (
	"fmt"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// Session steps a system by hand, one delivery at a time, on the explorer's own
// snapshots: the interactive explorer and the HTML report's "state after each step" are
// built on it. Undo is free, since every earlier state is kept. It is not safe for
// concurrent use.
type Session struct {
	sys     model.System
	x       *executor
	states  []*state
	steps   []Delivery
	log     []histories.Event
	failure string
}

// NewSession starts a session at sys's initial state, with the default copy and
// fingerprint (NewSessionMode with reflective false).
func NewSession(sys model.System) (*Session, error) { return NewSessionMode(sys, false) }

// NewSessionMode starts a session at sys's initial state. With reflective the session
// copies and fingerprints states by reflection even where actors have Clone and HashState
// (Options.Reflective), so its event identities are those of a reflective run's schedule.
func NewSessionMode(sys model.System, reflective bool) (*Session, error) {
	x, err := newExecutor(&sys, reflective)
	if err != nil {
		return nil, err
	}
	s, fail, err := x.initial()
	if err != nil {
		return nil, err
	}
	if fail != nil {
		return nil, fmt.Errorf("%s: %s", fail.kind, fail.msg)
	}
	return &Session{sys: sys, x: x, states: []*state{s}}, nil
}

func (s *Session) cur() *state { return s.states[len(s.states)-1] }

// Enabled lists the deliveries possible now; none after a failure.
func (s *Session) Enabled() []Delivery {
	if s.failure != "" {
		return nil
	}
	buf, _ := s.x.enabled(s.cur(), nil, nil)
	out := make([]Delivery, len(buf))
	for i, ev := range buf {
		out[i] = deliveryOf(ev)
	}
	return out
}

// Deliver makes the enabled delivery id. A handler's panic or ill-typed answer ends the
// session's progress: Failure reports it, and Undo goes back before it.
func (s *Session) Deliver(id uint64) error {
	if s.failure != "" {
		return fmt.Errorf("the session ended in a failure (%s): undo first", s.failure)
	}
	cur := s.cur()
	var buf []dpor.Event
	buf, idx := s.x.enabled(cur, buf, nil)
	for i, ev := range buf {
		if ev.ID != id {
			continue
		}
		next, log, f := s.x.step(cur, idx[i], len(s.steps), s.log[:cur.events])
		s.log = log
		s.steps = append(s.steps, deliveryOf(ev))
		s.states = append(s.states, next)
		if f != nil {
			s.failure = f.kind + ": " + f.msg
		}
		return nil
	}
	return fmt.Errorf("event %016x is not enabled", id)
}

// Undo takes back the last delivery; it reports false at the initial state.
func (s *Session) Undo() bool {
	if len(s.steps) == 0 {
		return false
	}
	s.states = s.states[:len(s.states)-1]
	s.steps = s.steps[:len(s.steps)-1]
	s.failure = ""
	return true
}

// Steps are the deliveries made so far.
func (s *Session) Steps() []Delivery { return s.steps }

// Events are the history so far.
func (s *Session) Events() []histories.Event { return s.log[:s.cur().events] }

// Actors are the actors' current states. They are the session's snapshots: read them,
// never change them.
func (s *Session) Actors() []model.Actor { return s.cur().actors }

// Pending are the messages, requests and armed timers pending now, not yet delivered, in
// the order they were sent (Execution.Pending).
func (s *Session) Pending() []Delivery { return pendingOf(s.cur()) }

// Fingerprint is the current state's fingerprint, as Execution.Fingerprint.
func (s *Session) Fingerprint() uint64 { return s.cur().fingerprint() }

// Failure is the failure of the last delivery, or "".
func (s *Session) Failure() string { return s.failure }

// System is the system the session runs.
func (s *Session) System() *model.System { return &s.sys }
