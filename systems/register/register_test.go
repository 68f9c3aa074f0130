package register_test

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/register"
)

// TestDS2Counts: exhaustive search explores exactly the schedules of the closed form,
// which are DS2's EX figures (Tables A2 and A4); the correct register has no violation and
// the erroneous one does.
func TestDS2Counts(t *testing.T) {
	tests := []struct {
		name      string
		build     func(int, string) (model.System, error)
		agents    int
		harness   string
		schedules int64 // the paper's #S for EX
		violation bool
	}{
		// Write: request, WriteReplica, ack (3 steps); read at n1: request, forward,
		// ReadReplica, ack (4); read at n0: 3. 10!/(3!·4!·3!) = 4,200.
		{"register 2r1w: 10!/(3!4!3!) schedules", register.New, 2, "2r1w", 4_200, false},
		{"register-buggy 2r1w", register.NewBuggy, 3, "2r1w", 252, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, err := tt.build(tt.agents, tt.harness)
			if err != nil {
				t.Fatal(err)
			}
			res, err := explorer.Run(context.Background(), sys, explorer.Options{MaxSchedules: explorer.Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.Schedules != tt.schedules || !res.Complete {
				t.Errorf("schedules = %d (complete %v), want %d", res.Stats.Schedules, res.Complete, tt.schedules)
			}
			if got := res.First != nil; got != tt.violation {
				t.Errorf("violation found = %v, want %v", got, tt.violation)
			}
			if tt.violation && res.First.Kind != "nonlinearizable" {
				t.Errorf("finding is a %s, want nonlinearizable", res.First.Kind)
			}
		})
	}
}

func TestBadParameters(t *testing.T) {
	if _, err := register.New(0, "2r1w"); err == nil {
		t.Errorf("0 agents accepted")
	}
	if _, err := register.New(2, "3r3w"); err == nil {
		t.Errorf("unknown harness accepted")
	}
}
