package dpor_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/leader"
	"github.com/ravelmc/ravel/systems/paxos"
)

// TestStatefulDPORSavedStateRoundTrips: stateful DPOR's saved state, restored into a
// strategy that has seen nothing and saved again, gives the same bytes — at many points
// of a search on a cyclic system and on one whose summaries and sleep sets outgrow a
// word; and a saved state cut short, or of another format, is refused with
// ErrSavedState, not a panic.
func TestStatefulDPORSavedStateRoundTrips(t *testing.T) {
	for _, tc := range []struct {
		name string
		sys  func() (model.System, error)
	}{
		{"leader/1rw", func() (model.System, error) { return leader.New(3, "1rw") }},
		{"paxos/2r2w", func() (model.System, error) { return paxos.New(2, paxos.DefaultRetries, "2r2w") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := tc.sys()
			if err != nil {
				t.Fatal(err)
			}
			s := dpor.StatefulDPOR(dpor.History())
			var checked, calls int
			opts := explorer.Options{Strategy: s, StateCaching: true, MaxSchedules: explorer.Unlimited, ProgressEvery: 1}
			// The progress report comes between two steps (every 64th), where a checkpoint
			// saves.
			opts.Progress = func(explorer.Stats) {
				if calls++; calls%31 != 1 {
					return
				}
				saved := s.(dpor.Resumable).SaveState(nil)
				fresh := dpor.StatefulDPOR(dpor.History()).(dpor.Resumable)
				if err := fresh.RestoreState(saved, nil); err != nil {
					t.Fatalf("step %d: %v", calls, err)
				}
				if again := fresh.SaveState(nil); !bytes.Equal(again, saved) {
					t.Fatalf("step %d: saved %d bytes, restored and saved again %d, not the same", calls, len(saved), len(again))
				}
				checked++
			}
			if _, err := explorer.Run(context.Background(), sys, opts); err != nil {
				t.Fatal(err)
			}
			if checked < 10 {
				t.Fatalf("checked %d points, want at least 10", checked)
			}
			saved := s.(dpor.Resumable).SaveState(nil)
			for _, cut := range []int{0, 1, 10, len(saved) / 3, len(saved) / 2, len(saved) - 1} {
				err := dpor.StatefulDPOR(dpor.History()).(dpor.Resumable).RestoreState(saved[:cut], nil)
				if !errors.Is(err, dpor.ErrSavedState) {
					t.Errorf("cut to %d of %d bytes: err = %v, want ErrSavedState", cut, len(saved), err)
				}
			}
			other := append([]byte{byte(len("ravel-stateful-dpor/0"))}, "ravel-stateful-dpor/0"...)
			if err := dpor.StatefulDPOR(dpor.History()).(dpor.Resumable).RestoreState(other, nil); !errors.Is(err, dpor.ErrSavedState) {
				t.Errorf("another format: err = %v, want ErrSavedState", err)
			}
		})
	}
}
