package explorer_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/register"
)

// burstCount counts, by brute force over an abstract model, the schedules of burst(n)
// (actor 0 has sent n notes to actor 1) under fault budgets: every order of delivering,
// dropping and duplicating the pending notes, crashing either actor (a crash of actor 1
// loses every note to it) and partitioning the two actors (losing or holding the notes),
// until nothing is enabled.
type burstModel struct {
	drop, dup, crash, part int
	alive                  [2]bool
	cut, hold              bool
}

func (m burstModel) count(n int) int64 {
	var total int64
	moves := false
	if m.cut {
		// Only the heal is enabled (and a crash); held notes wait.
		h := m
		h.cut = false
		total += h.count(n)
		moves = true
	} else if n > 0 {
		total += int64(n) * m.count(n-1)
		moves = true
		if m.drop > 0 {
			d := m
			d.drop--
			total += int64(n) * d.count(n-1)
		}
		if m.dup > 0 {
			d := m
			d.dup--
			total += int64(n) * d.count(n)
		}
	}
	if m.crash > 0 {
		for a := 0; a < 2; a++ {
			if !m.alive[a] {
				continue
			}
			c := m
			c.crash--
			c.alive[a] = false
			k := n
			if a == 1 {
				k = 0
			}
			total += c.count(k)
			moves = true
		}
	}
	if !m.cut && m.part > 0 {
		p := m
		p.part--
		p.cut = true
		k := n
		if !m.hold {
			k = 0
		}
		total += p.count(k)
		moves = true
	}
	if !moves {
		return 1
	}
	return total
}

// TestFaultScheduleCounts checks exhaustive schedule counts with each fault budget against
// the brute-force count of the abstract model, and budgets 0 against k!.
func TestFaultScheduleCounts(t *testing.T) {
	tests := []struct {
		f model.Faults
		n int
	}{
		{model.Faults{}, 3},
		{model.Faults{Drop: 1}, 3},
		{model.Faults{Drop: 2}, 3},
		{model.Faults{Duplicate: 1}, 3},
		{model.Faults{Duplicate: 2}, 2},
		{model.Faults{Drop: 1, Duplicate: 1}, 3},
		{model.Faults{Crash: 1}, 3},
		{model.Faults{Crash: 2}, 3},
		{model.Faults{Partition: 1}, 3},
		{model.Faults{Partition: 2}, 3},
		{model.Faults{Partition: 2, Hold: true}, 3},
		{model.Faults{Drop: 1, Duplicate: 1, Crash: 1, Partition: 1}, 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v/%d notes", tt.f, tt.n), func(t *testing.T) {
			sys := burst(tt.n, model.Unordered)
			sys.Faults = tt.f
			res := mustRun(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
			m := burstModel{drop: tt.f.Drop, dup: tt.f.Duplicate, crash: tt.f.Crash, part: tt.f.Partition, alive: [2]bool{true, true}, hold: tt.f.Hold}
			t.Logf("%d schedules", res.Stats.Schedules)
			if got, want := res.Stats.Schedules, m.count(tt.n); got != want {
				t.Errorf("schedules = %d, want %d", got, want)
			}
			if !tt.f.Any() && res.Stats.Schedules != factorial(tt.n) {
				t.Errorf("schedules = %d without faults, want %d", res.Stats.Schedules, factorial(tt.n))
			}
			if !res.Complete {
				t.Errorf("search not complete")
			}
		})
	}
}

// TestDropClosedForm: with drop budget D, each of k notes is delivered or dropped, at
// most D dropped, in any order: k!·Σ_{j≤D} C(k, j) schedules.
func TestDropClosedForm(t *testing.T) {
	binom := func(n, k int) int64 { return factorial(n) / factorial(k) / factorial(n-k) }
	for _, k := range []int{2, 3, 4} {
		for d := 0; d <= k; d++ {
			sys := burst(k, model.Unordered)
			sys.Faults.Drop = d
			res := mustRun(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
			var want int64
			for j := 0; j <= d; j++ {
				want += binom(k, j)
			}
			want *= factorial(k)
			if res.Stats.Schedules != want {
				t.Errorf("%d notes, drop %d: schedules = %d, want %d", k, d, res.Stats.Schedules, want)
			}
		}
	}
}

// TestFaultsReplay checks that every schedule with faults replays from the initial state
// to the fingerprint the search reached, fault events included.
func TestFaultsReplay(t *testing.T) {
	sys := burst(2, model.Unordered)
	sys.Faults = model.Faults{Drop: 1, Duplicate: 1, Crash: 1, Partition: 1}
	kinds := map[dpor.EventKind]int{}
	n := 0
	opts := explorer.Options{MaxSchedules: explorer.Unlimited, OnSchedule: func(e *explorer.ScheduleEnd) {
		ids := make([]uint64, len(e.Steps))
		for i, s := range e.Steps {
			ids[i] = s.ID
			kinds[s.Kind]++
		}
		ex, err := explorer.Replay(sys, ids, false)
		if err != nil {
			t.Fatalf("schedule %d: %v", e.Index, err)
		}
		if ex.Fingerprint != e.Fingerprint {
			t.Errorf("schedule %d: replay reached %016x, search %016x", e.Index, ex.Fingerprint, e.Fingerprint)
		}
		n++
	}}
	mustRun(t, sys, opts)
	for _, k := range []dpor.EventKind{dpor.Message, dpor.Drop, dpor.Duplicate, dpor.Crash, dpor.Partition, dpor.Heal} {
		if kinds[k] == 0 {
			t.Errorf("no schedule had a %s event", k)
		}
	}
	if n == 0 {
		t.Fatal("no schedules")
	}
}

// TestStateCachingKeepsHistoriesWithFaults: the fingerprint covers the budgets spent,
// the crashed set and the partition, so caching keeps every canonical history with
// faults on; and a stateless run explores exactly what the stateful one does.
func TestStateCachingKeepsHistoriesWithFaults(t *testing.T) {
	budgets := []model.Faults{{Drop: 1}, {Duplicate: 1}, {Crash: 1}, {Partition: 1}, {Partition: 1, Hold: true}, {Drop: 1, Crash: 1, Partition: 1}}
	for _, c := range cachingConfigs() {
		if !c.short {
			continue
		}
		for _, f := range budgets {
			t.Run(fmt.Sprintf("%s/%+v", c.name, f), func(t *testing.T) {
				sys, err := c.sys()
				if err != nil {
					t.Fatal(err)
				}
				sys.Faults = f
				budget := int64(30_000)
				off := see(t, sys, explorer.Options{MaxSchedules: budget})
				if !off.res.Complete {
					t.Skipf("more than %d schedules without caching", budget)
				}
				on := see(t, sys, explorer.Options{MaxSchedules: budget, StateCaching: true})
				if !slices.Equal(off.canonical, on.canonical) || !slices.Equal(off.violations, on.violations) {
					t.Errorf("caching on: %d histories, %d violations; off: %d, %d", len(on.canonical), len(on.violations), len(off.canonical), len(off.violations))
				}
				less := see(t, sys, explorer.Options{MaxSchedules: budget, Stateless: true})
				if less.res.Stats.Schedules != off.res.Stats.Schedules || !slices.Equal(off.canonical, less.canonical) {
					t.Errorf("stateless: %d schedules, %d histories; stateful %d, %d", less.res.Stats.Schedules, len(less.canonical), off.res.Stats.Schedules, len(off.canonical))
				}
				t.Logf("%d schedules; with caching %d schedules, %d states", off.res.Stats.Schedules, on.res.Stats.Schedules, on.res.Stats.States)
			})
		}
	}
}

// TestFaultProbability: the random sampler injects a fault with the chance the user sets.
func TestFaultProbability(t *testing.T) {
	for _, p := range []float64{1, 0.25, 0.05} {
		sys := burst(4, model.Unordered)
		sys.Faults.Drop = 4
		var faults, choices int64
		opts := explorer.Options{Strategy: dpor.Random(7), MaxSchedules: 2000, FaultProbability: p, OnSchedule: func(e *explorer.ScheduleEnd) {
			for _, s := range e.Steps {
				choices++
				if s.Kind.IsFault() {
					faults++
				}
			}
		}}
		mustRun(t, sys, opts)
		// Every state of a walk has a fault and a delivery enabled (a note is pending and
		// the budget covers every note): each step is a fault with chance p.
		got := float64(faults) / float64(choices)
		if got < p*0.8 || got > p*1.2 {
			t.Errorf("p = %v: %d of %d steps were faults (%.3f)", p, faults, choices, got)
		}
	}
}

// TestFaultsOffLeaveRunsUnchanged: with every budget 0 the fingerprints and counts are
// those of a system without the field (the counts of ravel bench are checked by its own
// tests against fixed figures).
func TestFaultsOffLeaveRunsUnchanged(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	var fps []uint64
	mustRun(t, sys, explorer.Options{MaxSchedules: 500, OnSchedule: func(e *explorer.ScheduleEnd) {
		for _, s := range e.Steps {
			if s.Kind.IsFault() {
				t.Fatalf("a fault event with every budget 0")
			}
		}
		fps = append(fps, e.Fingerprint)
	}})
	sys.Faults = model.Faults{Sides: [][]model.ID{{0}}, Hold: true, CrashStop: true} // budgets still 0
	i := 0
	mustRun(t, sys, explorer.Options{MaxSchedules: 500, OnSchedule: func(e *explorer.ScheduleEnd) {
		if e.Fingerprint != fps[i] {
			t.Fatalf("schedule %d: fingerprint %016x, want %016x", i+1, e.Fingerprint, fps[i])
		}
		i++
	}})
}

// TestLostAnswersStayOpen: when a crash or a drop loses what would have answered an
// operation, the operation stays open in the history — invoked, never answered — and
// the checker treats its outcome as unknown (the correct register stays clean).
func TestLostAnswersStayOpen(t *testing.T) {
	for _, f := range []model.Faults{{Crash: 1}, {Drop: 1}} {
		sys, err := register.New(2, "2r1w")
		if err != nil {
			t.Fatal(err)
		}
		sys.Faults = f
		open := 0
		res := mustRun(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited, OnSchedule: func(e *explorer.ScheduleEnd) {
			for _, op := range histories.Operations(sys.Harness, e.Events) {
				if op.Open {
					open++
					return
				}
			}
		}})
		if open == 0 {
			t.Errorf("%+v: no schedule left an operation open", f)
		}
		if res.First != nil || !res.Complete {
			t.Errorf("%+v: violation %v, complete %v; want none, complete", f, res.First != nil, res.Complete)
		}
	}
}

// timeoutCount counts by brute force the schedules of sinks(…) whose client may time
// out t times: the first request (if pending), any pending retry, or a timeout, until
// nothing is left.
func timeoutCount(first bool, retries, left int) int64 {
	var n int64
	if first {
		n += timeoutCount(false, retries, left)
	}
	if retries > 0 {
		n += int64(retries) * timeoutCount(first, retries-1, left)
	}
	if left > 0 {
		n += timeoutCount(first, retries+1, left-1)
	}
	if !first && retries == 0 && left == 0 {
		return 1
	}
	return n
}

// TestTimeoutScheduleCounts: a client that never hears back times out and retries up to
// its budget; the schedules are those of the brute-force count, and the operation is
// invoked once, by whichever copy of its request arrives first.
func TestTimeoutScheduleCounts(t *testing.T) {
	for tmo := 0; tmo <= 3; tmo++ {
		sys := sinks(2)
		sys.Harness.Retrying(tmo)
		invocations := 0
		res := mustRun(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited, OnSchedule: func(e *explorer.ScheduleEnd) {
			invocations = 0
			for _, ev := range e.Events {
				if ev.Kind == histories.Invoke {
					invocations++
				}
			}
			if invocations != 1 {
				t.Fatalf("timeouts %d: schedule %d invokes %d times", tmo, e.Index, invocations)
			}
		}})
		if got, want := res.Stats.Schedules, timeoutCount(true, 0, tmo); got != want {
			t.Errorf("timeouts %d: schedules = %d, want %d", tmo, got, want)
		}
	}
}

// TestTimeoutRetriesElsewhere: when the client's target crashes before its request
// arrives, a retry at the next actor gets the operation invoked and answered.
func TestTimeoutRetriesElsewhere(t *testing.T) {
	sys := fanout(2)
	sys.Harness = model.Clients(specs.Register(), model.Calls(0, specs.Write(1)))
	sys.Harness.Retrying(1)
	sys.Faults = model.Faults{Crash: 1, CrashStop: true}
	rescued := 0
	res := mustRun(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited, OnSchedule: func(e *explorer.ScheduleEnd) {
		if len(e.Steps) > 0 && e.Steps[0].Kind == dpor.Crash && e.Steps[0].To == 0 && histories.Complete(sys.Harness, e.Events) {
			rescued++
		}
	}})
	if rescued == 0 {
		t.Errorf("no schedule crashed n0 first and still completed the write by a retry")
	}
	if res.First != nil || !res.Complete {
		t.Errorf("violation %v, complete %v", res.First != nil, res.Complete)
	}
}

// TestDelayBoundedEnumeratesFaults: with a bound no schedule needs more than, delay-
// bounded search explores exactly exhaustive search's schedules, faults included; with
// bound 0, one schedule.
func TestDelayBoundedEnumeratesFaults(t *testing.T) {
	sys := burst(3, model.Unordered)
	sys.Faults = model.Faults{Drop: 1, Crash: 1, Partition: 1}
	ex := mustRun(t, sys, explorer.Options{MaxSchedules: explorer.Unlimited})
	db := mustRun(t, sys, explorer.Options{Strategy: dpor.DelayBounded(1000), MaxSchedules: explorer.Unlimited})
	if ex.Stats.Schedules != db.Stats.Schedules {
		t.Errorf("delay-bounded explored %d schedules, exhaustive %d", db.Stats.Schedules, ex.Stats.Schedules)
	}
	if one := mustRun(t, sys, explorer.Options{Strategy: dpor.DelayBounded(0), MaxSchedules: explorer.Unlimited}); one.Stats.Schedules != 1 {
		t.Errorf("delay bound 0: %d schedules, want 1", one.Stats.Schedules)
	}
}
