package raveltest_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/specs"
)

// keepsError keeps an error value from its first step, which Ravel cannot copy.
type keepsError struct {
	V int
	E error
}

func (k *keepsError) Receive(ctx *model.Ctx, env model.Envelope) {
	r := env.Msg.(model.Request[specs.RegisterInput])
	k.E = errors.New("x")
	ctx.Respond(r.ID, specs.ReadOK(k.V))
}

// TestUncopyableStateIsNotSaved: a state Ravel cannot copy, met during the search, fails
// the test but is not saved as a counterexample of the protocol to replay on every later
// run (state probe, H4).
func TestUncopyableStateIsNotSaved(t *testing.T) {
	sys := model.System{Name: "keeps-error", Actors: []model.Actor{&keepsError{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read(), specs.Read()))}
	dir := t.TempDir()
	rec := &recorder{TB: t}
	raveltest.Check(rec, sys, raveltest.Dir(dir))
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "Ravel could not check the system as written") ||
		!strings.Contains(rec.errors[0], "not saved as a counterexample") || strings.Contains(rec.errors[0], "panic") {
		t.Errorf("failures %q; want one saying Ravel could not check the system", rec.errors)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d files saved in the corpus; want none", len(files))
	}
}
