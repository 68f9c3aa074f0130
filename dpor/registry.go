package dpor

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// DependenceInfo describes a registered dependence relation for listings.
type DependenceInfo struct {
	// Name is the relation's name on the command line (--dependence NAME).
	Name string
	// Doc says what the relation calls dependent, in one line.
	Doc string
	// Builtin marks the relations Ravel ships.
	Builtin bool
	make    func() Dependence
}

// registry holds the relations by name: the built-in ones first, then the user's in the
// order registered. Registration happens at start-up (a user's main or init) while
// strategies may be built concurrently by tests, hence the lock.
var registry = struct {
	sync.RWMutex
	list []DependenceInfo
}{list: []DependenceInfo{
	{Name: "actor", Doc: "DS2's: the same receiver", Builtin: true, make: Actor},
	{Name: "history", Doc: "the same receiver, a response against an invocation, or two answers to one request (keeps every canonical history)", Builtin: true, make: History},
	{Name: "key", Doc: "LiViola's: the same receiver and the same key; excluded message types are independent of everything", Builtin: true, make: Key},
}}

// RegisterDependence makes the relation that newDep builds available by name wherever a
// relation is named — dpor.New's Config.Dependence, and so --dependence on the command
// line — beside the built-in actor, history and key. doc says in one line what the
// relation calls dependent; it is shown in listings.
//
// The name must be non-empty, free of commas and spaces (the command line lists relations
// separated by commas), not taken already, and the relation newDep returns must report it
// as its Name, so that reports name the relation the user asked for. Registering the same
// relation again — the same name, doc and Go type — does nothing, so that a command line
// that registers its relations can run twice in one process (tests). newDep is called
// once per strategy built, so a relation may keep state of its own. It is an error, not a
// panic, to break any of these rules: the caller decides whether a clash is fatal.
func RegisterDependence(name, doc string, newDep func() Dependence) error {
	switch {
	case name == "":
		return fmt.Errorf("register dependence: empty name")
	case strings.ContainsAny(name, ", \t\n"):
		return fmt.Errorf("register dependence %q: the name may not contain commas or spaces", name)
	case newDep == nil:
		return fmt.Errorf("register dependence %q: no constructor", name)
	}
	d := newDep()
	if d == nil {
		return fmt.Errorf("register dependence %q: the constructor returned nil", name)
	}
	if d.Name() != name {
		return fmt.Errorf("register dependence %q: the relation calls itself %q", name, d.Name())
	}
	registry.Lock()
	defer registry.Unlock()
	for _, r := range registry.list {
		if r.Name != name {
			continue
		}
		if !r.Builtin && r.Doc == doc && reflect.TypeOf(r.make()) == reflect.TypeOf(d) {
			return nil // the same relation again: a command line run twice in one process
		}
		return fmt.Errorf("register dependence %q: the name is taken", name)
	}
	registry.list = append(registry.list, DependenceInfo{Name: name, Doc: doc, make: newDep})
	return nil
}

// DependenceInfos lists the registered relations: the built-in ones, then the user's in
// the order registered.
func DependenceInfos() []DependenceInfo {
	registry.RLock()
	defer registry.RUnlock()
	return append([]DependenceInfo(nil), registry.list...)
}

// Dependences lists the registered relations' names, in the order of DependenceInfos.
func Dependences() []string {
	infos := DependenceInfos()
	out := make([]string, len(infos))
	for i, r := range infos {
		out[i] = r.Name
	}
	return out
}

// DependenceByName returns a new instance of the named relation; the error lists the
// registered names.
func DependenceByName(name string) (Dependence, error) {
	for _, r := range DependenceInfos() {
		if r.Name == name {
			return r.make(), nil
		}
	}
	return nil, fmt.Errorf("unknown dependence %q (valid: %s)", name, strings.Join(Dependences(), ", "))
}
