package explorer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

type aliasCell struct{ V int }

// lateAlias is a register whose first step makes two fields point to one cell, which
// the reflective copy cannot copy faithfully (it would make two cells).
type lateAlias struct{ A, B *aliasCell }

func (s *lateAlias) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.RegisterInput])
	if s.A == nil {
		c := &aliasCell{}
		s.A, s.B = c, c
	}
	if m.Input.Write {
		s.A.V = m.Input.Value
		ctx.Respond(m.ID, specs.WriteOK())
		return
	}
	ctx.Respond(m.ID, specs.ReadOK(s.B.V))
}

// TestCopyFailureKeepsItsSchedule: a copy that fails at a step (here: two fields made
// to share a pointer by the step before) is a finding with the schedule that led to
// it, which replays. It was reported with no schedule and no history, and its saved
// file replayed as passing (API probe, B6).
func TestCopyFailureKeepsItsSchedule(t *testing.T) {
	sys := model.System{Name: "late-alias", Actors: []model.Actor{&lateAlias{}}, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read(), specs.Write(1), specs.Read()))}
	for _, minimize := range []bool{false, true} {
		res, err := explorer.Run(context.Background(), sys, explorer.Options{Minimize: minimize})
		if err != nil {
			t.Fatal(err)
		}
		v := res.First
		if v == nil {
			t.Fatal("no finding")
		}
		if !strings.HasPrefix(v.Message, "copying n0: ") || len(v.Steps) != 2 || len(v.Events) != 3 || !v.Replayed {
			t.Errorf("minimize %v: %s %q with %d steps, %d events, replayed %v; want the copy's failure at the second step, after 3 events, replayed",
				minimize, v.Kind, v.Message, len(v.Steps), len(v.Events), v.Replayed)
		}
	}
}
