package samplers

import (
	"fmt"
	"math"
)

// vector is one test vector of docs/samplers.md, "How we know they are right": a system, a bug, and the exact probability
// of hitting it under each sampler (absent: not listed), with the bound where listed.
type vector struct {
	name  string
	sys   *tsys
	depth int
	bug   func(s *tsys, order []int) bool
	want  map[string]float64
	bound map[string]float64
	// pos is POS's probability, checked only statistically (decision D10).
	pos float64
}

func fig1(n int, oneActor bool) *tsys {
	b := 2
	if oneActor {
		b = 1
	}
	lines := []string{"m1@1"}
	for i := 2; i <= n; i++ {
		lines = append(lines, fmt.Sprintf("m%d@1<-m%d", i, i-1))
	}
	lines = append(lines, fmt.Sprintf("B@%d<-m%d", b, n), fmt.Sprintf("A@%d", b))
	return build(lines, "A", "B")
}

func before(a, b string) func(*tsys, []int) bool {
	return func(s *tsys, o []int) bool { return s.pos(o, a) < s.pos(o, b) }
}

func hits(names ...string) func(*tsys, []int) bool {
	return func(s *tsys, o []int) bool {
		t := make([]int, len(names))
		for i, n := range names {
			t[i] = s.index(n)
		}
		return s.strongHit(o, t)
	}
}

func vectors() []vector {
	var vs []vector
	for _, n := range []int{1, 2, 3, 4} {
		p := math.Pow(2, -float64(n+1))
		vs = append(vs,
			vector{name: fmt.Sprintf("000-fig1-n%d", n), sys: fig1(n, false), depth: 1, bug: before("B", "A"),
				want: map[string]float64{"random": p, "rapos": 0.25, "pctcp": 0.5, "tapct": 0.5, "dpos": 1 / float64(n+2)},
				pos:  1 / float64(n+2)},
			vector{name: fmt.Sprintf("000-fig1-one-actor-n%d", n), sys: fig1(n, true), depth: 1, bug: before("B", "A"),
				want: map[string]float64{"dpos": 1 / float64(n+2)}, pos: p},
		)
	}
	fig3 := build([]string{"A@1", "B@1<-A", "C@1", "D@3<-C", "E@2", "F@2<-E"}, "A", "B", "C")
	ex1 := build([]string{"request@0", "log@1<-request", "terminate@2<-request", "flush@1<-terminate", "flushed@2<-flush"})
	sen := build([]string{"y1@0", "y2@0<-y1", "y3@0<-y2", "x4@1<-y3", "chk@1"}, "x4", "chk")
	v1 := build([]string{"e0@1", "e1@2", "e2@2<-e1", "e3@0<-e1", "e4@0<-e0", "e5@0<-e3"})
	v2 := build([]string{"e0@1", "e1@2", "e2@0<-e0", "e3@0<-e0", "e4@1<-e0", "e5@1<-e1"})
	vs = append(vs,
		vector{name: "000-fig3", sys: fig3, depth: 2,
			bug:   func(s *tsys, o []int) bool { return before("A", "C")(s, o) && before("C", "B")(s, o) },
			want:  map[string]float64{"random": 0.25, "rapos": 0.25, "pctcp": 1.0 / 12, "tapct": 1.0 / 6, "dpos": 1.0 / 6},
			bound: map[string]float64{"pctcp": 1.0 / 18, "tapct": 1.0 / 9, "dpos": 1.0 / 15}},
		vector{name: "001-ex1", sys: ex1, depth: 1, bug: before("flush", "log"),
			want: map[string]float64{"random": 0.25, "rapos": 0.25, "pctcp": 0.5}},
		vector{name: "001-ex1-d2", sys: ex1, depth: 2,
			bug:   func(s *tsys, o []int) bool { return before("flush", "log")(s, o) && before("log", "flushed")(s, o) },
			want:  map[string]float64{"random": 1.0 / 8, "rapos": 3.0 / 16, "pctcp": 1.0 / 10},
			bound: map[string]float64{"pctcp": 1.0 / 10}},
		vector{name: "002-fig1", sys: sen, depth: 1, bug: before("x4", "chk"),
			want: map[string]float64{"random": 1.0 / 16, "rapos": 0.25, "pctcp": 0.5, "tapct": 0.5, "dpos": 1.0 / 5}},
		vector{name: "V1", sys: v1, depth: 2, bug: hits("e2", "e4"),
			want: map[string]float64{"pctcp": 1.0 / 18}, bound: map[string]float64{"pctcp": 1.0 / 18}},
		vector{name: "V2", sys: v2, depth: 1, bug: hits("e3"),
			want: map[string]float64{"pctcp": 1.0 / 4}, bound: map[string]float64{"pctcp": 1.0 / 4}},
	)
	return vs
}

// labels is the number of labels change points are drawn from on s: n for PCTCP, n̂ (the
// racy events; every event of these systems occurs in every run) otherwise.
func (s *tsys) labels(c *Config) int {
	if c.NeedsN() {
		return len(s.evs)
	}
	n := 0
	for _, e := range s.evs {
		if e.racy {
			n++
		}
	}
	return n
}

// exact is the exact probability that sampler name (depth d, partition p) hits bug on
// s, with the run statistics maximised over all runs.
func exact(s *tsys, name string, d int, p Partition, bug func(*tsys, []int) bool) (float64, RunStats) {
	c, err := New(name, Options{Depth: d, Partition: p})
	if err != nil {
		panic(err)
	}
	dist, most := s.distribution(c.Sampler(s.labels(c)))
	hit := 0.0
	for k, pr := range dist {
		if bug(s, unkey(k)) {
			hit += pr
		}
	}
	return hit, most
}
