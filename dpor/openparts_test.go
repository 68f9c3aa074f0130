package dpor_test

import (
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
)

// TestStatefulDPORKeepsOpenPartsOnlyWhileOpen: a visited state keeps its edges, its
// place on the path and Tarjan's numbers (its open part) only until it is summarized, so
// that the graph's record of a state is three words: the states holding one are exactly
// those not summarized, which after a complete search are at most the last path's; and
// on an acyclic system no state waits for its component, so no more are ever in use at
// once than a path holds.
func TestStatefulDPORKeepsOpenPartsOnlyWhileOpen(t *testing.T) {
	for _, tc := range []struct {
		name    string
		acyclic bool
	}{
		{"register/2r1w", true}, {"abd/1w1r", true}, {"paxos/2r1w", true},
		{"leader/1rw", false}, {"chord/2r1w", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := dpor.StatefulDPOR(dpor.History())
			_, res := exploreCached(t, shippedSystem(t, tc.name), s, explorer.Unlimited)
			if !res.Complete {
				t.Fatal("the search did not complete")
			}
			made, free, holding, open := dpor.OpenParts(s)
			if !slices.Equal(holding, open) {
				t.Errorf("states holding an open part %v, states not summarized %v; want the same", holding, open)
			}
			if free+len(holding) != made {
				t.Errorf("%d open parts made, %d free and %d held", made, free, len(holding))
			}
			// The search ends without leaving its last path: those states, and no
			// others, are still open.
			if len(open) > res.Stats.MaxDepth+1 {
				t.Errorf("%d states not summarized after the search, more than a path holds (%d)", len(open), res.Stats.MaxDepth+1)
			}
			if depth := res.Stats.MaxDepth; tc.acyclic && made > depth+1 {
				t.Errorf("%d open parts in use at once, on a path of at most %d states", made, depth+1)
			}
			t.Logf("%d states, %d open parts at most, longest schedule %d", res.Stats.States, made, res.Stats.MaxDepth)
		})
	}
}
