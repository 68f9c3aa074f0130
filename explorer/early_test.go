package explorer

import (
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/systems/register"
)

// recordingSet is a visited set in a map that records the keys it is asked to add and
// (as a prefetchingSet) the fingerprints it is asked to prefetch.
type recordingSet struct {
	seen       map[uint64]bool
	adds       []uint64
	prefetched []uint64
}

func (r *recordingSet) Add(fp uint64) (bool, error) {
	r.adds = append(r.adds, fp)
	if r.seen[fp] {
		return false, nil
	}
	r.seen[fp] = true
	return true, nil
}
func (r *recordingSet) Stats() VisitedStats { return VisitedStats{} }
func (r *recordingSet) Close() error        { return nil }

type prefetchingSet struct{ *recordingSet }

func (p prefetchingSet) Prefetch(fp uint64) { p.prefetched = append(p.prefetched, fp) }

// TestEarlyLookupKeyIsTheVisitKey: with exhaustive search, whose cache key is always 0,
// the engine prefetches a state's slot in the visited set by its fingerprint before it
// builds the state's node, and later adds the key computed from that fingerprint. Both
// must be the state's (its fingerprint, and its key under the strategy's cache key), and the
// search must visit the same states, in the same order, as with a set that cannot
// prefetch. Delay-bounded search's key depends on the path: it must never prefetch.
func TestEarlyLookupKeyIsTheVisitKey(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	run := func(strat dpor.Strategy, prefetch bool) (*recordingSet, []uint64, Stats) {
		rec := &recordingSet{seen: map[uint64]bool{}}
		var late []uint64
		defer func(old func(Options) (visitedSet, error)) { openVisitedSet = old }(openVisitedSet)
		openVisitedSet = func(Options) (visitedSet, error) {
			if prefetch {
				return prefetchingSet{rec}, nil
			}
			return rec, nil
		}
		defer func() { visitHook = nil }()
		visitHook = func(_ *engine, s *state) { late = append(late, s.fingerprint()) }
		res, err := Run(t.Context(), sys, Options{Strategy: strat, StateCaching: true, MaxSchedules: Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete {
			t.Fatal("the search did not complete")
		}
		return rec, late, res.Stats
	}
	t.Run("exhaustive", func(t *testing.T) {
		rec, late, st := run(dpor.Exhaustive(), true)
		if len(rec.adds) == 0 || len(rec.adds) != len(rec.prefetched) {
			t.Fatalf("%d keys added, %d prefetched; want as many, at least one", len(rec.adds), len(rec.prefetched))
		}
		for i, key := range rec.adds {
			if rec.prefetched[i] != late[i] {
				t.Fatalf("state %d: fingerprint %#x prefetched, the state's is %#x", i, rec.prefetched[i], late[i])
			}
			if want := visitKey(late[i], 0); key != want {
				t.Fatalf("state %d: key %#x added, the state's key is %#x", i, key, want)
			}
		}
		plain, _, plainSt := run(dpor.Exhaustive(), false)
		if len(plain.prefetched) != 0 {
			t.Fatalf("a set that cannot prefetch was asked to %d times", len(plain.prefetched))
		}
		if st.States != plainSt.States || st.Revisits != plainSt.Revisits || st.Steps != plainSt.Steps {
			t.Errorf("with prefetch: %d states, %d revisits, %d steps; without: %d, %d, %d",
				st.States, st.Revisits, st.Steps, plainSt.States, plainSt.Revisits, plainSt.Steps)
		}
		for i := range plain.adds {
			if plain.adds[i] != rec.adds[i] {
				t.Fatalf("add %d: key %#x with prefetch, %#x without", i, rec.adds[i], plain.adds[i])
			}
		}
	})
	t.Run("delay-bounded", func(t *testing.T) {
		rec, _, _ := run(dpor.DelayBounded(2), true)
		if len(rec.adds) == 0 {
			t.Fatal("no state visited")
		}
		if len(rec.prefetched) != 0 {
			t.Errorf("prefetched %d keys under a cache key that depends on the path", len(rec.prefetched))
		}
	})
}
