package explorer_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// store is a register on one actor: correct, so that only the specification can fail.
type store struct{ Value int }

func (s *store) Receive(ctx *model.Ctx, env model.Envelope) {
	r := env.Msg.(regReq)
	if r.Input.Write {
		s.Value = r.Input.Value
		ctx.Respond(r.ID, specs.WriteOK())
		return
	}
	ctx.Respond(r.ID, specs.ReadOK(s.Value))
}

// A specification that panics is a bug in the user's specification: the run ends with
// an error that says so and shows the history it panicked on, under every kind of
// search, and no violation or verdict is made up from it.
func TestSpecificationPanicEndsTheRun(t *testing.T) {
	spec := specs.Register()
	apply := spec.Apply
	spec.Apply = func(s int, in specs.RegisterInput) (int, specs.RegisterOutput) {
		if in.Write && in.Value == 2 {
			var slots [2]int
			_ = slots[in.Value] // index out of range
		}
		return apply(s, in)
	}
	for _, tc := range []struct {
		name string
		opts explorer.Options
	}{
		{"exhaustive", explorer.Options{}},
		{"dpor with caching", explorer.Options{Strategy: dpor.Optimal(dpor.History()), StateCaching: true}},
		{"random walk", explorer.Options{Sampling: samplers.RandomWalk(), Seed: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := model.System{Name: "one-store", Actors: []model.Actor{&store{}}, Harness: model.Clients(spec,
				model.Calls(0, specs.Write(1), specs.Read()), model.Calls(0, specs.Write(2)))}
			tc.opts.MaxSchedules = 1000 // a sampler stops only at its budget
			res, err := explorer.Run(context.Background(), sys, tc.opts)
			var p *wgl.SpecPanicError
			if !errors.As(err, &p) {
				t.Fatalf("err = %v, want a *wgl.SpecPanicError", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "a bug in the specification") || !strings.Contains(msg, "Write(2)") || !strings.Contains(msg, "specpanic_test.go:") {
				t.Errorf("the error does not say it is the specification's, where, or on what history:\n%s", msg)
			}
			if res == nil {
				t.Fatal("no result beside the error")
			}
			if res.First != nil || res.Stats.NonlinearizableCan != 0 || res.Complete {
				t.Errorf("first %v, non-linearizable %d, complete %v: want no violation and an incomplete run", res.First, res.Stats.NonlinearizableCan, res.Complete)
			}
			unjudged := 0
			for _, c := range res.Canonical {
				if c.Err != nil {
					unjudged++
				}
			}
			if unjudged == 0 {
				t.Error("no canonical history carries the error")
			}
		})
	}
}
