package explorer

import (
	"testing"
	"time"

	"github.com/ravelmc/ravel/systems/gossip"
)

// TestProgressWithinSchedule: a long schedule of a large system reports progress as it
// goes, not only between schedules (issue 17 item 8: one schedule of 200 gossip agents
// ran 35 s without a progress line). With a progress interval shorter than a step, the
// search reports about every pollMask+1 steps; before, it looked every 1,024.
func TestProgressWithinSchedule(t *testing.T) {
	sys, err := gossip.New(16, "writes")
	if err != nil {
		t.Fatal(err)
	}
	var within int // reports before the first schedule ended
	res, err := Run(t.Context(), sys, Options{MaxSchedules: 1, ProgressEvery: time.Nanosecond,
		Progress: func(s Stats) {
			if s.Schedules == 0 {
				within++
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	steps := res.Stats.Steps
	if want := int(steps/(pollMask+1)) - 1; within < want || within < 2 {
		t.Errorf("%d progress reports within one schedule of %d steps; want at least %d (one every %d steps)",
			within, steps, max(want, 2), pollMask+1)
	}
}
