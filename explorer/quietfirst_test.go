package explorer

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/internal/randsys"
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

// TestStatefulDPORReachesEveryFinalStateWakingAlways is the trace-level oracle with
// stateful DPOR waking a quiet actor's sleeping event to start a state with whatever
// state it leads to (dpor/quietfirst.go wakes one only when it leads to a state visited
// before): a smaller sleep set explores more, never less, so waking may cost but must
// lose nothing. What each event sends is drawn at random as above, so that the rule
// wakes events of every kind.
func TestStatefulDPORReachesEveryFinalStateWakingAlways(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 0x3a4e))
	sendsHook = func(uint64) uint64 { return r.Uint64() & r.Uint64() & r.Uint64() }
	shipped := finalsStrategy
	finalsStrategy = func() dpor.Strategy { return dpor.StatefulDPORWakingAlways(dpor.History()) }
	defer func() { sendsHook, finalsStrategy = nil, shipped }()
	compareFinalStates(t, someOracleSystems(t), nil, 60)
}

// TestStatefulDPORReachesEveryFinalStatePastWokenEvents is the trace-level oracle on
// random cyclic system 1795, where a quiet actor's woken event was the first step after
// a race that did not happen after it, at a node where that event was asleep: the race's
// reversal then went to an event the node does not explore, and 6 of the 504 final
// states were lost (twenty-first round; dpor's firstNotAfter). The order that shows it
// is the first awake event's (StatefulDPORFirstAwake); the search as it stands is
// checked on the system too.
func TestStatefulDPORReachesEveryFinalStatePastWokenEvents(t *testing.T) {
	sys := []oracleSystem{{"cyclic-1795", randsys.NewCyclic(1795), false}}
	for _, v := range []struct {
		name string
		s    func() dpor.Strategy
	}{
		{"first awake", func() dpor.Strategy { return dpor.StatefulDPORFirstAwake(dpor.History()) }},
		{"loudest", func() dpor.Strategy { return dpor.DPOR(dpor.History()) }},
	} {
		t.Run(v.name, func(t *testing.T) {
			shipped := finalsStrategy
			finalsStrategy = v.s
			defer func() { finalsStrategy = shipped }()
			compareFinalStates(t, sys, nil, 1)
		})
	}
}

// TestStatefulDPORStartsWithAQuietActor checks what the rule is for: on these
// configurations starting each new state with a quiet actor's event visits fewer states
// than starting with the oldest event, and on gossip rw it takes stateful DPOR from more
// than half of exhaustive search's states to at most half (docs/stateful-dpor-history.md,
// "The first event of a state"). Every order finds exhaustive search's canonical histories.
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
			fewerThanVariant(t, tc.name, tc.half, dpor.StatefulDPOROldestFirst(dpor.History()), "quiet actor first", "oldest first")
		})
	}
}

// TestStatefulDPORWakesAQuietActor checks what waking a quiet actor's sleeping event is
// for (dpor/quietfirst.go): on these configurations stateful DPOR visits fewer states
// with it than without, and finds exhaustive search's canonical histories either way.
func TestStatefulDPORWakesAQuietActor(t *testing.T) {
	for _, name := range []string{"leader/1rw", "leader-buggy/1rw", "abd/1w1r", "paxos/2r1w", "abd-buggy/1w2r-seq"} {
		t.Run(name, func(t *testing.T) {
			_, woken, not := againstVariant(t, name, dpor.StatefulDPORWithoutWaking(dpor.History()))
			if woken.Stats.States >= not.Stats.States {
				t.Errorf("waking: %d states; not waking: %d", woken.Stats.States, not.Stats.States)
			}
		})
	}
}

// TestStatefulDPORTakesTheLoudestEventNext checks what exploring a node's later events
// loudest first is for (dpor's Order): on these configurations stateful DPOR visits
// fewer states with it than in the engine's order, and it takes leader 1rw to at most
// half of exhaustive search's states, issue 13's target (docs/stateful-dpor-history.md,
// thirty-seventh round). Both orders find exhaustive search's canonical histories.
func TestStatefulDPORTakesTheLoudestEventNext(t *testing.T) {
	for _, tc := range []struct {
		name string
		half bool // at most half of exhaustive search's states with the order, not without
	}{
		{"leader/1rw", true},
		{"leader-buggy/1rw", false},
		{"abd-buggy/1w2r-seq", false},
		{"chord-fixed/2r1w", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fewerThanVariant(t, tc.name, tc.half, dpor.StatefulDPORInEnginesOrder(dpor.History()), "loudest next", "in the engine's order")
		})
	}
}

// fewerThanVariant checks that stateful DPOR (named rule) visits fewer states than
// variant (named without) on the shipped configuration name, both finding exhaustive
// search's canonical histories; with half, that the rule takes it to at most half of
// exhaustive search's states and the variant does not.
func fewerThanVariant(t *testing.T, name string, half bool, variant dpor.Strategy, rule, without string) {
	t.Helper()
	ex, with, not := againstVariant(t, name, variant)
	if with.Stats.States >= not.Stats.States {
		t.Errorf("%s: %d states; %s: %d", rule, with.Stats.States, without, not.Stats.States)
	}
	if half && (2*with.Stats.States > ex.Stats.States || 2*not.Stats.States <= ex.Stats.States) {
		t.Errorf("exhaustive search %d states; %s %d, %s %d: want at most half, and more", ex.Stats.States, rule, with.Stats.States, without, not.Stats.States)
	}
}

// againstVariant runs the shipped configuration "system/harness" with state caching
// under exhaustive search, stateful DPOR and variant, a variant of it, and fails unless
// all three find the same canonical histories.
func againstVariant(t *testing.T, name string, variant dpor.Strategy) (ex, dp, v *Result) {
	t.Helper()
	sys := shippedByName(t, name)
	opts := Options{Strategy: dpor.Exhaustive(), StateCaching: true, MaxSchedules: Unlimited}
	want, ex := canonicalOf(t, sys, opts)
	opts.Strategy = dpor.DPOR(dpor.History())
	got, dp := canonicalOf(t, sys, opts)
	opts.Strategy = variant
	gotV, v := canonicalOf(t, sys, opts)
	if !slices.Equal(got, want) || !slices.Equal(gotV, want) {
		t.Fatalf("canonical histories: stateful DPOR %d, the variant %d, exhaustive search %d", len(got), len(gotV), len(want))
	}
	return ex, dp, v
}
