package samplers

import (
	"fmt"
	"testing"
)

// BenchmarkSamplerStep measures what a sampler itself costs per step — Created, Next and
// Delivered — over a cheap fixed-structure world, beside the random walk's: the chain
// bookkeeping must stay small against an engine step (BenchmarkSamplers in explorer).
func BenchmarkSamplerStep(b *testing.B) {
	for _, size := range []int{15, 60} {
		var lines []string
		for i := 0; i < size; i++ {
			l := fmt.Sprintf("e%d@%d", i, i%4)
			if i >= 4 {
				l += fmt.Sprintf("<-e%d", (i*7)%i)
			}
			lines = append(lines, l)
		}
		s := build(lines)
		for i := range s.evs {
			s.evs[i].racy = s.evs[i].to < 2
		}
		for _, name := range []string{"random", "rapos", "pos", "pctcp", "tapct", "dpos"} {
			b.Run(fmt.Sprintf("events=%d/%s", size, name), func(b *testing.B) {
				c, _ := New(name, Options{Depth: 3})
				sm := c.Sampler(s.labels(c))
				w := &tworld{s: s}
				steps := 0
				r := 0
				for b.Loop() {
					n, _ := Drive(w, sm, r, RunRand(1, r), w.start(), 1000)
					steps += n
					r++
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
			})
		}
	}
}
