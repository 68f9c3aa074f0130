package explorer

import (
	"context"
	"testing"
	"time"

	"github.com/ravelmc/ravel/samplers"
)

// TestCalibrationInterrupted: a cancelled context ends a sampler's calibration at once,
// with an interrupted result and no run, instead of running every calibration run first.
func TestCalibrationInterrupted(t *testing.T) {
	deliveries := 0
	fig3 := newShape([][3]string{{"A", "1", ""}, {"C", "1", ""}, {"E", "2", ""}, {"B", "1", "A"}, {"D", "3", "C"}, {"F", "2", "E"}}, 1,
		func([]string) bool { deliveries++; return false })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, fig3.system(4), Options{Sampling: samplers.TaPCT(samplers.Options{Calibration: 5000}), Seed: 1, MaxSchedules: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stats.Interrupted || res.Complete {
		t.Errorf("interrupted %v, complete %v: want an interrupted, incomplete result", res.Stats.Interrupted, res.Complete)
	}
	if deliveries > 10 {
		t.Errorf("actor 1 received %d messages after the context ended: the calibration ran on", deliveries)
	}
	if res.Sampling == nil || res.Sampling.Runs != 0 || res.Sampling.Calibration != nil {
		t.Errorf("sampling %+v: want a session with no run and no calibration", res.Sampling)
	}
}

// TestCalibrationProgress: a long calibration reports progress, saying it is
// calibrating and how far it is.
func TestCalibrationProgress(t *testing.T) {
	fig3 := newShape([][3]string{{"A", "1", ""}, {"C", "1", ""}, {"E", "2", ""}, {"B", "1", "A"}, {"D", "3", "C"}, {"F", "2", "E"}}, 1,
		func([]string) bool { return false })
	var seen []int
	_, err := Run(context.Background(), fig3.system(4), Options{Sampling: samplers.TaPCT(samplers.Options{Calibration: 50}), Seed: 1, MaxSchedules: 1,
		ProgressEvery: time.Nanosecond, Progress: func(s Stats) {
			if s.CalibrationRuns > 0 {
				if s.CalibrationRuns != 50 {
					t.Errorf("calibration runs %d, want 50", s.CalibrationRuns)
				}
				seen = append(seen, s.Calibrating)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 || seen[len(seen)-1] < 1 || seen[len(seen)-1] >= 50 {
		t.Errorf("calibration progress %v: want reports of runs 1…49 done of 50", seen)
	}
}
