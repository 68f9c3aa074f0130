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
