package model

import (
	"fmt"
	"reflect"
)

// System is a distributed system under test: its actors in their initial states, the
// network between them, and the harness that drives and judges them.
//
// Ravel never mutates the values in Actors: exploration starts from copies.
type System struct {
	// Name identifies the system in reports.
	Name string
	// Actors are the system's actors in their initial states; actor i has ID i.
	Actors []Actor
	// Names, when set, names the actors in reports (one per actor); by default actor i is
	// "n<i>" and client c is "c<c>".
	Names []string
	// Network is the delivery discipline; the zero value is Unordered.
	Network Network
	// Harness is what the clients do and the specification they are judged by.
	Harness *Harness
	// Keys, when set, declares per message type where its key lies and which types are
	// excluded from interleaving; only key-aware strategies (LiViola) read it. A client's
	// request has the key the specification's Partition gives its input, if any.
	Keys *Keys
	// Racy, when set, declares which messages are racy (SAMPLERS.md §3.6): taPCT and
	// d-POS, run with --racy declared, give change-point labels only to deliveries of
	// messages for which it returns true, instead of the racy set calibration measures.
	Racy func(msg any) bool
	// Faults are the failures the explorer may inject, with their budgets per schedule;
	// the zero value injects none.
	Faults Faults
}

// Validate reports, in one line, what makes the system unusable: no actors, a nil actor
// (or a nil pointer of an actor type), a client aimed at no actor, a specification
// without its required functions.
func (s *System) Validate() error {
	if len(s.Actors) == 0 {
		return fmt.Errorf("model: system %q has no actors", s.Name)
	}
	for i, a := range s.Actors {
		if a == nil {
			return fmt.Errorf("model: system %q: actor %d is nil", s.Name, i)
		}
		if v := reflect.ValueOf(a); v.Kind() == reflect.Pointer && v.IsNil() {
			return fmt.Errorf("model: system %q: actor %d is a nil %T", s.Name, i, a)
		}
	}
	if s.Names != nil && len(s.Names) != len(s.Actors) {
		return fmt.Errorf("model: system %q has %d names for %d actors", s.Name, len(s.Names), len(s.Actors))
	}
	if s.Network > FIFO {
		return fmt.Errorf("model: system %q: unknown network kind %d", s.Name, s.Network)
	}
	if err := s.Faults.validate(len(s.Actors)); err != nil {
		return err
	}
	return s.Harness.validate(len(s.Actors))
}

// ActorName names an actor or a client for reports: "n0", "c2", or the system's Names.
func (s *System) ActorName(id ID) string {
	if s.Names != nil && id >= 0 && int(id) < len(s.Names) {
		return s.Names[id]
	}
	return id.String()
}
