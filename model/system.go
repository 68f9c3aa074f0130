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
	// Racy, when set, declares which messages are racy (docs/samplers.md): taPCT and
	// d-POS, run with --racy declared, give change-point labels only to deliveries of
	// messages for which it returns true, instead of the racy set calibration measures.
	Racy func(msg any) bool
	// Faults are the failures the explorer may inject, with their budgets per schedule;
	// the zero value injects none.
	Faults Faults
}

// Validate reports, in one line, what makes the system unusable: no actors, a nil actor
// (or a nil pointer of an actor type), an actor given as a value whose Start, Restart,
// Clone or HashState method is on its pointer type (Ravel would never call it), Names
// not one per actor, no harness or one without clients, a client aimed at no actor, a
// specification without its required functions, a negative retry limit or fault
// budget, a partition side naming an unknown actor, an unknown Network.
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
		if m := pointerOnly(reflect.TypeOf(a)); m != "" {
			return fmt.Errorf("model: system %q: actor %d is a %T value, but its %s method is on *%T, so Ravel would never call it: pass &%T{…} (an actor that keeps state must be a pointer)", s.Name, i, a, m, a, a)
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

// ravelMethods are the methods Ravel looks for on an actor besides Receive.
var ravelMethods = []struct {
	name string
	as   reflect.Type
}{
	{"Start", reflect.TypeFor[Starter]()},
	{"Restart", reflect.TypeFor[Restarter]()},
	{"Clone", reflect.TypeFor[interface{ Clone() Actor }]()},
	{"HashState", reflect.TypeFor[StateHasher]()},
}

// pointerOnly names a method of ravelMethods that t, an actor's type that is not a
// pointer, lacks but *t has: the actor was meant to be a pointer, and given as a value
// it loses that method, and every change its handlers make (they change a copy). A value
// actor without such a method is valid: one with no state, or only configuration.
func pointerOnly(t reflect.Type) string {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return ""
	}
	pt := reflect.PointerTo(t)
	for _, m := range ravelMethods {
		if !t.Implements(m.as) && pt.Implements(m.as) {
			return m.name
		}
	}
	return ""
}
