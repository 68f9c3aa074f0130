package explorer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
)

func factorial(n int) int64 {
	f := int64(1)
	for i := 2; i <= n; i++ {
		f *= int64(i)
	}
	return f
}

func mustRun(t *testing.T, sys model.System, opts explorer.Options) *explorer.Result {
	t.Helper()
	res, err := explorer.Run(context.Background(), sys, opts)
	if err != nil {
		t.Fatalf("Run(%s): %v", sys.Name, err)
	}
	return res
}

// mustFind runs sys with opts and returns the finding the run must make.
func mustFind(t *testing.T, sys model.System, opts explorer.Options) *explorer.Violation {
	t.Helper()
	v := mustRun(t, sys, opts).First
	if v == nil {
		t.Fatalf("Run(%s): no finding", sys.Name)
	}
	return v
}

// TestClosedForms checks exhaustive schedule counts against formulas on systems whose
// interleavings can be counted by hand.
func TestClosedForms(t *testing.T) {
	tests := []struct {
		name     string
		sys      model.System
		want     int64
		maxDepth int
	}{
		{"1 message to 1 actor: 1 schedule", fanout(1), 1, 1},
		{"3 independent messages to 3 actors: 3! schedules", fanout(3), factorial(3), 3},
		{"5 independent messages to 5 actors: 5! schedules", fanout(5), factorial(5), 5},
		{"a ping-pong chain of 1: 1 schedule", pingPong(1), 1, 3},
		{"a ping-pong chain of 9: 1 schedule", pingPong(9), 1, 11},
		{"4 notes on an unordered network: 4! schedules", burst(4, model.Unordered), factorial(4), 4},
		{"4 notes on a FIFO channel: 1 schedule", burst(4, model.FIFO), 1, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRun(t, tt.sys, explorer.Options{MaxSchedules: explorer.Unlimited})
			if got := res.Stats.Schedules; got != tt.want {
				t.Errorf("schedules = %d, want %d", got, tt.want)
			}
			if got := res.Stats.MaxDepth; got != tt.maxDepth {
				t.Errorf("longest schedule = %d steps, want %d", got, tt.maxDepth)
			}
			if !res.Complete {
				t.Errorf("search not complete")
			}
			if res.First != nil {
				t.Errorf("unexpected violation: %+v", res.First)
			}
		})
	}
}

// TestBudgets checks that the schedule and depth budgets stop the search and say so.
func TestBudgets(t *testing.T) {
	t.Run("max schedules", func(t *testing.T) {
		res := mustRun(t, fanout(5), explorer.Options{MaxSchedules: 7})
		if res.Stats.Schedules != 7 || res.Complete {
			t.Errorf("schedules = %d, complete = %v; want 7, false", res.Stats.Schedules, res.Complete)
		}
	})
	t.Run("max depth cuts every schedule", func(t *testing.T) {
		res := mustRun(t, pingPong(9), explorer.Options{MaxDepth: 4})
		if res.Stats.Schedules != 1 || res.Stats.Cut != 1 || res.Complete {
			t.Errorf("schedules = %d, cut = %d, complete = %v; want 1, 1, false", res.Stats.Schedules, res.Stats.Cut, res.Complete)
		}
		if res.Stats.Incomplete != 1 {
			t.Errorf("incomplete histories = %d, want 1 (the write never returned)", res.Stats.Incomplete)
		}
	})
	t.Run("max states", func(t *testing.T) {
		for _, strat := range []dpor.Strategy{dpor.Exhaustive(), dpor.DPOR(dpor.History())} {
			full := mustRun(t, fanout(5), explorer.Options{Strategy: strat, StateCaching: true, MaxSchedules: explorer.Unlimited})
			n := full.Stats.States
			if !full.Complete || n < 10 {
				t.Fatalf("%s: the unbounded search: %d states, complete %v; want at least 10, true", strat.Name(), n, full.Complete)
			}
			for _, c := range []struct {
				max      int64
				complete bool
			}{{n / 2, false}, {n - 1, false}, {n + 1, true}} {
				res := mustRun(t, fanout(5), explorer.Options{Strategy: strat, StateCaching: true, MaxSchedules: explorer.Unlimited, MaxStates: c.max})
				want := min(c.max, n)
				if res.Stats.States != want || res.Complete != c.complete {
					t.Errorf("%s, MaxStates %d: states = %d, complete = %v; want %d, %v", strat.Name(), c.max, res.Stats.States, res.Complete, want, c.complete)
				}
			}
		}
	})
	t.Run("max states refused", func(t *testing.T) {
		for _, c := range []struct {
			opts explorer.Options
			want string
		}{
			{explorer.Options{MaxStates: 10}, "needs StateCaching"},
			{explorer.Options{MaxStates: -1, StateCaching: true}, "0 (no limit) or positive"},
		} {
			_, err := explorer.Run(context.Background(), fanout(3), c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("MaxStates %d, caching %v: err = %v; want one that says %q", c.opts.MaxStates, c.opts.StateCaching, err, c.want)
			}
		}
	})
	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := explorer.Run(ctx, fanout(6), explorer.Options{MaxSchedules: explorer.Unlimited})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Stats.Interrupted || res.Complete {
			t.Errorf("interrupted = %v, complete = %v; want true, false", res.Stats.Interrupted, res.Complete)
		}
	})
}
