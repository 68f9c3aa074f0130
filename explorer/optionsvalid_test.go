package explorer_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
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
