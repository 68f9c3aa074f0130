package snapshot

import (
	"reflect"
	"unsafe"

	"github.com/ravelmc/ravel/model"
)

// This file holds the little unsafe code the hash walker needs to read values without
// reflect.Value on the hot path: the two words of an interface value, and how a type is
// stored in them. Everything here relies only on the layout of an empty interface (a
// type word and a data word), which Go has kept since 1.0.

// eface is the layout of a value of type any.
type eface struct {
	typ  unsafe.Pointer // the dynamic type
	data unsafe.Pointer // the value itself for pointer-shaped types, else a pointer to it
}

// words returns the two words of *v.
func words(v *any) *eface { return (*eface)(unsafe.Pointer(v)) }

// makeAny builds an interface value from a type word and a data word. The data must be
// what an interface of that type holds: the value for pointer-shaped types, else a
// pointer to a value that is not modified while the result is in use.
func makeAny(typ, data unsafe.Pointer) any {
	var v any
	e := words(&v)
	e.typ, e.data = typ, data
	return v
}

// typeWord returns the type word interface values of type t carry.
func typeWord(t reflect.Type) unsafe.Pointer {
	z := reflect.Zero(t).Interface()
	return words(&z).typ
}

// probeTarget is a global whose address the direct-interface probe plants in a value; it
// is never read or written through that value.
var probeTarget uint64

// isDirect reports whether an interface holding a value of type t stores the value
// itself in its data word (pointers, maps, chans, funcs, and structs or arrays wrapping
// exactly one of those), rather than a pointer to a copy. The compiler's rule has changed
// between releases, so it is observed rather than restated: plant a known address in a
// value of type t, box the value, and see where the address ends up.
func isDirect(t reflect.Type) bool {
	if t.Size() != unsafe.Sizeof(uintptr(0)) {
		return false
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer,
		reflect.Struct, reflect.Array:
	default:
		return false // scalars of word size are never stored directly
	}
	v := reflect.New(t)
	// probeTarget is not on the heap, so the garbage collector has nothing to track
	// whichever way the slot is typed.
	*(*uintptr)(v.UnsafePointer()) = uintptr(unsafe.Pointer(&probeTarget))
	boxed := v.Elem().Interface()
	return words(&boxed).data == unsafe.Pointer(&probeTarget)
}

// typeID is the identity of t written into fingerprints where types can differ: at the
// top and inside interfaces. It is derived from names, not addresses, so it is the same
// in every run of the program. Named types are identified by package path, qualified
// name, kind and size (and field names, for structs); unnamed types by their structure.
// Two types declared with the same name, size and field names in different functions of
// one package get the same identity.
func typeID(t reflect.Type) uint64 {
	var h model.Hasher
	writeType(&h, t)
	id := h.Sum64()
	if id == 0 || id == nilTag {
		id++ // keep the tags of nil values distinct from every type
	}
	return id
}

// writeType writes t's identity. It recurses only through unnamed types, which cannot
// refer to themselves, so it terminates.
func writeType(h *model.Hasher, t reflect.Type) {
	h.Uint64(uint64(t.Kind()))
	if t.Name() != "" {
		h.String(t.PkgPath())
		h.String(t.String()) // includes the type arguments of generic types, with paths
		h.Uint64(uint64(t.Size()))
		if t.Kind() == reflect.Struct {
			for i := range t.NumField() {
				h.String(t.Field(i).Name)
			}
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice:
		writeType(h, t.Elem())
	case reflect.Array:
		h.Int(t.Len())
		writeType(h, t.Elem())
	case reflect.Map:
		writeType(h, t.Key())
		writeType(h, t.Elem())
	case reflect.Chan:
		h.Int(int(t.ChanDir()))
		writeType(h, t.Elem())
	case reflect.Func:
		h.Int(t.NumIn())
		for i := range t.NumIn() {
			writeType(h, t.In(i))
		}
		h.Int(t.NumOut())
		for i := range t.NumOut() {
			writeType(h, t.Out(i))
		}
		h.Bool(t.IsVariadic())
	case reflect.Struct:
		h.Int(t.NumField())
		for i := range t.NumField() {
			f := t.Field(i)
			h.String(f.Name)
			h.String(f.PkgPath)
			h.Bool(f.Anonymous)
			h.String(string(f.Tag))
			writeType(h, f.Type)
		}
	default: // unnamed interfaces; predeclared types are named
		h.String(t.String())
	}
}
