package samplers

import (
	"math"
	"reflect"
	"testing"
)

// TestStatistical is docs/samplers.md, "How we know they are right": on each vector, 20,000 runs with the seeded
// generator (seed 1, runs 0…N−1) must land within 4σ + 1/N of the exact probability and
// no more than 4σ below the bound. POS, outside the exact oracle, is checked only here.
func TestStatistical(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 4_000
	}
	for _, v := range vectors() {
		for _, name := range []string{"random", "rapos", "pos", "pctcp", "tapct", "dpos"} {
			p, ok := v.want[name]
			if name == "pos" {
				p, ok = v.pos, v.pos > 0
			}
			if !ok {
				continue
			}
			t.Run(v.name+"/"+name, func(t *testing.T) {
				c, _ := New(name, Options{Depth: v.depth})
				sm := c.Sampler(v.sys.labels(c))
				hits := 0
				for r := 0; r < n; r++ {
					if v.bug(v.sys, v.sys.run(sm, RunRand(1, r))) {
						hits++
					}
				}
				ph := float64(hits) / float64(n)
				lo, hi := Wilson(int64(hits), int64(n))
				if math.Abs(ph-p) > 4*math.Sqrt(p*(1-p)/float64(n))+1/float64(n) {
					t.Errorf("p̂ = %.5f [%.5f, %.5f], exact %.5f", ph, lo, hi, p)
				}
				if b, ok := v.bound[name]; ok && ph < b-4*math.Sqrt(b*(1-b)/float64(n)) {
					t.Errorf("p̂ = %.5f below the bound %.5f", ph, b)
				}
			})
		}
	}
}

// TestReplay is docs/samplers.md, "How we know they are right": run r gives the same schedule alone, with a fresh
// sampler, as after runs 0…r−1 with the same sampler.
func TestReplay(t *testing.T) {
	s := randomSys(11, 7)
	for _, name := range []string{"random", "rapos", "pos", "pctcp", "tapct", "dpos"} {
		c, _ := New(name, Options{Depth: 3})
		shared := c.Sampler(len(s.evs))
		var seq [][]int
		for r := 0; r < 50; r++ {
			seq = append(seq, append([]int(nil), s.run(shared, RunRand(5, r))...))
		}
		for _, r := range []int{0, 17, 49} {
			alone := s.run(c.Sampler(len(s.evs)), RunRand(5, r))
			if !reflect.DeepEqual(alone, seq[r]) {
				t.Errorf("%s run %d: alone %v, in sequence %v", name, r, alone, seq[r])
			}
		}
	}
}

// TestPartitionInvariants asserts the Agarwal–Garg invariants after every insertion, on
// random systems and schedules: |Bi| ≤ i+1, the tails of one level pairwise unordered,
// every chain totally ordered with the tail its last event.
func TestPartitionInvariants(t *testing.T) {
	for seed := 0; seed < 200; seed++ {
		s := randomSys(uint64(1000+seed), 14)
		for _, p := range []Partition{AG, AGPaper} {
			pr := newPrio(3, len(s.evs), true, p)
			chk := &checking{prio: pr, t: t, name: string(p)}
			for r := 0; r < 5; r++ {
				s.run(chk, RunRand(int64(seed), r))
			}
		}
	}
}

type checking struct {
	*prio
	t    *testing.T
	name string
}

func (c *checking) Created(e *Event) {
	c.prio.Created(e)
	ag := c.part.(*agPartition)
	b := &c.book
	for i, lvl := range ag.levels {
		if len(lvl) > i+1 {
			c.t.Fatalf("%s: level %d holds %d chains", c.name, i, len(lvl))
		}
		for _, x := range lvl {
			for _, y := range lvl {
				if x != y && b.before(ag.tails[x], ag.tails[y]) {
					c.t.Fatalf("%s: level %d: tails %d < %d", c.name, i, ag.tails[x], ag.tails[y])
				}
			}
		}
	}
	last := make(map[int32]int32)
	for i := range b.recs {
		ch := b.recs[i].chain
		if ch < 0 {
			c.t.Fatalf("%s: event %d in no chain", c.name, i)
		}
		if prev, ok := last[ch]; ok && !b.before(prev, int32(i)) {
			c.t.Fatalf("%s: chain %d holds unordered events %d and %d", c.name, ch, prev, i)
		}
		last[ch] = int32(i)
	}
	for ch, tail := range last {
		if ag.tails[ch] != tail {
			c.t.Fatalf("%s: chain %d's tail is %d, its last event %d", c.name, ch, ag.tails[ch], tail)
		}
	}
}
