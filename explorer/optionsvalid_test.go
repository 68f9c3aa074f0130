package explorer_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/systems/register"
)

// TestRunRefusesUndefinedBudgets: budgets whose docs give them no meaning — a
// MaxSchedules or MaxDepth below Unlimited, a FaultProbability outside 0 to 1 — are
// refused with the field named (they were accepted silently: API probe, N1); the values
// the docs define run.
func TestRunRefusesUndefinedBudgets(t *testing.T) {
	sys, err := register.New(2, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts explorer.Options
		want string // "" for none
	}{
		{"schedules -5", explorer.Options{MaxSchedules: -5}, "MaxSchedules must be"},
		{"depth -5", explorer.Options{MaxDepth: -5}, "MaxDepth must be"},
		{"probability 2", explorer.Options{FaultProbability: 2}, "FaultProbability is a chance"},
		{"probability -0.1", explorer.Options{FaultProbability: -0.1}, "FaultProbability is a chance"},
		{"probability NaN", explorer.Options{FaultProbability: math.NaN()}, "FaultProbability is a chance"},
		{"unlimited", explorer.Options{MaxSchedules: explorer.Unlimited, MaxDepth: explorer.Unlimited, FaultProbability: 1}, ""},
		{"defaults", explorer.Options{MaxSchedules: 10, FaultProbability: 0.5}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := explorer.Run(context.Background(), sys, c.opts)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Run: %v, want no error", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("Run: %v, want %q", err, c.want)
			}
		})
	}
}

// TestRunRefusesEndlessSamplers: a sampler — Options.Sampling, or the random strategy —
// with MaxSchedules Unlimited never ends by itself, and Run refuses it with ravel
// check's message (it ran until go test's timeout, its memory growing: raveltest probe,
// S11); Sampling and a Strategy together are refused (the sampler ran and the result
// named the strategy: S12). Each case is stopped after 2,000 schedules should Run accept it.
func TestRunRefusesEndlessSamplers(t *testing.T) {
	sys, err := register.New(2, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	tapct := samplers.TaPCT(samplers.Options{Depth: 2})
	for _, c := range []struct {
		name string
		opts explorer.Options
		want string
	}{
		{"tapct unlimited", explorer.Options{Sampling: tapct, Seed: 1, MaxSchedules: explorer.Unlimited},
			"the tapct strategy never ends by itself: give it a MaxSchedules budget"},
		{"random walk unlimited", explorer.Options{Sampling: samplers.RandomWalk(), MaxSchedules: explorer.Unlimited}, "never ends by itself"},
		{"random strategy unlimited", explorer.Options{Strategy: dpor.Random(1), MaxSchedules: explorer.Unlimited},
			"the random strategy never ends by itself: give it a MaxSchedules budget"},
		{"strategy and sampling", explorer.Options{Strategy: dpor.Optimal(dpor.History()), Sampling: tapct, Seed: 1, MaxSchedules: 100},
			"both Strategy (dpor) and Sampling (tapct) are set"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.opts.OnSchedule = func(e *explorer.ScheduleEnd) {
				if e.Index >= 2000 {
					cancel()
				}
			}
			res, err := explorer.Run(ctx, sys, c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) || res != nil {
				var ran string
				if res != nil {
					ran = fmt.Sprintf("; it ran %d schedules as strategy %q", res.Stats.Schedules, res.Strategy)
				}
				t.Errorf("Run: %v%s; want a refusal containing %q", err, ran, c.want)
			}
		})
	}
	// The budgets that end still run.
	for _, opts := range []explorer.Options{{Sampling: tapct, Seed: 1}, {Sampling: tapct, Seed: 1, MaxSchedules: 5}, {Strategy: dpor.Random(1), MaxSchedules: 5}} {
		if _, err := explorer.Run(context.Background(), sys, opts); err != nil {
			t.Errorf("Run with MaxSchedules %d: %v", opts.MaxSchedules, err)
		}
	}
}
