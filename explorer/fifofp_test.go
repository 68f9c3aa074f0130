package explorer

import (
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
)

// TestFIFOFingerprintMergesOnlyEqualFutures is the oracle for the fingerprint on FIFO
// networks: exhaustive search with caching reaches the same states (by fingerprint)
// whether or not the fingerprint also covers the order of every pending event. A finer
// key merges fewer states, never states with different futures, so a coarser key that
// merged two states with different futures — the same messages of a channel in another
// order, which psum alone cannot tell apart — would reach fewer.
func TestFIFOFingerprintMergesOnlyEqualFutures(t *testing.T) {
	reached := func(sys model.System, finer bool) map[uint64]bool {
		seen := map[uint64]bool{}
		finerFingerprints = finer
		visitHook = func(_ *engine, s *state) {
			finerFingerprints = false
			seen[s.fingerprint()] = true
			finerFingerprints = finer
		}
		defer func() { visitHook, finerFingerprints = nil, false }()
		res, err := Run(t.Context(), sys, Options{Strategy: dpor.Exhaustive(), MaxSchedules: Unlimited, StateCaching: true})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete {
			t.Fatalf("%s: exhaustive search with caching did not complete", sys.Name)
		}
		return seen
	}
	compared := 0
	for seed := uint64(0); seed < 70 && compared < 30; seed++ {
		for _, sys := range []model.System{randsys.New(seed), randsys.NewCyclic(seed)} {
			if sys.Network != model.FIFO {
				continue
			}
			compared++
			coarse, fine := reached(sys, false), reached(sys, true)
			if len(coarse) != len(fine) {
				t.Errorf("%s: %d states by the fingerprint, %d when it covers the order of every pending event", sys.Name, len(coarse), len(fine))
			}
		}
	}
	if compared < 20 {
		t.Errorf("only %d FIFO systems compared", compared)
	}
}
