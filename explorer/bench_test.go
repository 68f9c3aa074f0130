package explorer

import (
	"context"
	"os"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/adr"
	"github.com/ravelmc/ravel/systems/gossip"
	"github.com/ravelmc/ravel/systems/paxos"
	"github.com/ravelmc/ravel/systems/register"
	"github.com/ravelmc/ravel/visited"
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

// BenchmarkCaching measures exhaustive search with state caching on the synthetic
// gossip system (4 agents: about 1.5 million states): unique states per second with the
// visited set in memory, and with a memory budget a tenth of what the in-memory run
// used (or RAVEL_BENCH_CACHING_MEM, a size such as 1MiB), so that most fingerprints
// spill to disk.
func BenchmarkCaching(b *testing.B) {
	sys, err := gossip.New(4, "writes")
	if err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B, mem int64) Stats {
		var st Stats
		for b.Loop() {
			res, err := Run(context.Background(), sys, Options{MaxSchedules: Unlimited, StateCaching: true, VisitedMem: mem, VisitedDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			st = res.Stats
		}
		b.ReportMetric(float64(st.States)/st.Explore.Seconds(), "states/s")
		b.ReportMetric(float64(st.Visited.MemBytes), "visited-bytes")
		return st
	}
	var need int64
	b.Run("memory", func(b *testing.B) { need = run(b, 0).Visited.MemBytes })
	b.Run("tenth", func(b *testing.B) {
		mem := need / 10
		if env := os.Getenv("RAVEL_BENCH_CACHING_MEM"); env != "" {
			var err error
			if mem, err = visited.ParseSize(env); err != nil {
				b.Fatal(err)
			}
		}
		if mem == 0 {
			b.Skip("run with the memory case first, or set RAVEL_BENCH_CACHING_MEM")
		}
		st := run(b, mem)
		b.ReportMetric(float64(st.Visited.Spilled), "spilled")
	})
}

// BenchmarkStateless sets snapshots against re-execution on the configuration of the
// DS2 paper's Table A3 (register, 2r2w, 2 agents, the first 50,000 schedules), where the
// paper's tool took 1:27 with snapshots (TS) and an estimated 9:27 without (ST).
func BenchmarkStateless(b *testing.B) {
	sys, err := register.New(2, "2r2w")
	if err != nil {
		b.Fatal(err)
	}
	for _, stateless := range []bool{false, true} {
		name := "snapshots"
		if stateless {
			name = "stateless"
		}
		b.Run("register-2r2w-50k/"+name, func(b *testing.B) {
			var schedules int64
			var secs float64
			for b.Loop() {
				res, err := Run(context.Background(), sys, Options{MaxSchedules: 50_000, Stateless: stateless})
				if err != nil {
					b.Fatal(err)
				}
				schedules += res.Stats.Schedules
				secs += res.Stats.Explore.Seconds()
			}
			b.ReportMetric(float64(schedules)/secs, "schedules/s")
		})
	}
}

// BenchmarkRandom measures the systematic random strategy, whose every schedule is a
// fresh walk from the initial state, on the DS2 configurations where it is slowest
// against the paper's tool (Tables A7 and A9: the paper's SR ran 100,000 schedules in 4:44
// and 6:12).
func BenchmarkRandom(b *testing.B) {
	for _, bc := range []struct {
		name string
		sys  func() (model.System, error)
	}{
		{"adr-2r2w", func() (model.System, error) { return adr.New(2, 3, "2r2w") }},
		{"paxos-2r2w", func() (model.System, error) { return paxos.New(2, 3, "2r2w") }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			sys, err := bc.sys()
			if err != nil {
				b.Fatal(err)
			}
			var schedules int64
			var secs float64
			for b.Loop() {
				res, err := Run(context.Background(), sys, Options{Strategy: dpor.Random(1), MaxSchedules: 10_000})
				if err != nil {
					b.Fatal(err)
				}
				schedules += res.Stats.Schedules
				secs += res.Stats.Explore.Seconds()
			}
			b.ReportMetric(float64(schedules)/secs, "schedules/s")
		})
	}
}
