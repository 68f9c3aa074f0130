package explorer_test

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems/register"
)

// TestSessionMatchesReplay: delivering a violation's schedule by hand, with an undo and
// a redo at every step, reaches at every prefix the state and history that a stateless
// Replay of that prefix reaches.
func TestSessionMatchesReplay(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	res, err := explorer.Run(context.Background(), sys, explorer.Options{})
	if err != nil || res.First == nil {
		t.Fatalf("no violation to step through: %v", err)
	}
	s, err := explorer.NewSession(sys)
	if err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	for i, d := range res.First.Steps {
		if err := s.Deliver(d.ID); err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		if !s.Undo() {
			t.Fatalf("step %d: undo refused", i+1)
		}
		if err := s.Deliver(d.ID); err != nil {
			t.Fatalf("step %d again: %v", i+1, err)
		}
		ids = append(ids, d.ID)
		ex, err := explorer.Replay(sys, ids, false)
		if err != nil {
			t.Fatal(err)
		}
		if s.Fingerprint() != ex.Fingerprint || len(s.Events()) != len(ex.Events) {
			t.Errorf("step %d: session %016x with %d events, replay %016x with %d", i+1, s.Fingerprint(), len(s.Events()), ex.Fingerprint, len(ex.Events))
		}
	}
	if err := s.Deliver(12345); err == nil {
		t.Errorf("delivering an event that is not enabled succeeded")
	}
}
