package live

import (
	"slices"
	"testing"
)

// seqChooser draws from a fixed sequence (each value taken modulo k), for exhaustive
// enumeration of a sampler's choices.
type seqChooser struct {
	draws []int
	i     int
	k     []int // the bounds asked, in order
}

func (c *seqChooser) IntN(k int) int {
	c.k = append(c.k, k)
	if k == 1 {
		return 0
	}
	v := 0
	if c.i < len(c.draws) {
		v = c.draws[c.i] % k
	}
	c.i++
	return v
}

func (c *seqChooser) Uint64() uint64 { return 0 }

// enumerate calls f with every draw sequence of a sampler run whose draws have the given
// bounds, each with its probability.
func enumerate(bounds []int, f func(draws []int, p float64)) {
	draws := make([]int, len(bounds))
	var rec func(i int, p float64)
	rec = func(i int, p float64) {
		if i == len(bounds) {
			f(slices.Clone(draws), p)
			return
		}
		for v := range bounds[i] {
			draws[i] = v
			rec(i+1, p/float64(bounds[i]))
		}
	}
	rec(0, 1)
}

// order runs sampler s over three messages all enabled from the start, delivering until
// none is left, and returns the delivery order.
func order(s Sampler, c Chooser) []MsgID {
	s.Begin(0, c)
	enabled := []MsgID{0, 1, 2}
	for _, id := range enabled {
		s.Created(EventInfo{ID: id})
	}
	var out []MsgID
	for len(enabled) > 0 {
		id := s.Next(enabled)
		out = append(out, id)
		enabled = slices.DeleteFunc(enabled, func(x MsgID) bool { return x == id })
		s.Delivered(id, nil)
	}
	return out
}

// TestSamplersUniformOrders checks, by enumerating every draw, that the random walk and
// PCT with depth 1 give each of the 3! delivery orders probability 1/6 (the closed form
// for both when every message is enabled from the start).
func TestSamplersUniformOrders(t *testing.T) {
	for _, c := range []struct {
		name   string
		s      func() Sampler
		bounds []int
	}{
		{"random", func() Sampler { return &RandomWalk{} }, []int{3, 2}},
		{"pct d=1", func() Sampler { return &PCT{Depth: 1, Events: 3} }, []int{2, 3}}, // ranks: insert 1 at 0..1, 2 at 0..2
	} {
		t.Run(c.name, func(t *testing.T) {
			probs := map[string]float64{}
			enumerate(c.bounds, func(draws []int, p float64) {
				ch := &seqChooser{draws: draws}
				o := order(c.s(), ch)
				probs[fmtOrder(o)] += p
				var asked []int
				for _, k := range ch.k {
					if k > 1 {
						asked = append(asked, k)
					}
				}
				if !slices.Equal(asked, c.bounds) {
					t.Fatalf("draws asked with bounds %v, want %v", asked, c.bounds)
				}
			})
			if len(probs) != 6 {
				t.Fatalf("%d orders reached, want 6: %v", len(probs), probs)
			}
			for o, p := range probs {
				if p < 1.0/6-1e-9 || p > 1.0/6+1e-9 {
					t.Errorf("P(%s) = %v, want 1/6", o, p)
				}
			}
		})
	}
}

func fmtOrder(o []MsgID) string {
	b := make([]byte, len(o))
	for i, id := range o {
		b[i] = byte('0' + id)
	}
	return string(b)
}

// TestPCTChangePoint: with depth 2 and the change point at step 1, the message PCT would
// deliver first is demoted below every other and delivered last.
func TestPCTChangePoint(t *testing.T) {
	// Draws: change point 1+IntN(3)=1; ranks: 1 inserted at 0 (before 0), 2 at 0.
	p := &PCT{Depth: 2, Events: 3}
	got := order(p, &seqChooser{draws: []int{0, 0, 0}})
	// Ranks high→low: 2, 1, 0; 2 is demoted at step 1, so 1, 0, then 2.
	if want := []MsgID{1, 0, 2}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	p = &PCT{Depth: 1, Events: 3}
	if got, want := order(p, &seqChooser{draws: []int{0, 0}}), []MsgID{2, 1, 0}; !slices.Equal(got, want) {
		t.Fatalf("depth 1: order %v, want %v", got, want)
	}
}
