package wgl

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"reflect"

	"github.com/ravelmc/ravel/specs"
)

// SpecMutationError is Result.Err when the specification's Apply changed the state it
// was given, which its contract forbids (specs.Spec.Apply): a state reached through a
// pointer, a map or a slice that Apply modifies in place is shared with every other
// configuration the checker keeps, so the verdict would be wrong. It is a bug in the
// specification, so the Verdict is Unknown.
//
// Only the first pureChecks calls to Apply of each search are watched, and only for a
// state type that holds pointers, interfaces or other references (a value without any
// cannot be changed through the copy Apply is given): the check catches a
// specification that mutates its state on its first operations, not every one.
type SpecMutationError struct {
	// Spec is the specification's Name.
	Spec string
	// Input is the operation's input, rendered by the specification.
	Input string
	// State is the state type S, "*main.Queue".
	State string
}

// Error says which specification changed its state, in which operation, and what to do.
func (e *SpecMutationError) Error() string {
	return fmt.Sprintf("specification %q: Apply(%s) changed the state of type %s it was given; Apply must leave its "+
		"argument as it is and return a new state (copy what it changes, or use a state without pointers)",
		e.Spec, e.Input, e.State)
}

// pureChecks is how many calls to Apply of each search are checked for changing their
// state argument.
const pureChecks = 64

// watchApply returns spec.Apply, or, when S can reach memory that Apply could change
// in place, a function that calls it and checks, for its first pureChecks calls, that
// the state given is the same before and after (by a hash of everything reachable
// from it), panicking with a *SpecMutationError when not. After those calls it sets
// *apply to spec.Apply, so the check costs nothing afterwards.
func watchApply[S, I, O comparable](spec specs.Spec[S, I, O], apply *func(S, I) (S, O)) {
	*apply = spec.Apply
	t := reflect.TypeFor[S]()
	if t.Kind() == reflect.Interface {
		// An interface state (an erased specification's, which the explorer checks
		// every history with) is judged by what it holds: a value that reaches
		// nothing, the usual case, cannot be changed through its copy.
		if v := reflect.ValueOf(spec.Init()); v.IsValid() {
			t = v.Type()
		}
	}
	if !reaches(t) {
		return
	}
	left := pureChecks
	seed := maphash.MakeSeed()
	*apply = func(s S, in I) (S, O) {
		left--
		if left <= 0 {
			*apply = spec.Apply
		}
		before := contentHash(seed, &s)
		next, out := spec.Apply(s, in)
		if contentHash(seed, &s) != before {
			panic(&SpecMutationError{Spec: spec.Name, Input: spec.Input(in), State: reflect.TypeFor[S]().String()})
		}
		return next, out
	}
}

// reaches reports whether a value of type t can refer to memory outside itself, which
// a function given a copy of it could change: a pointer, an interface, a slice, a map,
// a channel. Strings are immutable, functions are not looked into.
func reaches(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map, reflect.Chan, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return t.Len() > 0 && reaches(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if reaches(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// contentHash hashes everything reachable from *p.
func contentHash[S any](seed maphash.Seed, p *S) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	w := walker{h: &h, seed: seed, seen: map[visit]bool{}}
	w.value(reflect.ValueOf(p).Elem())
	return h.Sum64()
}

// visit is a pointer already hashed, with its type: cycles and shared memory are
// hashed once.
type visit struct {
	p uintptr
	t reflect.Type
}

type walker struct {
	h    *maphash.Hash
	seed maphash.Seed
	seen map[visit]bool
	buf  [8]byte
}

func (w *walker) word(x uint64) {
	binary.LittleEndian.PutUint64(w.buf[:], x)
	w.h.Write(w.buf[:])
}

// value hashes v and what it reaches. Unexported fields are read through reflect's
// accessors, which allow it.
func (w *walker) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			w.word(1)
		} else {
			w.word(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.word(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w.word(v.Uint())
	case reflect.Float32, reflect.Float64:
		w.word(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		w.word(math.Float64bits(real(c)))
		w.word(math.Float64bits(imag(c)))
	case reflect.String:
		w.word(uint64(v.Len()))
		w.h.WriteString(v.String())
	case reflect.Array:
		for i := range v.Len() {
			w.value(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			w.value(v.Field(i))
		}
	case reflect.Interface:
		if v.IsNil() {
			w.word(0)
			return
		}
		e := v.Elem()
		w.h.WriteString(e.Type().String())
		w.value(e)
	case reflect.Pointer:
		w.word(uint64(v.Pointer()))
		if v.IsNil() || w.once(v) {
			return
		}
		w.value(v.Elem())
	case reflect.Slice:
		w.word(uint64(v.Pointer()))
		w.word(uint64(v.Len()))
		if v.IsNil() || w.once(v) {
			return
		}
		for i := range v.Len() {
			w.value(v.Index(i))
		}
	case reflect.Map:
		w.word(uint64(v.Pointer()))
		w.word(uint64(v.Len()))
		if v.IsNil() || w.once(v) {
			return
		}
		// The entries in any order: the sum of their hashes.
		var sum uint64
		for it := v.MapRange(); it.Next(); {
			var eh maphash.Hash
			eh.SetSeed(w.seed)
			ew := walker{h: &eh, seed: w.seed, seen: w.seen}
			ew.value(it.Key())
			ew.value(it.Value())
			sum += eh.Sum64()
		}
		w.word(sum)
	default: // channels, functions, unsafe pointers: their identity
		w.word(uint64(v.Pointer()))
	}
}

// once reports whether the memory v refers to was hashed already, and marks it.
func (w *walker) once(v reflect.Value) bool {
	k := visit{v.Pointer(), v.Type()}
	if w.seen[k] {
		return true
	}
	w.seen[k] = true
	return false
}
