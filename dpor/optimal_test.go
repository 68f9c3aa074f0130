package dpor_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
)

// traceOf is the Mazurkiewicz trace of a schedule under the actor relation, written as
// the lexicographically least (by event identity) linearization of its happens-before
// order: step i before step j when they deliver to the same actor, i first, or step i
// sent what step j delivers; transitively. Two schedules are equivalent (one is the
// other with adjacent independent steps swapped) exactly when their traces are equal.
// It is computed from the steps alone, independently of the strategies' own clocks.
func traceOf(steps []dpor.Event) string {
	n := len(steps)
	preds := make([][]int, n) // direct predecessors
	for j := range steps {
		for i := 0; i < j; i++ {
			if steps[i].To == steps[j].To || steps[j].Parent == i {
				preds[j] = append(preds[j], i)
			}
		}
	}
	placed := make([]bool, n)
	var b strings.Builder
	for range n {
		best := -1
		for j := range steps {
			if placed[j] {
				continue
			}
			ready := true
			for _, i := range preds[j] {
				ready = ready && placed[i]
			}
			if ready && (best < 0 || steps[j].ID < steps[best].ID) {
				best = j
			}
		}
		placed[best] = true
		fmt.Fprintf(&b, "%x.", steps[best].ID)
	}
	return b.String()
}

// tracesOf runs sys under s and returns the trace of every schedule, in the order
// explored, with the result.
func tracesOf(t *testing.T, sys model.System, s dpor.Strategy, budget int64) ([]string, *explorer.Result) {
	t.Helper()
	var traces []string
	res, err := explorer.Run(context.Background(), sys, explorer.Options{Strategy: s, MaxSchedules: budget, OnSchedule: func(e *explorer.ScheduleEnd) {
		traces = append(traces, traceOf(e.Steps))
	}})
	if err != nil {
		t.Fatal(err)
	}
	return traces, res
}

// TestOptimalDPORExploresOneSchedulePerTrace is the oracle for optimal DPOR: under the
// actor relation it explores exactly one schedule of every Mazurkiewicz trace. The
// traces are counted by brute force: exhaustive search enumerates every complete
// schedule of a random protocol, each is reduced to its trace (traceOf), and the distinct
// ones are counted. Optimal DPOR must explore as many schedules as there are traces,
// pairwise inequivalent, covering all of them, with no path blocked by a sleep set.
// Source-set DPOR covers every trace too, with redundant schedules or blocked paths on
// some systems (the test requires at least one such system, so that it would notice an
// optimal DPOR that is not).
func TestOptimalDPORExploresOneSchedulePerTrace(t *testing.T) {
	compared, sourceWaste := 0, 0
	var srcBlocked, srcSchedules, opSchedules int64
	for seed := uint64(0); seed < 60; seed++ {
		sys := randomSystem(seed)
		t.Run(sys.Name, func(t *testing.T) {
			ex, exRes := tracesOf(t, sys, dpor.Exhaustive(), randomBudget)
			if !exRes.Complete || exRes.Stats.Cut > 0 {
				t.Skipf("more than %d schedules, or cut by the depth bound", int64(randomBudget))
			}
			compared++
			all := map[string]bool{}
			for _, tr := range ex {
				all[tr] = true
			}
			s := dpor.Optimal(dpor.Actor())
			op, res := tracesOf(t, sys, s, explorer.Unlimited)
			seen := map[string]bool{}
			for _, tr := range op {
				if seen[tr] {
					t.Errorf("two explored schedules are equivalent: %s", tr)
				}
				seen[tr] = true
				if !all[tr] {
					t.Errorf("explored a trace exhaustive search never saw: %s", tr)
				}
			}
			if len(op) != len(all) || len(seen) != len(all) {
				t.Errorf("optimal dpor explored %d schedules (%d traces), there are %d traces (of %d schedules)", len(op), len(seen), len(all), len(ex))
			}
			if res.Stats.SleepBlocked != 0 {
				t.Errorf("optimal dpor: %d paths blocked by sleep sets, want 0", res.Stats.SleepBlocked)
			}
			if lost := s.(interface{ Lost() int64 }).Lost(); lost != 0 {
				t.Errorf("optimal dpor: %d wakeup-tree events could not be explored, want 0", lost)
			}
			src, srcRes := tracesOf(t, sys, dpor.DPOR(dpor.Actor()), explorer.Unlimited)
			srcSeen := map[string]bool{}
			for _, tr := range src {
				srcSeen[tr] = true
			}
			if len(srcSeen) != len(all) {
				t.Errorf("source dpor covered %d traces of %d", len(srcSeen), len(all))
			}
			if len(src) > len(srcSeen) || srcRes.Stats.SleepBlocked > 0 {
				sourceWaste++
			}
			srcBlocked += srcRes.Stats.SleepBlocked
			srcSchedules += int64(len(src))
			opSchedules += int64(len(op))
		})
	}
	t.Logf("totals over %d protocols: dpor-source %d schedules, %d paths blocked by sleep sets (on %d protocols); dpor %d schedules, none blocked",
		compared, srcSchedules, srcBlocked, sourceWaste, opSchedules)
	if compared < 40 {
		t.Errorf("only %d random protocols were small enough to compare, want at least 40", compared)
	}
	if sourceWaste == 0 {
		t.Errorf("source dpor was optimal on every system: the oracle cannot tell optimal from source dpor")
	}
}

// TestTraceOf checks the brute-force canonicalization on its own: swapping adjacent
// independent steps keeps the trace; swapping dependent ones changes it.
func TestTraceOf(t *testing.T) {
	a := dpor.Event{ID: 1, To: 0, Parent: -1}
	b := dpor.Event{ID: 2, To: 1, Parent: -1}
	c := dpor.Event{ID: 3, To: 0, Parent: -1}
	d := dpor.Event{ID: 4, To: 1, Parent: 0} // sent by the first step
	tests := []struct {
		name string
		x, y []dpor.Event
		same bool
	}{
		{"independent swap", []dpor.Event{a, b}, []dpor.Event{b, a}, true},
		{"same receiver", []dpor.Event{a, c}, []dpor.Event{c, a}, false},
		{"independent swap in the middle", []dpor.Event{a, b, c}, []dpor.Event{b, a, c}, true},
		{"sent-by order kept", []dpor.Event{a, b, d}, []dpor.Event{a, d, b}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := slices.Clone(tt.y)
			// Parent is a path index: recompute it for the reordered schedule.
			for j := range y {
				if y[j].ID == d.ID {
					y[j].Parent = slices.IndexFunc(y, func(e dpor.Event) bool { return e.ID == a.ID })
				}
			}
			if got := traceOf(tt.x) == traceOf(y); got != tt.same {
				t.Errorf("same trace = %v, want %v (%s vs %s)", got, tt.same, traceOf(tt.x), traceOf(y))
			}
		})
	}
}
