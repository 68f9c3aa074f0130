package wgl

import (
	"fmt"
	"runtime/debug"

	"github.com/ravelmc/ravel/internal/panicsite"
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
	// At is where: the file, line and function that panicked ("" when not found).
	At string
	// Stack is the goroutine's stack when it panicked.
	Stack string
}

// Error says which specification panicked, with what, and where: "specification
// \"register\" panicked: boom (at spec.go:12 in main.apply)".
func (e *SpecPanicError) Error() string {
	msg := fmt.Sprintf("specification %q panicked: %v", e.Spec, e.Value)
	if e.At != "" {
		msg += " (at " + e.At + ")"
	}
	return msg
}

// specPanic makes the error of a panic recovered with value v. It must be called from
// the deferred function that recovered, while the panicking frames are still on the
// stack, so that it can say where the specification panicked.
func specPanic(name string, v any) *SpecPanicError {
	return &SpecPanicError{Spec: name, Value: v, At: panicsite.Where(), Stack: string(debug.Stack())}
}
