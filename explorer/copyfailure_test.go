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
		v := mustFind(t, sys, explorer.Options{Minimize: minimize})
		if v.Kind != explorer.KindUncopyable || !v.OfModel() || !strings.HasPrefix(v.Message, "Ravel cannot copy n0's state, as the schedule's earlier steps left it: ") || len(v.Steps) != 2 || len(v.Events) != 3 || !v.Replayed {
			t.Errorf("minimize %v: %s %q with %d steps, %d events, replayed %v; want the copy's failure at the second step, after 3 events, replayed",
				minimize, v.Kind, v.Message, len(v.Steps), len(v.Events), v.Replayed)
		}
	}
}

// sliceView is a register that keeps its value in Buf and, from its first step, reads
// it through View, a slice of Buf: what a log and its committed prefix look like.
type sliceView struct{ Buf, View []int }

func (s *sliceView) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.RegisterInput])
	if s.View == nil {
		s.View = s.Buf[:1]
	}
	if m.Input.Write {
		s.Buf[0] = m.Input.Value
		ctx.Respond(m.ID, specs.WriteOK())
		return
	}
	ctx.Respond(m.ID, specs.ReadOK(s.View[0]))
}

// TestSlicesSharingAnArrayAreRefused: the reflective copy would copy a slice and a view
// of it apart, and a read through the view would miss a write through the slice — a
// false violation on this one-client register (API probe, B4). A system that starts so
// is refused before the search; one whose step makes the view is a finding at the next
// copy, with its schedule.
func TestSlicesSharingAnArrayAreRefused(t *testing.T) {
	harness := model.Clients(specs.Register(), model.Calls(0, specs.Write(1), specs.Read()))
	buf := []int{0}
	_, err := explorer.Run(context.Background(), model.System{Name: "view", Actors: []model.Actor{&sliceView{Buf: buf, View: buf[:1]}}, Harness: harness}, explorer.Options{})
	if want := "sliceView.View: shares a backing array with explorer_test.sliceView.Buf"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Run: %v, want %q", err, want)
	}
	res, err := explorer.Run(context.Background(), model.System{Name: "late-view", Actors: []model.Actor{&sliceView{Buf: []int{0}}}, Harness: harness}, explorer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.First; v == nil || v.Kind != explorer.KindUncopyable || !strings.Contains(v.Message, "shares a backing array") || len(v.Steps) != 2 {
		t.Errorf("finding %+v; want the copy's failure at the second step", v)
	}
}
