package snapshot

import (
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/mitchellh/copystructure"

	"github.com/ravelmc/ravel/internal/panicsite"
	"github.com/ravelmc/ravel/model"
)

// Cloner is an actor that copies itself: Clone returns a value of the same dynamic type,
// equal to the receiver (reflect.DeepEqual), that shares no mutable memory with it —
// after the call, changing either must not change the other. It is the fast path of
// Mode.Clone; without it the actor is copied by copystructure, which needs every field
// of the state exported.
type Cloner interface {
	Clone() model.Actor
}

// ReflectiveCopies names, as %T prints them, sorted and each once, the types of actors
// that m.Clone copies by copystructure: those without a Clone method, or all when
// m.Reflective. That copy is most of a step's cost (about ten times a Clone method's on
// the register: README), so the command line and raveltest name them.
func (m Mode) ReflectiveCopies(actors []model.Actor) []string {
	var names []string
	for _, a := range actors {
		if _, ok := a.(Cloner); ok && !m.Reflective {
			continue
		}
		if n := fmt.Sprintf("%T", a); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// Clone returns a deep copy of a: a.Clone() when a is a Cloner (unless m.Reflective),
// else the copystructure copy of a. It returns a *CopyError when the fallback would not
// copy a faithfully (see Mode.CheckCopyable: the type is checked once, and values are
// walked only when their type can hide a problem), and an error when a's Clone method
// breaks the obvious parts of its contract (returns nil, another type, or the receiver
// itself).
func (m Mode) Clone(a model.Actor) (model.Actor, error) {
	if a == nil {
		return nil, errors.New("snapshot: Clone of a nil actor")
	}
	if c, ok := a.(Cloner); ok && !m.Reflective {
		return checkClone(a, c.Clone())
	}
	v, err := copyFallback(a, m.Reflective)
	if err != nil {
		return nil, err
	}
	return v.(model.Actor), nil // a copy has the original's type
}

// checkClone checks the cheap parts of the Cloner contract: no reflection beyond the
// dynamic types.
func checkClone(a any, b model.Actor) (model.Actor, error) {
	ta := reflect.TypeOf(a)
	if b == nil {
		return nil, fmt.Errorf("snapshot: (%s).Clone returned nil", ta)
	}
	if tb := reflect.TypeOf(b); tb != ta {
		return nil, fmt.Errorf("snapshot: (%s).Clone returned a %s; it must return its own type", ta, tb)
	}
	if ta.Kind() == reflect.Pointer && ta.Elem().Size() > 0 &&
		reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
		return nil, fmt.Errorf("snapshot: (%s).Clone returned the receiver itself; it must return a copy", ta)
	}
	return b, nil
}

// Copy returns a deep copy of v, which need not be an actor: v.Clone() when v is a
// Cloner (unless m.Reflective), else the copystructure copy of v, with the checks of
// Mode.Clone. A nil v copies to nil.
func (m Mode) Copy(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if c, ok := v.(Cloner); ok && !m.Reflective {
		return checkClone(v, c.Clone())
	}
	return copyFallback(v, m.Reflective)
}

// copyFallback checks v and copies it with copystructure.
func copyFallback(v any, reflective bool) (out any, err error) {
	if err := check(v, forCopy, reflective); err != nil {
		return nil, err
	}
	defer func() {
		// The checks keep copystructure away from what it panics on; should it still
		// panic, report it rather than take the explorer down.
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("snapshot: copystructure panicked copying %T: %v", v, r)
		}
	}()
	out, err = copystructure.Copy(v)
	if err != nil {
		return nil, fmt.Errorf("snapshot: copying %T: %w", v, err)
	}
	return out, nil
}

// CheckCopyable returns a *CopyError naming the first part of v that Mode.Clone and
// Mode.Copy would not copy faithfully, or nil. A Cloner is trusted (unless m.Reflective)
// once one call of its Clone keeps the contract Mode.Clone checks (not nil, v's own type,
// not v itself; a Clone that panics is reported too), so that a Clone never written
// right is told before a search and not as a failure of its first step. Otherwise v is
// checked for what copystructure gets wrong:
//
//   - unexported fields (of non-zero size), which it leaves zero;
//   - funcs and channels, which it shares, and unsafe.Pointers, which it panics on;
//   - fields tagged copy:"shallow" (shared) or copy:"ignore" (lost);
//   - map keys holding pointers, which it replaces by pointers to copies;
//   - in the value itself: the dynamic values of interfaces (checked like the rest);
//     an interface holding a nil pointer, which it turns into a nil interface; a
//     pointer to a nil pointer, on which it panics; cycles, on which it recurses
//     forever; two references to one pointer or map, which it copies twice; and two
//     slices sharing a backing array (a log and a view of it), which it copies apart
//     (pointers into the middle of other values are not detected).
//
// Types registered in copystructure.Copiers (time.Time) are accepted as they are.
// The explorer calls it on every actor of a system before exploring; Mode.Clone repeats
// the checks on every fallback copy, since interfaces may come to hold other values.
func (m Mode) CheckCopyable(v any) error {
	if v == nil {
		return errors.New("snapshot: nil value")
	}
	if c, ok := v.(Cloner); ok && !m.Reflective {
		return tryClone(v, c)
	}
	return check(v, forCopy, m.Reflective)
}

// tryClone calls c.Clone once and checks what it returns.
func tryClone(v any, c Cloner) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("snapshot: (%T).Clone panicked: %v (at %s)", v, r, panicsite.Where())
		}
	}()
	_, err = checkClone(v, c.Clone())
	return err
}

// CheckHashable returns a *CopyError naming the first func, chan or unsafe.Pointer in v's
// type or inside its interfaces, on which Mode.Hash would panic if it were not nil; or
// nil. Parts with a HashState method are trusted (unless m.Reflective).
func (m Mode) CheckHashable(v any) error {
	if v == nil {
		return nil
	}
	return check(v, forHash, m.Reflective)
}
