package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/specs"
)

// brittle panics on a read that comes before any write.
type brittle struct{ Values []int }

func (b *brittle) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.RegisterInput])
	if m.Input.Write {
		b.Values = append(b.Values, m.Input.Value)
		ctx.Respond(m.ID, specs.WriteOK())
		return
	}
	ctx.Respond(m.ID, specs.ReadOK(b.Values[len(b.Values)-1])) // brittle's panic
}

// A failing test's first line says where a handler panicked, and for a sampler's run the
// sampler, seed and run that repeat it.
func TestFailureSaysWhereAndHowToRepeat(t *testing.T) {
	sys := model.System{Name: "brittle", Actors: []model.Actor{&brittle{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(0, specs.Read()))}
	for _, tc := range []struct {
		name string
		opts explorer.Options
		want []string
	}{
		{"exhaustive", explorer.Options{}, []string{"panic: runtime error: index out of range [-1] (at failuretext_test.go:", " in raveltest_test.(*brittle).Receive)"}},
		{"pct", explorer.Options{Sampling: samplers.PCTCP(samplers.Options{}), Seed: 5, MaxSchedules: 100},
			[]string{" in raveltest_test.(*brittle).Receive) (schedule ", " explored, pctcp seed 5 run "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			raveltest.Check(rec, sys, raveltest.Dir(t.TempDir()), raveltest.Options(tc.opts))
			if len(rec.errors) != 1 {
				t.Fatalf("%d failures, want 1: %q", len(rec.errors), rec.errors)
			}
			first, _, _ := strings.Cut(rec.errors[0], "\n")
			for _, w := range tc.want {
				if !strings.Contains(first, w) {
					t.Errorf("the first line lacks %q:\n%s", w, first)
				}
			}
		})
	}
}
