package wgl

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
)

// SpecPanicError is Result.Err when the specification's Init, Apply or Partition
// panicked during the check. It is a bug in the specification, not a finding about the
// history, so the Verdict is Unknown: no verdict can be drawn from a specification that
// does not return.
type SpecPanicError struct {
	// Spec is the specification's Name.
	Spec string
	// Value is what the specification panicked with.
	Value any
	// At is where: the file's base name, line and function that panicked, as
	// "spec.go:12 in main.apply" ("" when not found). The function is named as the
	// runtime names it: a closure made in a function that the compiler inlined into
	// another is named after that other (main.main.Queue.func3 for a closure of
	// package myspecs's Queue inlined into main), so File says where it is.
	At string
	// File is the full path of the file that panicked ("" when not found): where the
	// specification's source is, whatever the function's name says.
	File string
	// Stack is the goroutine's stack when it panicked.
	Stack string
}

// Error says which specification panicked, with what, and where: "specification
// \"register\" panicked: boom (at spec.go:12 in main.apply, file /src/app/spec.go)".
func (e *SpecPanicError) Error() string {
	msg := fmt.Sprintf("specification %q panicked: %v", e.Spec, e.Value)
	switch {
	case e.At != "" && e.File != "":
		msg += " (at " + e.At + ", file " + e.File + ")"
	case e.At != "":
		msg += " (at " + e.At + ")"
	}
	return msg
}

// specPanic makes the error of a panic recovered with value v. It must be called from
// the deferred function that recovered, while the panicking frames are still on the
// stack, so that it can say where the specification panicked.
//
// Two panics are not the specification's: a *SpecMutationError, raised by the check
// of Apply's purity, is returned as it is; and a panic of the checker's own hashing or
// comparing of a state whose dynamic type is not comparable (a slice in an interface)
// becomes an *UncomparableStateError.
func specPanic[S any](name string, v any) error {
	if m, ok := v.(*SpecMutationError); ok {
		return m
	}
	f, ok := panicFrame()
	if re, isRuntime := v.(runtime.Error); isRuntime && ok && checkerFrame(f) {
		msg := re.Error()
		for _, prefix := range []string{"runtime error: hash of unhashable type ", "runtime error: comparing uncomparable type "} {
			if typ, found := strings.CutPrefix(msg, prefix); found {
				return &UncomparableStateError{Spec: name, State: reflect.TypeFor[S]().String(), Type: typ}
			}
		}
	}
	e := &SpecPanicError{Spec: name, Value: v, Stack: string(debug.Stack())}
	if ok {
		fn := f.Function[strings.LastIndexByte(f.Function, '/')+1:]
		file := f.File[strings.LastIndexByte(f.File, '/')+1:]
		e.At, e.File = fmt.Sprintf("%s:%d in %s", file, f.Line, fn), f.File
	}
	return e
}

// panicFrame is the first frame below runtime.gopanic outside the runtime: the function
// that panicked or called panic. It must be called, through specPanic, from the
// deferred function that recovers.
func panicFrame() (runtime.Frame, bool) {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	seen := false
	for {
		f, more := frames.Next()
		if seen && !strings.HasPrefix(f.Function, "runtime.") {
			return f, true
		}
		if f.Function == "runtime.gopanic" {
			seen = true
		}
		if !more {
			return runtime.Frame{}, false
		}
	}
}

// checkerFrame reports whether f is a frame of the checker or of the hash package it
// hashes states with, rather than of the specification (whose functions may be
// package wgl's tests).
func checkerFrame(f runtime.Frame) bool {
	return strings.HasPrefix(f.Function, "hash/maphash.") ||
		strings.HasPrefix(f.Function, "github.com/ravelmc/ravel/wgl.") && !strings.HasSuffix(f.File, "_test.go")
}

// UncomparableStateError is Result.Err when the specification's state type S is an
// interface (or holds one) and a state it returned holds, in that interface, a value
// of a type that cannot be compared or hashed: a slice, a map or a function. S
// satisfies comparable at compile time, but the checker panics at run time when it
// hashes or compares such a state. It is a bug in the specification, so the Verdict is
// Unknown.
type UncomparableStateError struct {
	// Spec is the specification's Name.
	Spec string
	// State is the state type S, "interface {}".
	State string
	// Type is the dynamic type that cannot be compared, "[]int".
	Type string
}

// Error says which specification, which type, and what to do instead.
func (e *UncomparableStateError) Error() string {
	return fmt.Sprintf("specification %q: a state of type %s holds a value of dynamic type %s, which cannot be hashed or compared "+
		"(a slice, map or function inside an interface); the state must be comparable at run time: "+
		"use an array, a string encoding or a struct of comparable fields instead", e.Spec, e.State, e.Type)
}

// IsSpecBug reports whether err, a Result.Err or an error wrapping one, says the
// specification itself is at fault — it panicked (*SpecPanicError), its state cannot be
// hashed or compared (*UncomparableStateError), or its Apply changed the state it was
// given (*SpecMutationError) — rather than that the check was cut short (a limit, a
// cancelled context). Callers report such a check as an error, not as an unknown
// verdict on the history.
func IsSpecBug(err error) bool {
	var p *SpecPanicError
	var u *UncomparableStateError
	var m *SpecMutationError
	return errors.As(err, &p) || errors.As(err, &u) || errors.As(err, &m)
}
