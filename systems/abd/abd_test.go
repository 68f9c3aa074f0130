package abd_test

import (
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/abd"
	"github.com/ravelmc/ravel/systems/systemstest"
)

// TestVerdicts: with state caching, exhaustive search completes on the correct register
// without a violation and finds the buggy one's; dpor with caching completes too, with
// no cut schedule, the same canonical histories and violations, in no more states.
func TestVerdicts(t *testing.T) {
	tests := []struct {
		name      string
		build     func(int, string) (model.System, error)
		harness   string
		violation bool
		long      bool
	}{
		{"abd 1w1r", abd.New, "1w1r", false, false},
		{"abd-buggy 1w2r-seq", abd.NewBuggy, "1w2r-seq", true, false},
		{"abd-buggy 1w2r", abd.NewBuggy, "1w2r", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long && testing.Short() {
				t.Skip("hundreds of thousands of states; skipped with -short")
			}
			sys, err := tt.build(3, tt.harness)
			if err != nil {
				t.Fatal(err)
			}
			systemstest.StatefulVerdict(t, sys, tt.violation)
		})
	}
}

func TestFastPaths(t *testing.T) {
	sys, err := abd.NewBuggy(3, "1w1r")
	if err != nil {
		t.Fatal(err)
	}
	systemstest.FastPathsAgree(t, sys)
	systemstest.Deterministic(t, sys, explorer.Options{StateCaching: true, MaxSchedules: explorer.Unlimited})
}

func TestBadParameters(t *testing.T) {
	if _, err := abd.New(2, "1w2r"); err == nil {
		t.Errorf("2 replicas accepted")
	}
	if _, err := abd.New(3, "9w"); err == nil {
		t.Errorf("unknown harness accepted")
	}
}
