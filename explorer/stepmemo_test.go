package explorer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// checkRow is a system the tests of the checks' shortcuts search, with stateful DPOR's
// context-sensitive sleep sets.
type checkRow struct {
	name    string
	sys     model.System
	reverse bool // explore the newest events first (enabledHook)
}

// checkRows are the systems of the tests that a shortcut of the checks (the step memo,
// kept check runs) changes nothing: shipped systems, random cyclic ones in FIFO order
// with each kind of fault, and answers, whose one actor answers a request twice.
func checkRows(t *testing.T) []checkRow {
	t.Helper()
	var rows []checkRow
	for _, name := range []string{"register/2r2w", "abd/1w2r-seq", "leader/1rw", "leader-buggy/1w1r", "chord/2r1w", "chord-fixed/2r1w", "paxos/2r1w", "abd-buggy/1w2r", "gossip/rw"} {
		sysName, harness, _ := strings.Cut(name, "/")
		rows = append(rows, checkRow{name, shippedWith(t, sysName, harness, model.Faults{}), false})
	}
	rows = append(rows, checkRow{"leader/1rw/crash", shippedWith(t, "leader", "1rw", model.Faults{Crash: 1}), false})
	// Newest first, paxos 2r1w meets pairs whose two orders reach one state but answer a
	// client in different steps: the memo must keep what each step did.
	rows = append(rows, checkRow{"paxos/2r1w/newest-first", shippedWith(t, "paxos", "2r1w", model.Faults{}), true})
	rows = append(rows, checkRow{"answers", model.System{Name: "answers", Actors: []model.Actor{&answerer{Order: []int{1, 1, 2}}, &answerer{}, &answerer{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read(), specs.Read()))}, false})
	faults := []struct {
		name string
		f    model.Faults
	}{{"none", model.Faults{}}, {"drop", model.Faults{Drop: 1}}, {"duplicate", model.Faults{Duplicate: 1}}, {"crash-restart", model.Faults{Crash: 1}},
		{"crash-stop", model.Faults{Crash: 1, CrashStop: true}}, {"partition", model.Faults{Partition: 1}}}
	for i, f := range faults {
		for _, seed := range []uint64{19, 58, 97, 101} {
			sys := randsys.NewCyclic(seed + uint64(i))
			sys.Network, sys.Faults = model.FIFO, f.f
			rows = append(rows, checkRow{fmt.Sprintf("cyclic-%d-fifo/%s", seed+uint64(i), f.name), sys, false})
		}
	}
	return rows
}

// withOrder runs f with the search exploring the newest events first when reverse.
func withOrder(reverse bool, f func()) {
	if reverse {
		enabledHook = func(evs []dpor.Event, idx []int) {
			slices.Reverse(evs)
			slices.Reverse(idx)
		}
		defer func() { enabledHook = nil }()
	}
	f()
}

// shortcutChangesNothing searches each of checkRows twice with stateful DPOR: with a
// shortcut of the checks on and probe(true) installed, then with it off (*off) and
// probe(false); the two searches must count the same (sameSearchStats). It returns the
// number of rows. probe is given the row's subtest, for what it reports.
func shortcutChangesNothing(t *testing.T, off *bool, name string, probe func(t *testing.T, on bool)) int {
	t.Helper()
	rows := checkRows(t)
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			withOrder(tc.reverse, func() {
				probe(t, true)
				a := statefulSearch(t, tc.sys, off, false)
				probe(t, false)
				b := statefulSearch(t, tc.sys, off, true)
				sameSearchStats(t, name, a, "without", b)
			})
		})
	}
	return len(rows)
}

// statefulSearch runs stateful DPOR with caching to completion on sys, with the knob
// *off (a test's switch that turns a shortcut off) set to turnOff for the run, and
// returns its statistics.
func statefulSearch(t *testing.T, sys model.System, off *bool, turnOff bool) Stats {
	t.Helper()
	*off = turnOff
	defer func() { *off = false }()
	res, err := Run(t.Context(), sys, Options{Strategy: dpor.StatefulDPOR(dpor.History()), StateCaching: true, MaxSchedules: Unlimited})
	if err != nil || !res.Complete {
		t.Fatalf("err %v, complete %v", err, res != nil && res.Complete)
	}
	return res.Stats
}

// sameSearchStats fails t unless a and b count the same search: states, states explored
// again, revisits, steps, steps peeked, schedules and canonical histories.
func sameSearchStats(t *testing.T, aName string, a Stats, bName string, b Stats) {
	t.Helper()
	if a.States != b.States || a.ExploredAgain != b.ExploredAgain || a.Revisits != b.Revisits || a.Steps != b.Steps || a.Peeked != b.Peeked || a.Schedules != b.Schedules || a.Canonical != b.Canonical {
		t.Errorf("%s %d states, %d again, %d revisits, %d steps, %d peeked, %d schedules, %d canonical; %s %d, %d, %d, %d, %d, %d, %d",
			aName, a.States, a.ExploredAgain, a.Revisits, a.Steps, a.Peeked, a.Schedules, a.Canonical,
			bName, b.States, b.ExploredAgain, b.Revisits, b.Steps, b.Peeked, b.Schedules, b.Canonical)
	}
}

// TestStepMemoChangesNothing: a check that recalls its steps from the step memo answers
// what its three runs would (every such answer is compared with the runs' as the search
// goes), and stateful DPOR explores exactly the same search with and without the memo.
// The random systems re-arm timers, forward in cycles and deliver in FIFO order, with
// each kind of fault; answers makes one actor answer a request twice, so that the effects
// the memo keeps decide the answer.
func TestStepMemoChangesNothing(t *testing.T) {
	probed := 0
	rows := shortcutChangesNothing(t, &noStepMemo, "with the memo", func(t *testing.T, on bool) {
		stepMemoProbe = nil
		if on {
			stepMemoProbe = func(memo bool, ms memoScope, runs bool, rs memoScope) {
				probed++
				if memo != runs || ms != rs {
					t.Errorf("the memo answered %v (scope %d), the runs %v (scope %d)", memo, ms, runs, rs)
				}
			}
		}
	})
	// The memo must have answered: a test of answers it never gave passes vacuously.
	if probed < 1000 {
		t.Errorf("the memo answered %d checks over %d searches, want at least 1000", probed, rows)
	}
	t.Logf("%d answers of the memo compared with the runs over %d searches", probed, rows)
}
