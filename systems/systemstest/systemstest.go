// Package systemstest holds the checks that every shipped system's tests run on it:
// determinism, snapshot isolation of its Clone methods, and agreement of its
// Clone/HashState fast paths with the reflective fallbacks. It is imported by tests
// only.
package systemstest

import (
	"context"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// Run explores sys with opts and fails the test on an error.
func Run(t testing.TB, sys model.System, opts explorer.Options) *explorer.Result {
	t.Helper()
	res, err := explorer.Run(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Canonical returns the hashes of the canonical histories a run found, and of those
// that are not linearizable, each sorted.
func Canonical(res *explorer.Result) (all, bad []uint64) {
	for _, c := range res.Canonical {
		h := c.History.Hash()
		all = append(all, h)
		if !c.Linearizable {
			bad = append(bad, h)
		}
	}
	slices.Sort(all)
	slices.Sort(bad)
	return all, bad
}

// Deterministic checks that two runs of sys with opts give the same statistics (times
// aside) and the same canonical histories, with the same verdicts, in the same order.
func Deterministic(t *testing.T, sys model.System, opts explorer.Options) {
	t.Helper()
	a, b := Run(t, sys, opts), Run(t, sys, opts)
	sa, sb := a.Stats, b.Stats
	sa.Explore, sa.Check, sa.Total, sa.ToFirst = 0, 0, 0, 0
	sb.Explore, sb.Check, sb.Total, sb.ToFirst = 0, 0, 0, 0
	if sa != sb {
		t.Errorf("statistics differ:\n%+v\n%+v", sa, sb)
	}
	if len(a.Canonical) != len(b.Canonical) {
		t.Fatalf("%d canonical histories, then %d", len(a.Canonical), len(b.Canonical))
	}
	for i := range a.Canonical {
		if !a.Canonical[i].History.Equal(&b.Canonical[i].History) || a.Canonical[i].Linearizable != b.Canonical[i].Linearizable {
			t.Fatalf("canonical history %d differs", i)
		}
	}
}

// SnapshotIsolation checks that every schedule DPOR explores in sys, replayed from the
// initial state, ends in the fingerprint and the history the stateful run reached: the
// system's Clone methods share nothing between branches.
func SnapshotIsolation(t *testing.T, sys model.System) {
	t.Helper()
	type end struct {
		ids    []uint64
		fp     uint64
		events []histories.Event
	}
	var ends []end
	Run(t, sys, explorer.Options{Strategy: dpor.DPOR(dpor.History()), MaxSchedules: explorer.Unlimited, OnSchedule: func(e *explorer.ScheduleEnd) {
		ids := make([]uint64, len(e.Steps))
		for i, s := range e.Steps {
			ids[i] = s.ID
		}
		ends = append(ends, end{ids, e.Fingerprint, slices.Clone(e.Events)})
	}})
	for i, e := range ends {
		ex, err := explorer.Replay(sys, e.ids, false)
		if err != nil {
			t.Fatalf("%s schedule %d: %v", sys.Name, i+1, err)
		}
		if ex.Fingerprint != e.fp || !slices.Equal(ex.Events, e.events) {
			t.Fatalf("%s schedule %d: the replay ends elsewhere than the stateful run", sys.Name, i+1)
		}
	}
}

// FastPathsAgree checks that with state caching, whose pruning depends on every field
// being fingerprinted, sys's Clone/HashState fast paths and the reflective fallbacks
// explore as much and find the same canonical histories and violations.
func FastPathsAgree(t *testing.T, sys model.System) {
	t.Helper()
	opts := explorer.Options{StateCaching: true, MaxSchedules: explorer.Unlimited}
	fast := Run(t, sys, opts)
	opts.Reflective = true
	slow := Run(t, sys, opts)
	fa, fb := Canonical(fast)
	sa, sb := Canonical(slow)
	if fast.Stats.Schedules != slow.Stats.Schedules || fast.Stats.Steps != slow.Stats.Steps || !slices.Equal(fa, sa) || !slices.Equal(fb, sb) {
		t.Errorf("%s: fast paths %d schedules, %d steps, %d histories; reflective %d, %d, %d",
			sys.Name, fast.Stats.Schedules, fast.Stats.Steps, len(fa), slow.Stats.Schedules, slow.Stats.Steps, len(sa))
	}
}

// StatefulVerdict checks a system under state caching: exhaustive search and stateful
// dpor both complete with no cut schedule, find a violation exactly when violation says,
// find the same canonical histories and violations, and dpor visits no more states.
func StatefulVerdict(t *testing.T, sys model.System, violation bool) {
	t.Helper()
	ex := Run(t, sys, explorer.Options{Strategy: dpor.Exhaustive(), StateCaching: true, MaxSchedules: explorer.Unlimited})
	dp := Run(t, sys, explorer.Options{Strategy: dpor.DPOR(dpor.History()), StateCaching: true, MaxSchedules: explorer.Unlimited})
	for _, r := range []*explorer.Result{ex, dp} {
		if !r.Complete || r.Stats.Cut != 0 {
			t.Errorf("%s: complete %v, %d cut schedules; want complete, none cut", r.Strategy, r.Complete, r.Stats.Cut)
		}
		if got := r.First != nil; got != violation {
			t.Errorf("%s: violation found = %v, want %v", r.Strategy, got, violation)
		}
	}
	ea, eb := Canonical(ex)
	da, db := Canonical(dp)
	if !slices.Equal(ea, da) || !slices.Equal(eb, db) {
		t.Errorf("dpor+caching: %d histories, %d violations; exhaustive+caching %d, %d", len(da), len(db), len(ea), len(eb))
	}
	if dp.Stats.States > ex.Stats.States {
		t.Errorf("dpor+caching visited %d states, exhaustive+caching %d", dp.Stats.States, ex.Stats.States)
	}
}
