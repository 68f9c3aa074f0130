package explorer

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
)

// canonicalOf runs sys under opts and returns its canonical histories (canonicalLines)
// with the result.
func canonicalOf(t *testing.T, sys model.System, opts Options) ([]string, *Result) {
	t.Helper()
	res, err := Run(t.Context(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	return canonicalLines(t, sys, res), res
}

// canonicalLines returns res's canonical histories as sorted JSON lines, a violation's
// marked.
func canonicalLines(t *testing.T, sys model.System, res *Result) []string {
	t.Helper()
	var out []string
	for _, c := range res.Canonical {
		b, err := json.Marshal(c.History.JSON(sys.Harness))
		if err != nil {
			t.Fatal(err)
		}
		line := string(b)
		if !c.Linearizable {
			line = "violation " + line
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}

// newestFirst reverses the events enabled at a state (enabledHook): a node then starts
// with its newest event rather than its oldest.
func newestFirst(evs []dpor.Event, idx []int) {
	slices.Reverse(evs)
	slices.Reverse(idx)
}

// TestDPOROrderDoesNotMatter is a metamorphic oracle for the stateless DPOR family: a
// strategy starts each node with its first enabled event and adds the others as races
// demand, so which event comes first may change what it explores, but not what it finds.
// With every state's enabled events reversed, source-set and optimal DPOR under the
// history relation still find exactly exhaustive search's canonical histories and
// violations, and optimal DPOR under the actor relation still explores one schedule per
// Mazurkiewicz trace: as many as in the engine's own order, none blocked by a sleep set.
// (Stateful DPOR has its own: TestStatefulDPORReachesEveryFinalStateNewestFirst.)
func TestDPOROrderDoesNotMatter(t *testing.T) {
	compared := 0
	for seed := uint64(0); seed < 40; seed++ {
		sys := randsys.New(seed)
		t.Run(sys.Name, func(t *testing.T) {
			ex, exr := canonicalOf(t, sys, Options{Strategy: dpor.Exhaustive(), MaxSchedules: 30_000})
			if !exr.Complete {
				t.Skip("exhaustive search did not complete within 30,000 schedules: too large to compare")
			}
			_, inOrder := canonicalOf(t, sys, Options{Strategy: dpor.Optimal(dpor.Actor()), MaxSchedules: Unlimited})
			enabledHook = newestFirst
			defer func() { enabledHook = nil }()
			for _, s := range []dpor.Strategy{dpor.DPOR(dpor.History()), dpor.Optimal(dpor.History())} {
				got, res := canonicalOf(t, sys, Options{Strategy: s, MaxSchedules: Unlimited})
				if !res.Complete {
					t.Errorf("%s, newest first: did not complete", s.Name())
				}
				if !slices.Equal(got, ex) {
					t.Errorf("%s, newest first: %d canonical histories, exhaustive search %d", s.Name(), len(got), len(ex))
				}
			}
			_, reversed := canonicalOf(t, sys, Options{Strategy: dpor.Optimal(dpor.Actor()), MaxSchedules: Unlimited})
			if got, want := reversed.Stats.Schedules, inOrder.Stats.Schedules; got != want {
				t.Errorf("optimal dpor under actor, newest first: %d schedules, oldest first %d", got, want)
			}
			if b := reversed.Stats.SleepBlocked; b != 0 {
				t.Errorf("optimal dpor under actor, newest first: %d paths blocked by sleep sets, want 0", b)
			}
			compared++
		})
	}
	if compared < 30 {
		t.Errorf("only %d random protocols were small enough to compare", compared)
	}
}
