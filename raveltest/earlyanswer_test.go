package raveltest_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/specs"
)

// miscount answers each write under its own count of requests instead of the request's
// sequence number: the second request, c1.0, it answers as c1.1, not sent yet.
type miscount struct{ Count int }

func (s *miscount) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.RegisterInput])
	ctx.Respond(model.RequestID{Client: m.ID.Client, Seq: s.Count}, specs.WriteOK()) // miscount's answer
	s.Count++
}

// TestAnswerBeforeArrivalReplays: an answer to a request that has not arrived yet fails
// the check at the handler's line, and its saved counterexample fails again, replayed
// (API probe, N3: such an answer was ignored).
func TestAnswerBeforeArrivalReplays(t *testing.T) {
	sys := model.System{Name: "miscount", Actors: []model.Actor{&miscount{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(0, specs.Write(2)))}
	dir := filepath.Join(t.TempDir(), "corpus")
	r1 := &recorder{TB: t}
	raveltest.Check(r1, sys, raveltest.Dir(dir))
	if len(r1.errors) != 1 {
		t.Fatalf("%d failures, want 1: %q", len(r1.errors), r1.errors)
	}
	first, _, _ := strings.Cut(r1.errors[0], "\n")
	for _, w := range []string{"model: Respond to c1.1, a request that has not reached any actor yet", "(at earlyanswer_test.go:", " in raveltest_test.(*miscount).Receive)"} {
		if !strings.Contains(first, w) {
			t.Errorf("the first line lacks %q:\n%s", w, first)
		}
	}
	r2 := &recorder{TB: t}
	if res := raveltest.Check(r2, sys, raveltest.Dir(dir)); res != nil {
		t.Errorf("explored although the saved counterexample failed")
	}
	if len(r2.errors) != 1 || !strings.Contains(r2.errors[0], "still fails") || !strings.Contains(r2.errors[0], "Respond to c1.1") {
		t.Errorf("second run's failures: %q, want the saved counterexample failing again", r2.errors)
	}
}
