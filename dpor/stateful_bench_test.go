package dpor_test

import (
	"context"
	"os"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems"
)

// BenchmarkStatefulDPOR sets dpor with state caching against exhaustive search with
// state caching on the configurations where the stateful strategy's cost per state
// shows most (docs/strategies.md, "Measured: states, schedules and time"); it reports
// states per second of exploring, and the process's CPU time (user + system, the
// collector's included) per run: on a shared machine the wall time moves with the load
// far more than the CPU time does. RAVEL_BENCH_LARGE=1 adds the largest configurations.
func BenchmarkStatefulDPOR(b *testing.B) {
	configs := []struct{ sys, harness string }{
		{"register", "2r2w"},
		{"abd", "1w2r-seq"},
		{"adr-buggy", "2r2w"},
		{"leader", "1rw"},
	}
	if os.Getenv("RAVEL_BENCH_LARGE") != "" {
		// Seconds to tens of seconds a run each: the configurations stateful DPOR once
		// did not complete in a minute of wall time under load.
		configs = append(configs, []struct{ sys, harness string }{
			{"adr", "2r2w"}, {"leader", "1w1r"}, {"leader-buggy", "1w1r"},
		}...)
	}
	for _, bc := range configs {
		e, err := systems.Lookup(bc.sys)
		if err != nil {
			b.Fatal(err)
		}
		sys, err := e.New(systems.Config{Harness: bc.harness, Retries: -1})
		if err != nil {
			b.Fatal(err)
		}
		for _, strat := range []string{"exhaustive", "dpor"} {
			b.Run(bc.sys+"-"+bc.harness+"/"+strat, func(b *testing.B) {
				var states int64
				var secs float64
				cpu0 := processCPU(b)
				for b.Loop() {
					s, err := dpor.New(strat, dpor.Config{})
					if err != nil {
						b.Fatal(err)
					}
					res, err := explorer.Run(context.Background(), sys, explorer.Options{Strategy: s, MaxSchedules: explorer.Unlimited, StateCaching: true})
					if err != nil {
						b.Fatal(err)
					}
					if !res.Complete {
						b.Fatal("incomplete")
					}
					states += res.Stats.States
					secs += res.Stats.Explore.Seconds()
				}
				b.ReportMetric(float64(states)/secs, "states/s")
				if cpu0 >= 0 {
					b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
				}
			})
		}
	}
}
