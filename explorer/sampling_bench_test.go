package explorer

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/systems/adr"
	"github.com/ravelmc/ravel/systems/chord"
	"github.com/ravelmc/ravel/systems/paxos"
	"github.com/ravelmc/ravel/systems/register"
)

// BenchmarkSamplers measures schedules per second of every sampler on the DS2 systems'
// buggy variants (2r2w), beside the random walk's: the chain bookkeeping must stay cheap
// (target: within 1.5× of the random walk). Calibration runs are included.
func BenchmarkSamplers(b *testing.B) {
	systems := []struct {
		name string
		sys  func() (model.System, error)
	}{
		{"register-buggy", func() (model.System, error) { return register.NewBuggy(3, "2r2w") }},
		{"adr-buggy", func() (model.System, error) { return adr.NewBuggy(2, adr.DefaultRetries, "2r2w") }},
		{"paxos-buggy", func() (model.System, error) { return paxos.NewBuggy(2, paxos.DefaultRetries, "2r2w") }},
		{"chord", func() (model.System, error) { return chord.New(2, "2r2w") }},
	}
	for _, sc := range systems {
		for _, name := range []string{"random", "rapos", "pos", "pctcp", "tapct", "dpos"} {
			b.Run(sc.name+"/"+name, func(b *testing.B) {
				sys, err := sc.sys()
				if err != nil {
					b.Fatal(err)
				}
				cfg, err := samplers.New(name, samplers.Options{})
				if err != nil {
					b.Fatal(err)
				}
				var schedules, steps int64
				var secs float64
				for b.Loop() {
					res, err := Run(context.Background(), sys, Options{Sampling: cfg, Seed: 1, MaxSchedules: 2000})
					if err != nil {
						b.Fatal(err)
					}
					schedules += res.Stats.Schedules
					steps += res.Stats.Steps
					secs += res.Stats.Explore.Seconds()
				}
				b.ReportMetric(float64(schedules)/secs, "schedules/s")
				b.ReportMetric(float64(steps)/secs, "steps/s")
			})
		}
	}
}
