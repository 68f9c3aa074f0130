package panicsite

import (
	"runtime/debug"
	"strings"
	"testing"
)

func explode(kind string) {
	switch kind {
	case "call":
		panic("boom") // explode's line
	case "runtime":
		var m map[string]int
		m["x"] = 1 // explode's line
	}
}

// Where and InStack name the function that panicked and its line, whether it called
// panic or the runtime panicked for it; outside a panic they are empty.
func TestWhere(t *testing.T) {
	for _, kind := range []string{"call", "runtime"} {
		t.Run(kind, func(t *testing.T) {
			var got, stack string
			func() {
				defer func() {
					if recover() != nil {
						got, stack = Where(), string(debug.Stack())
					}
				}()
				explode(kind)
			}()
			if !strings.HasPrefix(got, "panicsite_test.go:") || !strings.HasSuffix(got, " in panicsite.explode") {
				t.Errorf("Where() = %q, want panicsite_test.go:LINE in panicsite.explode", got)
			}
			if in := InStack(stack); in != got {
				t.Errorf("InStack(debug.Stack()) = %q, want Where's %q", in, got)
			}
		})
	}
	if got := Where(); got != "" {
		t.Errorf("Where() outside a panic = %q, want \"\"", got)
	}
	if got := InStack(string(debug.Stack())); got != "" {
		t.Errorf("InStack of a stack without a panic = %q, want \"\"", got)
	}
}

// TestTrim: of a handler's panic, Trim keeps the call to panic and the frames down to
// Ravel's engine, and counts the others; a stack without both is left as it is.
func TestTrim(t *testing.T) {
	const stack = `goroutine 1 [running]:
runtime/debug.Stack()
	/usr/local/go/src/runtime/debug/stack.go:26 +0x5e
github.com/ravelmc/ravel/explorer.(*executor).run.func1()
	/work/main/explorer/state.go:377 +0x74
panic({0xc71620?, 0x1433d90?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
github.com/ravelmc/ravel/model.(*Ctx).Send(0x1, 0x9, {0x0, 0x0})
	/work/main/model/ctx.go:113 +0x1
example.com/myraft/tick.(*Store).Receive(0x10d5f3795080, 0x1?)
	/tmp/myraft/tick/tick.go:38 +0xa9
github.com/ravelmc/ravel/explorer.(*executor).deliver.func2()
	/work/main/explorer/state.go:527 +0x3e
github.com/ravelmc/ravel/explorer.(*executor).run(0x10d5f3842340?)
	/work/main/explorer/state.go:382 +0x96
main.main()
	/tmp/myraft/cmd/myraft/main.go:10 +0x25f
`
	const want = `goroutine 1 [running]:
panic({0xc71620?, 0x1433d90?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
github.com/ravelmc/ravel/model.(*Ctx).Send(0x1, 0x9, {0x0, 0x0})
	/work/main/model/ctx.go:113 +0x1
example.com/myraft/tick.(*Store).Receive(0x10d5f3795080, 0x1?)
	/tmp/myraft/tick/tick.go:38 +0xa9
(Ravel's own frames left out: 2 above the panic, 3 below the handler)
`
	if got := Trim(stack); got != want {
		t.Errorf("Trim:\n%s\nwant:\n%s", got, want)
	}
	if in := InStack(Trim(stack)); in != "tick.go:38 in tick.(*Store).Receive" {
		t.Errorf("InStack(Trim(stack)) = %q", in)
	}
	noEngine := string(debug.Stack())
	if got := Trim(noEngine); got != noEngine {
		t.Errorf("a stack without a panic or an engine frame changed:\n%s", got)
	}
}
