package explorer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/register"
)

// TestMinimizeRegisterBuggy: the erroneous register's first violation shrinks, and the
// shrunk schedule replays to the same history the violation reports.
func TestMinimizeRegisterBuggy(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, sys, explorer.Options{Minimize: true})
	v := res.First
	if v == nil {
		t.Fatal("no violation")
	}
	if !v.Minimized || len(v.Steps) >= v.OriginalSteps {
		t.Errorf("minimized %v: %d steps, originally %d", v.Minimized, len(v.Steps), v.OriginalSteps)
	}
	ids := make([]uint64, len(v.Steps))
	for i, s := range v.Steps {
		ids[i] = s.ID
	}
	ex, err := explorer.Replay(sys, ids, false)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Fingerprint != v.Fingerprint || len(ex.Events) != len(v.Events) {
		t.Errorf("the replay reaches %016x with %d events; the violation says %016x, %d", ex.Fingerprint, len(ex.Events), v.Fingerprint, len(v.Events))
	}
	t.Logf("%d steps, originally %d, %d replays", len(v.Steps), v.OriginalSteps, v.MinimizeReplays)
}

// TestMinimizeStopsWhenCancelled: a cancelled context stops minimization with a
// violation that still holds (the one found, at worst), marked as not minimized.
func TestMinimizeStopsWhenCancelled(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, sys, explorer.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v, err := explorer.Minimize(ctx, sys, res.First)
	if err != nil {
		t.Fatal(err)
	}
	if v.Minimized || len(v.Steps) != len(res.First.Steps) || v.OriginalSteps != len(res.First.Steps) {
		t.Errorf("cancelled: minimized %v, %d steps of %d", v.Minimized, len(v.Steps), len(res.First.Steps))
	}
}

// copySender sends Update to n1 on a request, and once more when its timer fires.
type copySender struct{ Resent bool }

type resendUpdate struct{ V int }
type resendTick struct{}

func (r *copySender) Receive(ctx *model.Ctx, env model.Envelope) {
	switch env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		ctx.Send(1, resendUpdate{V: 1})
		ctx.SetTimer("resend", resendTick{})
	case resendTick:
		if !r.Resent {
			r.Resent = true
			ctx.Send(1, resendUpdate{V: 1})
		}
	}
}

// updateAsserts fails its assertion on any Update: the bug is "n1 got the update".
type updateAsserts struct{}

func (*updateAsserts) Receive(ctx *model.Ctx, env model.Envelope) {
	if _, ok := env.Msg.(resendUpdate); ok {
		ctx.Fail("n1 got an update")
	}
}

// TestMinimizeStandsInForAResentCopy: a violation whose schedule delivers the copy a
// timer re-sent shrinks to one that delivers the original instead, without the timer:
// the copy's event is not enabled once the timer's step is gone, and the original, the
// same message sent at another step, stands in for it.
func TestMinimizeStandsInForAResentCopy(t *testing.T) {
	sys := model.System{
		Name:    "resend",
		Actors:  []model.Actor{&copySender{}, &updateAsserts{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1))),
	}
	s, err := explorer.NewSession(sys)
	if err != nil {
		t.Fatal(err)
	}
	deliver := func(pick func(explorer.Delivery) bool) {
		t.Helper()
		for _, d := range s.Enabled() {
			if pick(d) {
				if err := s.Deliver(d.ID); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
		t.Fatalf("no such event among %v", s.Enabled())
	}
	deliver(func(d explorer.Delivery) bool { return d.Kind == dpor.Request })
	original := s.Enabled()[0].ID
	deliver(func(d explorer.Delivery) bool { return d.Kind == dpor.Timer })
	deliver(func(d explorer.Delivery) bool { _, ok := d.Msg.(resendUpdate); return ok && d.ID != original })
	if !strings.HasPrefix(s.Failure(), "assertion: ") {
		t.Fatalf("the schedule request, timer, copy does not fail: %q", s.Failure())
	}
	v := &explorer.Violation{Kind: "assertion", Steps: s.Steps(), Events: s.Events(), Fingerprint: s.Fingerprint()}
	m, err := explorer.Minimize(context.Background(), sys, v)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	ids := make([]uint64, len(m.Steps))
	for i, d := range m.Steps {
		kinds = append(kinds, d.Kind.String())
		ids[i] = d.ID
	}
	if got, want := strings.Join(kinds, ","), "request,message"; got != want {
		t.Errorf("minimized to %s, want %s", got, want)
	}
	if len(m.Steps) == 2 && m.Steps[1].ID != original {
		t.Errorf("the update delivered is %016x, want the original %016x", m.Steps[1].ID, original)
	}
	// The shrunk schedule names the events it runs: it replays strictly.
	ex, err := explorer.Replay(sys, ids, false)
	if err != nil || !strings.HasPrefix(ex.Failure, "assertion: ") || ex.Fingerprint != m.Fingerprint {
		t.Errorf("the shrunk schedule replays to %+v, %v; want the assertion at %016x", ex, err, m.Fingerprint)
	}
}
