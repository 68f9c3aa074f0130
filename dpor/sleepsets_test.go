package dpor_test

import (
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
)

// opaqueHistory is the history relation as a user's relation would be: the strategies
// cannot tell it decides from classes alone, and take stateful DPOR's general path (the
// sleep set from StepInfo, dependence asked of the relation).
type opaqueHistory struct{ dpor.Dependence }

// TestStatefulSleepSetsByClassMatchStepInfo: stateful DPOR computes sleep sets from its
// class table when the relation is a built-in one, and from the steps' StepInfo
// otherwise; both must explore exactly the same search — states, states explored again,
// revisits, steps, schedules and canonical histories — on the shipped systems, cyclic
// ones included. Context-sensitive sleep sets (contextsleep.go) apply to the class table
// only, so the class table runs without them here.
func TestStatefulSleepSetsByClassMatchStepInfo(t *testing.T) {
	for _, name := range []string{"register/2r1w", "adr-buggy/2r1w", "abd/1w1r", "paxos/2r1w", "leader/1rw"} {
		t.Run(name, func(t *testing.T) {
			sys := shippedSystem(t, name)
			fast, fr := exploreCached(t, sys, dpor.StatefulDPORStaticSleep(dpor.History()), explorer.Unlimited)
			slow, sr := exploreCached(t, sys, dpor.StatefulDPOR(opaqueHistory{dpor.History()}), explorer.Unlimited)
			sameSearch(t, "by class", fast, fr, "by StepInfo", slow, sr)
			if fr.Stats.ExploredAgain == 0 && name != "register/2r1w" {
				t.Logf("%s: no state explored again", name)
			}
		})
	}
}

// sameSearch reports where two searches of one system, named x and y, differ: states,
// states explored again, revisits, steps, schedules, canonical histories, completeness.
func sameSearch(t *testing.T, x string, xo outcome, xr *explorer.Result, y string, yo outcome, yr *explorer.Result) {
	t.Helper()
	a, b := xr.Stats, yr.Stats
	if a.States != b.States || a.ExploredAgain != b.ExploredAgain || a.Revisits != b.Revisits || a.Steps != b.Steps || a.Schedules != b.Schedules {
		t.Errorf("%s: %d states, %d again, %d revisits, %d steps, %d schedules; %s: %d, %d, %d, %d, %d",
			x, a.States, a.ExploredAgain, a.Revisits, a.Steps, a.Schedules, y, b.States, b.ExploredAgain, b.Revisits, b.Steps, b.Schedules)
	}
	if !slices.Equal(xo.canonical, yo.canonical) || !xo.complete || !yo.complete {
		t.Errorf("canonical histories differ (%d %s, %d %s) or a search did not complete", len(xo.canonical), x, len(yo.canonical), y)
	}
}
