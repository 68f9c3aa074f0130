package explorer

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
)

// TestStatefulDPORStatesByOrder measures how many states stateful DPOR visits on the
// four three-agent configurations above half of exhaustive search's (docs/stateful-dpor-history.md,
// "Which targets hold") when each state's enabled events come in an order drawn at
// random (shuffled), and checks that every order finds exhaustive search's canonical
// histories. A measurement, not in CI: run with
//
//	RAVEL_ORDERS=60 go test -run TestStatefulDPORStatesByOrder -v ./explorer/
//
// (RAVEL_ORDERS is the number of orders, drawn from seeds 1 to N).
func TestStatefulDPORStatesByOrder(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("RAVEL_ORDERS"))
	if err != nil || n < 1 {
		t.Skip("a measurement: set RAVEL_ORDERS=N (orders per configuration) to run it")
	}
	for _, name := range []string{"gossip/rw", "register-buggy/2r1w", "leader/1rw", "leader-buggy/1rw"} {
		t.Run(name, func(t *testing.T) {
			sysName, harness, _ := strings.Cut(name, "/")
			sys := shippedWith(t, sysName, harness, model.Faults{})
			cached := Options{Strategy: dpor.Exhaustive(), StateCaching: true, MaxSchedules: Unlimited}
			want, ex := canonicalOf(t, sys, cached)
			cached.Strategy = dpor.DPOR(dpor.History())
			_, own := canonicalOf(t, sys, cached)
			var ratios []float64
			below := 0
			for seed := uint64(1); seed <= uint64(n); seed++ {
				enabledHook = shuffled(seed)
				got, res := canonicalOf(t, sys, cached)
				enabledHook = nil
				if !res.Complete || !slices.Equal(got, want) {
					t.Fatalf("order %d: complete %v, %d canonical histories, exhaustive search %d", seed, res.Complete, len(got), len(want))
				}
				ratios = append(ratios, float64(res.Stats.States)/float64(ex.Stats.States))
				if 2*res.Stats.States <= ex.Stats.States {
					below++
				}
			}
			slices.Sort(ratios)
			t.Logf("exhaustive+caching %d states; dpor+caching in the engine's order %d (%.2f); over %d orders %.2f to %.2f, median %.2f; at most half in %d",
				ex.Stats.States, own.Stats.States, float64(own.Stats.States)/float64(ex.Stats.States), n, ratios[0], ratios[n-1], ratios[n/2], below)
		})
	}
}
