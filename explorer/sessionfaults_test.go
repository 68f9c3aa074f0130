package explorer_test

import (
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems/leader"
)

// TestSessionDescribesPartitions: a session's pending and delivered partitions and heals
// say which side each actor is on, as the steps of a replay of the same schedule — what
// check and replay print — say (probe U1: all read "PARTITION  | n0 n1 n2").
func TestSessionDescribesPartitions(t *testing.T) {
	sys, err := leader.New(3, leader.HarnessNames[0])
	if err != nil {
		t.Fatal(err)
	}
	sys.Faults.Partition = 1
	s, err := explorer.NewSession(sys)
	if err != nil {
		t.Fatal(err)
	}
	faultsOf := func(ds []explorer.Delivery, kind dpor.EventKind) []explorer.Delivery {
		var out []explorer.Delivery
		for _, d := range ds {
			if d.Kind == kind {
				out = append(out, d)
			}
		}
		return out
	}
	parts := faultsOf(s.Enabled(), dpor.Partition)
	if len(parts) < 2 {
		t.Fatalf("%d partitions enabled at the start, want several", len(parts))
	}
	seen := map[string]bool{}
	for _, d := range parts {
		text := explorer.DescribeFault(&sys, d)
		if seen[text] {
			t.Errorf("two pending partitions both read %q", text)
		}
		seen[text] = true
	}
	// Deliver each partition, then its heal: the session's steps read as a replay's.
	for _, p := range parts {
		if err := s.Deliver(p.ID); err != nil {
			t.Fatal(err)
		}
		heals := faultsOf(s.Enabled(), dpor.Heal)
		if len(heals) != 1 {
			t.Fatalf("%d heals enabled after %s, want 1", len(heals), explorer.DescribeFault(&sys, p))
		}
		if err := s.Deliver(heals[0].ID); err != nil {
			t.Fatal(err)
		}
		ex, err := explorer.Replay(sys, []uint64{p.ID, heals[0].ID}, false)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range s.Steps() {
			got, want := explorer.DescribeFault(&sys, d), explorer.DescribeFault(&sys, ex.Steps[i])
			if got != want {
				t.Errorf("step %d reads %q in the session, %q in a replay", i+1, got, want)
			}
		}
		pending := explorer.DescribeFault(&sys, p)
		if got := explorer.DescribeFault(&sys, s.Steps()[0]); got != pending {
			t.Errorf("pending %q, delivered %q", pending, got)
		}
		s.Undo()
		s.Undo()
	}
}
