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
//
// A system with more than fifoStates states is left out: cyclic-4 has 277,715, and took
// 24 of the test's 25 seconds.
func TestFIFOFingerprintMergesOnlyEqualFutures(t *testing.T) {
	reached := func(sys model.System, finer bool) (map[uint64]bool, bool) {
		seen := map[uint64]bool{}
		finerFingerprints = finer
		visitHook = func(_ *engine, s *state) {
			finerFingerprints = false
			seen[s.fingerprint()] = true
			finerFingerprints = finer
		}
		defer func() { visitHook, finerFingerprints = nil, false }()
		res, err := Run(t.Context(), sys, Options{Strategy: dpor.Exhaustive(), MaxSchedules: Unlimited, StateCaching: true, MaxStates: fifoStates + 1})
		if err != nil {
			t.Fatal(err)
		}
		return seen, res.Complete
	}
	compared := 0
	for seed := uint64(0); seed < 70 && compared < 30; seed++ {
		for _, sys := range []model.System{randsys.New(seed), randsys.NewCyclic(seed)} {
			if sys.Network != model.FIFO {
				continue
			}
			coarse, ok := reached(sys, false)
			if !ok {
				continue
			}
			fine, ok := reached(sys, true)
			if !ok { // the finer key visits more states, of which it may merge fewer
				continue
			}
			compared++
			if len(coarse) != len(fine) {
				t.Errorf("%s: %d states by the fingerprint, %d when it covers the order of every pending event", sys.Name, len(coarse), len(fine))
			}
		}
	}
	if compared < 20 {
		t.Errorf("only %d FIFO systems compared", compared)
	}
}

// fifoStates bounds the systems TestFIFOFingerprintMergesOnlyEqualFutures compares.
const fifoStates = 30_000
