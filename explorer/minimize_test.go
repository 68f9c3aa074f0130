package explorer_test

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/explorer"
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
