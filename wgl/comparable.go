package wgl

import (
	"fmt"
	"reflect"

	"github.com/ravelmc/ravel/histories"
)

// comparableValues checks, when I or O can hold interfaces, that no input or output
// holds a value of a type that cannot be compared (a slice in an interface), which
// would make the checker panic when it compares or hashes it.
func comparableValues[I, O comparable](ops []histories.Operation[I, O]) error {
	ti, to := reflect.TypeFor[I](), reflect.TypeFor[O]()
	checkIn, checkOut := holdsInterface(ti), holdsInterface(to)
	if !checkIn && !checkOut {
		return nil
	}
	// The dynamic types known to be comparable with nothing inside that could hold an
	// uncomparable value: most histories have one input and one output type, looked at
	// once.
	var fineIn, fineOut reflect.Type
	fine := func(v any, known *reflect.Type) bool {
		t := reflect.TypeOf(v)
		if t == nil || t == *known {
			return t != nil
		}
		if t.Comparable() && !holdsInterface(t) {
			*known = t
			return true
		}
		return false
	}
	for i := range ops {
		op := &ops[i]
		if checkIn && !fine(any(op.Input), &fineIn) {
			if t := uncomparable(reflect.ValueOf(&op.Input).Elem()); t != nil {
				return fmt.Errorf("wgl: operation %d's input (type %v) holds a value of dynamic type %v, which cannot be compared "+
					"(a slice, map or function inside an interface)", i, ti, t)
			}
		}
		if checkOut && !op.Open && !fine(any(op.Output), &fineOut) {
			if t := uncomparable(reflect.ValueOf(&op.Output).Elem()); t != nil {
				return fmt.Errorf("wgl: operation %d's output (type %v) holds a value of dynamic type %v, which cannot be compared "+
					"(a slice, map or function inside an interface)", i, to, t)
			}
		}
	}
	return nil
}

// holdsInterface reports whether a value of type t can hold an interface value.
func holdsInterface(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return holdsInterface(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsInterface(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// uncomparable returns the dynamic type inside v that cannot be compared, or nil.
func uncomparable(v reflect.Value) reflect.Type {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		e := v.Elem()
		if !e.Type().Comparable() {
			return e.Type()
		}
		if !holdsInterface(e.Type()) {
			return nil // comparable, and no interface inside to hold what is not
		}
		return uncomparable(e)
	case reflect.Array:
		for i := range v.Len() {
			if t := uncomparable(v.Index(i)); t != nil {
				return t
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if t := uncomparable(v.Field(i)); t != nil {
				return t
			}
		}
	}
	return nil
}
