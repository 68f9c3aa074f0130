package explorer_test

import (
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems/register"
)

// TestPendingAtTheEnd: a session's Pending and a replay's are the messages sent and not
// yet delivered: at the start, every client's first request (on an unordered network,
// what is enabled bar faults); after each step, the same in a session and in a replay of
// the steps so far, and never the message just delivered.
func TestPendingAtTheEnd(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	s, err := explorer.NewSession(sys)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(ds []explorer.Delivery) []uint64 {
		out := make([]uint64, 0, len(ds))
		for _, d := range ds {
			if !d.Kind.IsFault() {
				out = append(out, d.ID)
			}
		}
		return out
	}
	if got, want := ids(s.Pending()), ids(s.Enabled()); len(got) != 3 || !slices.Equal(got, want) {
		t.Fatalf("pending at the start %x, want the 3 clients' requests %x", got, want)
	}
	for step := 1; step <= 6 && len(s.Enabled()) > 0; step++ {
		d := s.Enabled()[0]
		if err := s.Deliver(d.ID); err != nil {
			t.Fatal(err)
		}
		ex, err := explorer.Replay(sys, ids(s.Steps()), false)
		if err != nil {
			t.Fatal(err)
		}
		got := ids(s.Pending())
		if want := ids(ex.Pending); !slices.Equal(got, want) {
			t.Errorf("after step %d: the session has %x pending, the replay %x", step, got, want)
		}
		if slices.Contains(got, d.ID) {
			t.Errorf("after step %d: the message it delivered, %016x, is still pending", step, d.ID)
		}
		for _, p := range s.Pending() {
			if p.Kind != dpor.Message && p.Kind != dpor.Request && p.Kind != dpor.Timer {
				t.Errorf("after step %d: pending %v, of kind %v", step, p, p.Kind)
			}
		}
	}
}
