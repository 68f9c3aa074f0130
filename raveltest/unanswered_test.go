package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/internal/buggysys"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/workloads"
)

// TestNoAnswerFails: a system whose actors answer no request in any schedule has only
// all-open histories, which any specification accepts: Check fails the test, saying so
// and naming the request type the actors were sent (probe G11: it passed, "search:
// complete").
func TestNoAnswerFails(t *testing.T) {
	for _, opts := range [][]raveltest.Option{nil, {raveltest.Workloads(workloads.Generator{Clients: 1, Ops: 1})}} {
		r := &recorder{TB: t}
		raveltest.Check(r, buggysys.DeafSystem(), append(opts, raveltest.Dir(t.TempDir()))...)
		if len(r.errors) != 1 {
			t.Fatalf("errors %q, want one", r.errors)
		}
		for _, want := range []string{"no operation was answered in any of the", "nothing was checked", "model.Request[specs.RegisterInput]"} {
			if !strings.Contains(r.errors[0], want) {
				t.Errorf("error %q does not say %q", r.errors[0], want)
			}
		}
	}
}

// half answers writes only: the reads are never answered, which Check logs without
// failing (faults and budgets may leave operations unanswered too).
type half struct{ N int }

func (h *half) Receive(ctx *model.Ctx, env model.Envelope) {
	if m, ok := env.Msg.(model.Request[specs.RegisterInput]); ok && m.Input.Write {
		ctx.Respond(m.ID, specs.WriteOK())
	}
}

func TestSomeUnansweredLogged(t *testing.T) {
	sys := model.System{Name: "half", Actors: []model.Actor{&half{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(0, specs.Read()))}
	r := &recorder{TB: t}
	raveltest.Check(r, sys, raveltest.Dir(t.TempDir()))
	if len(r.errors) != 0 {
		t.Fatalf("errors %q, want none", r.errors)
	}
	found := false
	for _, l := range r.logs {
		found = found || strings.Contains(l, "1 operation of the harness's 2 was answered in none of the")
	}
	if !found {
		t.Errorf("logs %q say nothing of the unanswered read", r.logs)
	}
}
