package dpor

import (
	"fmt"
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
		subset, meet := directSubsetMeet(x, y)
		if got := subsetSorted(g.sleepSet(kx), y); got != subset {
			t.Fatalf("%v ⊆ %v: got %v, want %v", x, y, got, subset)
		}
		if got := meetSorted(g.sleepSet(kx), y, nil); !slices.Equal(got, meet) && (len(got) != 0 || len(meet) != 0) {
			t.Fatalf("%v ∩ %v: got %v, want %v", x, y, got, meet)
		}
	}
	if len(byIndex) < 100 {
		t.Errorf("only %d distinct sets: the test says little", len(byIndex))
	}
}

// TestSliceTableInterns checks the table behind summaries and sleep sets against a map of
// the slices' contents: one index per distinct slice, in order of first appearance, and
// get returns what was interned.
func TestSliceTableInterns(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 0))
	var tab sliceTable[uint64]
	seen := map[string]int32{}
	for range 3000 {
		b := make([]uint64, r.IntN(4))
		for i := range b {
			b[i] = uint64(r.IntN(3)) << (r.IntN(2) * 40)
		}
		key := fmt.Sprint(b)
		k, added := tab.intern(b)
		want, ok := seen[key]
		if !ok {
			want = int32(len(seen))
			seen[key] = want
		}
		if k != want || added == ok {
			t.Fatalf("intern(%v) = %d, %v; want %d, %v", b, k, added, want, !ok)
		}
		if got := tab.get(k); !slices.Equal(got, b) {
			t.Fatalf("get(%d) = %v, interned %v", k, got, b)
		}
	}
	if len(seen) < 50 {
		t.Errorf("only %d distinct slices: the test says little", len(seen))
	}
}

// TestKeptSleepSetsMatchSortedSlices checks the one-word form a state keeps its sleep set
// in (a bit mask below step 63, an interned index above) against plain sorted slices:
// subset and intersection agree with a direct computation whichever form each side is
// in, and the table's sets are not written through the scratch buffers.
func TestKeptSleepSetsMatchSortedSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 0))
	s := StatefulDPOR(History()).(*stateful)
	random := func() []int32 {
		var b []int32
		for range r.IntN(6) {
			if r.IntN(3) == 0 {
				b = append(b, int32(56+r.IntN(16))) // around the mask's limit
			} else {
				b = append(b, int32(r.IntN(12)))
			}
		}
		slices.Sort(b)
		return slices.Compact(b)
	}
	forms := map[bool]int{}
	kept := map[uint64][]int32{}
	for range 3000 {
		x, y := random(), random()
		kx := s.g.keepSteps(x)
		forms[kx&slpIndexed == 0]++
		kept[kx] = x
		z := keyOf(slices.Clone(y))
		subset, meet := directSubsetMeet(x, y)
		if got := s.keptIn(kx, &z); got != subset {
			t.Fatalf("%v ⊆ %v: got %v, want %v", x, y, got, subset)
		}
		var buf []int32
		if got := s.g.keptSteps(s.keptMeet(kx, &z), &buf); !slices.Equal(got, meet) && (len(got) != 0 || len(meet) != 0) {
			t.Fatalf("%v ∩ %v: got %v, want %v", x, y, got, meet)
		}
	}
	for k, want := range kept {
		var buf []int32
		if got := s.g.keptSteps(k, &buf); !slices.Equal(got, want) && (len(got) != 0 || len(want) != 0) {
			t.Fatalf("kept set %#x reads %v, kept from %v", k, got, want)
		}
	}
	if forms[true] < 100 || forms[false] < 100 {
		t.Errorf("masks %d, indexed %d: both forms must be exercised", forms[true], forms[false])
	}
}

// directSubsetMeet is the plain computation the sleep-set forms are checked against:
// whether x ⊆ y, and x ∩ y in x's order.
func directSubsetMeet(x, y []int32) (bool, []int32) {
	subset := true
	var meet []int32
	for _, v := range x {
		if slices.Contains(y, v) {
			meet = append(meet, v)
		} else {
			subset = false
		}
	}
	return subset, meet
}
