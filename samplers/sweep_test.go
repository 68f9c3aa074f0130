package samplers

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// randomSys makes a random fixed-structure system of at most maxEvents events on 1 to 3
// actors: event i is a root, or a child of an earlier event.
func randomSys(seed uint64, maxEvents int) *tsys {
	r := rand.New(rand.NewPCG(seed, 0x5357454550))
	n := 1 + r.IntN(maxEvents)
	actors := 1 + r.IntN(3)
	var lines []string
	for i := 0; i < n; i++ {
		l := fmt.Sprintf("e%d@%d", i, r.IntN(actors))
		if i > 0 && r.IntN(3) > 0 {
			l += fmt.Sprintf("<-e%d", r.IntN(i))
		}
		lines = append(lines, l)
	}
	return build(lines)
}

// schedules lists every schedule of s by exhaustive depth-first search, and computes R
// (events dependent — same receiver — with some co-enabled event) and maxConc (1 + the
// most distinct events co-enabled with one event in one schedule).
func (s *tsys) schedules() (all [][]int, racy []bool, maxConc int) {
	racy = make([]bool, len(s.evs))
	var rec func(pending, order []int, co []map[int]bool)
	rec = func(pending, order []int, co []map[int]bool) {
		for _, a := range pending {
			for _, b := range pending {
				if a != b {
					co[a][b] = true
					if s.evs[a].to == s.evs[b].to {
						racy[a] = true
					}
				}
			}
		}
		if len(pending) == 0 {
			all = append(all, append([]int(nil), order...))
			for _, m := range co {
				maxConc = max(maxConc, len(m)+1)
			}
			return
		}
		for k, e := range pending {
			next := append(append([]int(nil), pending[:k]...), pending[k+1:]...)
			next = append(next, s.children[e]...)
			cc := make([]map[int]bool, len(co))
			for i, m := range co {
				cc[i] = make(map[int]bool, len(m))
				for x := range m {
					cc[i][x] = true
				}
			}
			rec(next, append(order, e), cc)
		}
	}
	co := make([]map[int]bool, len(s.evs))
	for i := range co {
		co[i] = map[int]bool{}
	}
	rec(append([]int(nil), s.roots...), nil, co)
	return all, racy, maxConc
}

// tuplesHit lists the d-tuples, in delivery order, that order strongly hits.
func (s *tsys) tuplesHit(order []int, d int) []string {
	var out []string
	pos := make([]int, d)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == d {
			t := make([]int, d)
			for k, p := range pos {
				t[k] = order[p]
			}
			if s.strongHit(order, t) {
				out = append(out, fmt.Sprint(t))
			}
			return
		}
		for p := from; p < len(order); p++ {
			pos[i] = p
			rec(i+1, p+1)
		}
	}
	rec(0, 0)
	return out
}

// TestBoundSweep is docs/samplers.md, "How we know they are right": on random fixed-structure systems, for d = 1, 2, 3
// and every tuple some schedule strongly hits (taPCT and d-POS: x1… in R), the exact
// probability that PCTCP, taPCT and d-POS strongly hit it is at least the bound at the
// observed max m (or maxConc), in its falling-factorial form. CI runs a sample; set
// RAVEL_SWEEP=full for 500 systems (200 for d-POS).
func TestBoundSweep(t *testing.T) {
	systems, dposSystems := 24, 12
	if os.Getenv("RAVEL_SWEEP") == "full" {
		systems, dposSystems = 500, 200
	} else if testing.Short() {
		systems, dposSystems = 6, 3
	}
	tuples, minRatio := 0, 1e9
	for seed := 0; seed < systems; seed++ {
		s := randomSys(uint64(seed), 7)
		all, racy, maxConc := s.schedules()
		for i := range s.evs {
			s.evs[i].racy = racy[i]
		}
		for d := 1; d <= 3; d++ {
			admissible := map[string][]int{}
			for _, o := range all {
				for _, k := range s.tuplesHit(o, d) {
					admissible[k] = unkey(k)
				}
			}
			for _, name := range []string{"pctcp", "tapct", "dpos"} {
				if name == "dpos" && seed >= dposSystems {
					continue
				}
				c, _ := New(name, Options{Depth: d})
				dist, most := s.distribution(c.Sampler(s.labels(c)))
				k := most.Chains
				if name == "dpos" {
					k = maxConc
				}
				b, _ := c.Bound(s.labels(c), k)
				hit := map[string]float64{}
				for o, p := range dist {
					for _, tk := range s.tuplesHit(unkey(o), d) {
						hit[tk] += p
					}
				}
				for tk, tup := range admissible {
					if c.NeedsRacy() && !allRacy(s, tup[1:]) {
						continue
					}
					tuples++
					if hit[tk] < b.P*(1-1e-9) {
						t.Errorf("system %d %v, %s d=%d: tuple %s hit with %v < bound %v (%s=%d, %s=%d)",
							seed, s.evs, name, d, tk, hit[tk], b.P, b.KName, b.K, b.NName, b.N)
					}
					if b.P > 0 {
						minRatio = min(minRatio, hit[tk]/b.P)
					}
				}
			}
		}
	}
	t.Logf("%d tuples on %d systems; smallest P(hit)/bound %.4f", tuples, systems, minRatio)
}

func allRacy(s *tsys, evs []int) bool {
	for _, e := range evs {
		if !s.evs[e].racy {
			return false
		}
	}
	return true
}
