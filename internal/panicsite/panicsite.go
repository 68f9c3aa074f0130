// Package panicsite says where a recovered panic happened, for the messages that report
// a panic in a user's code (a specification, a system's Build) as the user's bug.
package panicsite

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// Where is the first frame below runtime.gopanic outside the runtime and package model —
// the function that panicked, called panic, or misused model — as "file.go:LINE in
// pkg.Func", or "" when there is none. It must be called from the deferred function that
// recovers (directly or not), while the panicking frames are still on the stack.
func Where() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	seen := false
	for {
		f, more := frames.Next()
		if seen && !skipped(f.Function) {
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

// InStack is Where for a stack already taken (runtime/debug.Stack in the deferred
// function that recovered): the first frame below the call to panic outside the runtime
// and package model, as "file.go:LINE in pkg.Func", or "" when the stack holds no panic.
func InStack(stack string) string {
	seen := false
	for _, f := range Frames(stack) {
		if seen && !skipped(f.Func) {
			return f.At + " in " + f.Short()
		}
		if f.Func == "panic" {
			seen = true
		}
	}
	return ""
}

// Frame is one frame of a goroutine's stack as runtime.Stack and debug.Stack print it.
type Frame struct {
	Func string // the function's full name, "example.com/kv.(*Store).Receive"
	Call string // its line as printed, arguments included
	At   string // "file.go:LINE"
}

// Short is the function's name without its package path: "kv.(*Store).Receive".
func (f Frame) Short() string { return f.Func[strings.LastIndexByte(f.Func, '/')+1:] }

// Frames reads the frames of one goroutine's stack text (its header line first), up to
// the "created by" line.
func Frames(goroutine string) []Frame {
	lines := strings.Split(goroutine, "\n")
	var out []Frame
	for i := 1; i+1 < len(lines); i += 2 {
		call := lines[i]
		if call == "" || strings.HasPrefix(call, "created by ") {
			break
		}
		fn := call
		if k := strings.LastIndexByte(call, '('); k > 0 {
			fn = call[:k]
		}
		at := strings.TrimSpace(lines[i+1])
		if k := strings.LastIndexByte(at, ' '); k > 0 {
			at = at[:k] // the +0x offset
		}
		out = append(out, Frame{Func: fn, Call: call, At: filepath.Base(at)})
	}
	return out
}

// skipped reports whether a frame of the function named fn is passed over: the runtime's,
// and those of package model, whose functions panic when a handler misuses them (a send
// to an actor that does not exist), so that the frame named is the handler's.
func skipped(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "github.com/ravelmc/ravel/model.")
}

// ravelEngine is the prefix of the functions of Ravel's engine, which call a user's
// handlers: below a handler that panicked, every frame is Ravel's or its caller's.
const ravelEngine = "github.com/ravelmc/ravel/explorer."

// Trim keeps, of a panicking handler's stack taken in the deferred function that
// recovered (runtime/debug.Stack), its header, the call to panic and the frames below
// it down to the first of Ravel's engine (package explorer): the runtime's and package
// model's frames that panicked, and the user's that called them. A last line says how
// many of Ravel's own frames were left out, above the panic (debug.Stack, the recovering
// function) and below the handler (the engine, the command, main). A stack without a
// call to panic, or in which no engine frame calls the handler, is returned as it is.
func Trim(stack string) string {
	lines := strings.Split(strings.TrimRight(stack, "\n"), "\n")
	if len(lines) < 3 {
		return stack
	}
	// lines[0] is the goroutine's header; then a call's line and its file's line, in
	// pairs, up to a "created by" line.
	start, end := -1, -1
	for i := 1; i+1 < len(lines); i += 2 {
		call := lines[i]
		if strings.HasPrefix(call, "created by ") {
			break
		}
		switch {
		case start < 0 && strings.HasPrefix(call, "panic("):
			start = i
		case start >= 0 && strings.HasPrefix(call, ravelEngine):
			end = i
		}
		if end >= 0 {
			break
		}
	}
	if start < 0 || end < 0 {
		return stack
	}
	above, below := (start-1)/2, 0
	for i := end; i+1 < len(lines) && !strings.HasPrefix(lines[i], "created by "); i += 2 {
		below++
	}
	kept := append([]string{lines[0]}, lines[start:end]...)
	return strings.Join(kept, "\n") + fmt.Sprintf("\n(Ravel's own frames left out: %d above the panic, %d below the handler)\n", above, below)
}
