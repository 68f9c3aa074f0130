package ravelcli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// TestPanicStackIsTheHandlers: the stack check prints under a handler's panic is the
// handler's frames from the call to panic, with a line saying Ravel's own were left out
// (probe T5: ~20 frames of the engine and the command around one of the user's).
func TestPanicStackIsTheHandlers(t *testing.T) {
	handler := System{Name: "panicky-handler", Harnesses: []string{"read"}, Agents: 1, Build: func(Config) (model.System, error) {
		return model.System{Name: "panicky-handler", Actors: []model.Actor{&emptyLog{}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}, nil
	}}
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"check", "--quiet", "panicky-handler"}, &stdout, &stderr, Systems(handler)); code != exitViolation {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitViolation, stdout.String(), stderr.String())
	}
	out := stdout.String()
	_, stack, _ := strings.Cut(out, "stack of the panic:\n")
	for _, want := range []string{"panic(", "ravelcli.(*emptyLog).Receive(", "specpanic_test.go:", "(Ravel's own frames left out: "} {
		if !strings.Contains(stack, want) {
			t.Errorf("the stack lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"runtime/debug.Stack", "explorer.(*engine)", "explorer.Run(", "ravelcli.Run("} {
		if strings.Contains(stack, not) {
			t.Errorf("the stack shows %q:\n%s", not, stack)
		}
	}
}
