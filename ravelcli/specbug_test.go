package ravelcli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/ravelcli"
	"github.com/ravelmc/ravel/specs"
)

// stackState is a stack kept behind a pointer, which pushStack's Apply changes in place:
// a specification bug (Apply must return a new state).
type stackState struct{ items []int }

// inPlaceStackSpec is the buggy specification: push appends to the state it is given.
func inPlaceStackSpec() specs.Spec[*stackState, QueueOp, QueueOut] {
	return specs.Spec[*stackState, QueueOp, QueueOut]{
		Name: "stack",
		Init: func() *stackState { return &stackState{} },
		Apply: func(s *stackState, in QueueOp) (*stackState, QueueOut) {
			if in.Op == "enq" {
				s.items = append(s.items, in.Value)
				return s, QueueOut{}
			}
			if len(s.items) == 0 {
				return s, QueueOut{Empty: true}
			}
			v := s.items[len(s.items)-1]
			s.items = s.items[:len(s.items)-1]
			return s, QueueOut{Value: v}
		},
	}
}

// A specification whose Apply changes its state is an error of the file, told as a
// specification that panics is (exit 2), not an unknown verdict.
func TestLincheckSpecThatMutatesIsAnError(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "push.jsonl")
	hist := `{"client":0,"input":{"op":"enq","value":1},"call":1,"return":4}
{"client":1,"input":{"op":"enq","value":2},"call":2,"return":5}
{"client":2,"input":{"op":"deq"},"output":{"value":1},"call":6,"return":7}
`
	if err := os.WriteFile(file, []byte(hist), 0o644); err != nil {
		t.Fatal(err)
	}
	stack := ravelcli.Spec(inPlaceStackSpec(), formats.JSONCodec[QueueOp, QueueOut]("stack"))
	var stdout, stderr bytes.Buffer
	code := ravelcli.Run([]string{"lincheck", "--spec", "stack", file}, &stdout, &stderr, stack)
	if code != 2 {
		t.Errorf("exit %d, want 2; stdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if want := `push.jsonl  error: specification "stack": Apply(`; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
	}
}
