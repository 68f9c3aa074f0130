package explorer

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
)

// TestStatefulDPORReachesEveryFinalStateWhateverItStartsWith is the trace-level oracle
// with stateful DPOR told at random what each enabled event would send, so that a new
// state starts with an arbitrary quiet actor's event (dpor/quietfirst.go): the rule may
// choose badly, never unsoundly, since races still add whatever the first event leaves
// out. The systems of the shuffled-order oracle.
func TestStatefulDPORReachesEveryFinalStateWhateverItStartsWith(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 0x91e7))
	sendsHook = func(uint64) uint64 { return r.Uint64() & r.Uint64() }
	defer func() { sendsHook = nil }()
	compareFinalStates(t, someOracleSystems(t), nil, 60)
}

// TestStatefulDPORStartsWithAQuietActor checks what the rule is for: on these
// configurations starting each new state with a quiet actor's event visits fewer states
// than starting with the oldest event, and on gossip rw it takes stateful DPOR from more
// than half of exhaustive search's states to at most half (docs/strategies.md, "The
// first event of a state"). Every order finds exhaustive search's canonical histories.
func TestStatefulDPORStartsWithAQuietActor(t *testing.T) {
	for _, tc := range []struct {
		name string
		half bool // the rule crosses the half-states line here
	}{
		{"gossip/rw", true},
		{"register-buggy/2r1w", false},
		{"abd-buggy/1w1r", false},
		{"microbench/bug1-L3", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := shippedByName(t, tc.name)
			opts := Options{Strategy: dpor.Exhaustive(), StateCaching: true, MaxSchedules: Unlimited}
			want, ex := canonicalOf(t, sys, opts)
			opts.Strategy = dpor.DPOR(dpor.History())
			got, quiet := canonicalOf(t, sys, opts)
			opts.Strategy = dpor.StatefulDPOROldestFirst(dpor.History())
			gotOld, oldest := canonicalOf(t, sys, opts)
			if !slices.Equal(got, want) || !slices.Equal(gotOld, want) {
				t.Fatalf("canonical histories: quiet actor first %d, oldest first %d, exhaustive search %d", len(got), len(gotOld), len(want))
			}
			if quiet.Stats.States >= oldest.Stats.States {
				t.Errorf("quiet actor first: %d states; oldest first: %d", quiet.Stats.States, oldest.Stats.States)
			}
			if tc.half && (2*quiet.Stats.States > ex.Stats.States || 2*oldest.Stats.States <= ex.Stats.States) {
				t.Errorf("exhaustive search %d states; quiet actor first %d, oldest first %d: want at most half, and more", ex.Stats.States, quiet.Stats.States, oldest.Stats.States)
			}
		})
	}
}
