package dpor

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSleepSetsInterned checks the graph's interned sleep sets against plain sorted
// slices: equal sets get one index, and subset and intersection agree with a direct
// computation, on random sets of a few steps.
func TestSleepSetsInterned(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 0))
	g := NewGraph()
	random := func() []int32 {
		var b []int32
		for range r.IntN(6) {
			b = append(b, int32(r.IntN(12)))
		}
		slices.Sort(b)
		return slices.Compact(b)
	}
	byIndex := map[int32][]int32{0: nil}
	for range 2000 {
		x, y := random(), random()
		kx, ky := g.internSleep(x), g.internSleep(y)
		for _, c := range []struct {
			k int32
			b []int32
		}{{kx, x}, {ky, y}} {
			if prev, ok := byIndex[c.k]; ok && !slices.Equal(prev, c.b) {
				t.Fatalf("index %d holds %v and %v", c.k, prev, c.b)
			}
			byIndex[c.k] = c.b
			if got := g.sleepSet(c.k); !slices.Equal(got, c.b) && (len(got) != 0 || len(c.b) != 0) {
				t.Fatalf("set %d is %v, interned from %v", c.k, got, c.b)
			}
		}
		if slices.Equal(x, y) != (kx == ky) {
			t.Fatalf("%v (%d) and %v (%d): equal sets must share an index, others not", x, kx, y, ky)
		}
		subset := true
		var meet []int32
		for _, v := range x {
			if slices.Contains(y, v) {
				meet = append(meet, v)
			} else {
				subset = false
			}
		}
		if got := g.sleepSubset(kx, y); got != subset {
			t.Fatalf("%v ⊆ %v: got %v, want %v", x, y, got, subset)
		}
		if got := g.sleepSet(g.sleepMeet(kx, y, nil)); !slices.Equal(got, meet) && (len(got) != 0 || len(meet) != 0) {
			t.Fatalf("%v ∩ %v: got %v, want %v", x, y, got, meet)
		}
	}
	if len(byIndex) < 100 {
		t.Errorf("only %d distinct sets: the test says little", len(byIndex))
	}
}
