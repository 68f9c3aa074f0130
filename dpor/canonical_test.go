package dpor_test

import (
	"fmt"
	"os"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
)

// TestCanonicalStatesKeepEveryCanonicalHistory is the oracle for canonical states
// (explorer.Options.CanonicalStates): exhaustive search and stateful DPOR whose states
// cover the canonical form of their history find exactly the canonical histories and
// violations that exhaustive search with chronological states finds, in no more states —
// on the DS2 registers, the shipped systems' small configurations, random protocols,
// acyclic and cyclic, and random protocols under every fault kind.
func TestCanonicalStatesKeepEveryCanonicalHistory(t *testing.T) {
	type sys = oracleSystem
	all := registerSystems(t)
	for _, name := range []string{
		"register-volatile/1r1w", "register-idempotent/1r1w", "adr/2r1w", "adr-buggy/2r1w",
		"chord/2r1w", "chord-fixed/2r1w", "paxos/2r1w", "paxos-buggy/2r1w", "gossip/rw",
		"abd/1w1r", "abd-buggy/1w1r", "microbench/bug1-L3",
	} {
		all = append(all, sys{name, shippedSystem(t, name), false, false})
	}
	for _, name := range []string{"chord-fixed/2r2w", "paxos/2r2w", "leader/1rw", "abd/1w2r-seq"} {
		all = append(all, sys{name, shippedSystem(t, name), true, false})
	}
	// RAVEL_STATEFUL_SWEEP=1 compares four times as many random systems; not in CI.
	seeds := uint64(40)
	if os.Getenv("RAVEL_STATEFUL_SWEEP") != "" {
		seeds = 160
	}
	for seed := uint64(0); seed < seeds; seed++ {
		all = append(all, sys{randomSystem(seed).Name, randomSystem(seed), false, true})
		all = append(all, sys{randomCyclicSystem(seed).Name, randomCyclicSystem(seed), false, true})
		c := faultConfigs[seed%uint64(len(faultConfigs))]
		s := withFaults(randomSystem(seed+100), c.f, c.restart, c.retries)
		all = append(all, sys{fmt.Sprintf("%s/%s", s.Name, c.name), s, false, true})
	}
	var violations, compared, merged atomic.Int64
	t.Run("each", func(t *testing.T) {
		for _, s := range all {
			t.Run(s.name, func(t *testing.T) {
				t.Parallel()
				ex, exr := cachedBaseline(t, s)
				compared.Add(1)
				violations.Add(int64(len(ex.violations)))
				opts := explorer.Options{Strategy: dpor.Exhaustive(), StateCaching: true, MaxSchedules: explorer.Unlimited, CanonicalStates: true}
				exc, excr := exploreWith(t, s.sys, opts)
				opts.Strategy = dpor.DPOR(dpor.History())
				dpc, dpcr := exploreWith(t, s.sys, opts)
				for _, r := range []struct {
					name string
					o    outcome
					res  *explorer.Result
				}{{"exhaustive", exc, excr}, {"dpor", dpc, dpcr}} {
					if !r.o.complete {
						t.Errorf("%s with canonical states did not complete", r.name)
					}
					if h := strayCycles(ex, r.o); h != "" {
						t.Errorf("%s with canonical states found a cycle's history exhaustive search did not: %s", r.name, h)
					}
					if !slices.Equal(ex.canonical, r.o.canonical) {
						t.Errorf("%s with canonical states found %d canonical histories, exhaustive with chronological ones %d; first missing: %s", r.name, len(r.o.canonical), len(ex.canonical), firstMissing(ex.canonical, r.o.canonical))
					}
					if !slices.Equal(ex.violations, r.o.violations) {
						t.Errorf("%s with canonical states found %d violations, exhaustive with chronological ones %d", r.name, len(r.o.violations), len(ex.violations))
					}
				}
				if excr.Stats.States > exr.Stats.States {
					t.Errorf("exhaustive search visited %d canonical states, %d chronological ones", excr.Stats.States, exr.Stats.States)
				}
				if excr.Stats.States < exr.Stats.States {
					merged.Add(1)
				}
				if dpcr.Stats.States > excr.Stats.States {
					t.Errorf("dpor+caching visited %d canonical states, exhaustive+caching %d", dpcr.Stats.States, excr.Stats.States)
				}
			})
		}
	})
	if violations.Load() == 0 {
		t.Errorf("no configuration had a violation: the oracle would not notice a search that loses them")
	}
	if merged.Load() < compared.Load()/3 {
		t.Errorf("canonical states were fewer than chronological ones on only %d of %d configurations", merged.Load(), compared.Load())
	}
	t.Logf("%d configurations compared, %d with fewer states", compared.Load(), merged.Load())
}
