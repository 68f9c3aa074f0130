package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
)

// counterReads counts the reads of every counter in the test binary: state outside the
// actors, which a replay from the initial state does not restore.
var counterReads int

// counter answers each read with counterReads: its handler is not deterministic.
type counter struct{}

func (*counter) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.RegisterInput])
	counterReads++
	ctx.Respond(m.ID, specs.ReadOK(counterReads))
}

// TestNotDeterministicIsWarned: a violation whose schedule, replayed from the initial
// state, does not reach the same state fails the test with check's warning that a
// handler is not deterministic; a deterministic violation has no such warning.
func TestNotDeterministicIsWarned(t *testing.T) {
	for _, tc := range []struct {
		name string
		sys  model.System
		warn bool
	}{
		{"a handler reading a package variable", model.System{Name: "counter", Actors: []model.Actor{&counter{}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()), model.Calls(0, specs.Read()))}, true},
		{"a deterministic bug", cellSystem(true), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			raveltest.Check(r, tc.sys, raveltest.Dir(t.TempDir()))
			if len(r.errors) != 1 {
				t.Fatalf("errors %q, want one", r.errors)
			}
			if got := strings.Contains(r.errors[0], report.NotReplayedWarning); got != tc.warn {
				t.Errorf("the failure has the warning: %v, want %v:\n%s", got, tc.warn, r.errors[0])
			}
		})
	}
}
