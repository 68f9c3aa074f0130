package explorer

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/systems/register"
)

// BenchmarkStep measures one step on the register — copying the receiving actor,
// running its handler, fingerprinting it and the messages it sends — averaged over the
// events enabled a few steps into a 2r2w run.
func BenchmarkStep(b *testing.B) {
	for _, mode := range []struct {
		name       string
		reflective bool
	}{{"fast", false}, {"reflective", true}} {
		b.Run(mode.name, func(b *testing.B) {
			sys, err := register.New(2, "2r2w")
			if err != nil {
				b.Fatal(err)
			}
			x, err := newExecutor(&sys, mode.reflective)
			if err != nil {
				b.Fatal(err)
			}
			s, _, _ := x.initial()
			var log []histories.Event
			// Walk a few steps in so that the state holds writes and reads in flight.
			for d := 0; d < 4; d++ {
				s, log, _ = x.step(s, 0, d, log)
			}
			evs, idx := x.enabled(s, nil, nil)
			if len(evs) == 0 {
				b.Fatal("nothing enabled")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				k := idx[i%len(idx)]
				if _, _, f := x.step(s, k, 4, log); f != nil {
					b.Fatal(f.msg)
				}
			}
		})
	}
}

// BenchmarkExhaustive measures whole exhaustive runs of the register and reports
// schedules per second of exploring (checking excluded, as the paper's TS).
func BenchmarkExhaustive(b *testing.B) {
	for _, bc := range []struct {
		name       string
		harness    string
		reflective bool
		budget     int64
	}{
		{"register-2r1w", "2r1w", false, Unlimited},
		{"register-2r2w", "2r2w", false, Unlimited},
		{"register-2r1w-reflective", "2r1w", true, Unlimited},
		// The reflective fallback is about 20× slower; its rate is measured on the
		// first 200,000 schedules rather than all 4,204,200.
		{"register-2r2w-reflective-200k", "2r2w", true, 200_000},
	} {
		b.Run(bc.name, func(b *testing.B) {
			sys, err := register.New(2, bc.harness)
			if err != nil {
				b.Fatal(err)
			}
			var schedules int64
			var secs float64
			for b.Loop() {
				res, err := Run(context.Background(), sys, Options{MaxSchedules: bc.budget, Reflective: bc.reflective})
				if err != nil {
					b.Fatal(err)
				}
				if bc.budget == Unlimited && !res.Complete {
					b.Fatal("incomplete")
				}
				schedules += res.Stats.Schedules
				secs += res.Stats.Explore.Seconds()
			}
			b.ReportMetric(float64(schedules)/secs, "schedules/s")
		})
	}
}
