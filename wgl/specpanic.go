package wgl

import (
	"fmt"
	"path/filepath"
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
	// At is where: the file, line and function that panicked ("" when not found).
	At string
	// Stack is the goroutine's stack when it panicked.
	Stack string
}

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
	return &SpecPanicError{Spec: name, Value: v, At: panicSite(), Stack: string(debug.Stack())}
}

// panicSite is the first frame below runtime.gopanic outside the runtime: the function
// that panicked, or called panic.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	seen := false
	for {
		f, more := frames.Next()
		if seen && !strings.HasPrefix(f.Function, "runtime.") {
			fn := f.Function[strings.LastIndexByte(f.Function, '/')+1:]
			return fmt.Sprintf("%s:%d in %s", filepath.Base(f.File), f.Line, fn)
		}
		if f.Function == "runtime.gopanic" {
			seen = true
		}
		if !more {
			return ""
		}
	}
}
