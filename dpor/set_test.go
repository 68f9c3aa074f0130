package dpor

import (
	"math/rand"
	"testing"
)

// TestSetAgainstMap checks Set against a map on random operations, across the inline
// word and the overflow words.
func TestSetAgainstMap(t *testing.T) {
	const seed = 7
	rng := rand.New(rand.NewSource(seed))
	for round := 0; round < 200; round++ {
		var s, done Set
		want := map[int]bool{}
		wantDone := map[int]bool{}
		limit := 1 + rng.Intn(200)
		for k := 0; k < 50; k++ {
			i := rng.Intn(limit)
			if rng.Intn(3) == 0 {
				done.Add(i)
				wantDone[i] = true
			} else {
				s.Add(i)
				want[i] = true
			}
		}
		for i := 0; i < limit; i++ {
			if got := s.Has(i); got != want[i] {
				t.Fatalf("seed %d round %d: Has(%d) = %v, want %v", seed, round, i, got, want[i])
			}
		}
		if got := s.Len(); got != len(want) {
			t.Fatalf("seed %d round %d: Len = %d, want %d", seed, round, got, len(want))
		}
		first, ok := s.FirstNotIn(&done)
		wantFirst, wantOK := -1, false
		for i := 0; i < limit; i++ {
			if want[i] && !wantDone[i] {
				wantFirst, wantOK = i, true
				break
			}
		}
		if ok != wantOK || (ok && first != wantFirst) {
			t.Fatalf("seed %d round %d: FirstNotIn = %d, %v; want %d, %v", seed, round, first, ok, wantFirst, wantOK)
		}
		s.Clear()
		if s.Len() != 0 {
			t.Fatalf("Clear left %d elements", s.Len())
		}
	}
}

func TestSetAddAll(t *testing.T) {
	for _, n := range []int{0, 1, 5, 63, 64, 65, 130} {
		var s Set
		s.AddAll(n)
		if got := s.Len(); got != n {
			t.Errorf("AddAll(%d): Len = %d", n, got)
		}
		if n > 0 && !s.Has(n-1) {
			t.Errorf("AddAll(%d): missing %d", n, n-1)
		}
		if s.Has(n) {
			t.Errorf("AddAll(%d): has %d", n, n)
		}
	}
}

// TestSetBelowTruncateAgainstMap checks Below, Truncate, AndNot and Each against a map,
// across the inline word and the overflow words.
func TestSetBelowTruncateAgainstMap(t *testing.T) {
	const seed = 11
	rng := rand.New(rand.NewSource(seed))
	for round := 0; round < 300; round++ {
		limit := 1 + rng.Intn(250)
		var s, u Set
		want := map[int]bool{}
		for k := 0; k < rng.Intn(60); k++ {
			i := rng.Intn(limit)
			s.Add(i)
			want[i] = true
			if rng.Intn(2) == 0 {
				u.Add(rng.Intn(limit))
			}
		}
		for i := 0; i <= limit+70; i++ {
			wantBelow := -1
			for j := i - 1; j >= 0; j-- {
				if want[j] {
					wantBelow = j
					break
				}
			}
			if got := s.Below(i); got != wantBelow {
				t.Fatalf("seed %d round %d: Below(%d) = %d, want %d", seed, round, i, got, wantBelow)
			}
		}
		var got []int
		s.Each(func(i int) { got = append(got, i) })
		if len(got) != len(want) {
			t.Fatalf("seed %d round %d: Each gave %v, want the %d elements of %v", seed, round, got, len(want), want)
		}
		for k, i := range got {
			if !want[i] || (k > 0 && got[k-1] >= i) {
				t.Fatalf("seed %d round %d: Each gave %v, not the elements of %v in order", seed, round, got, want)
			}
		}
		d := s
		d.more = append([]uint64(nil), s.more...)
		d.AndNot(&u)
		n := rng.Intn(limit + 70)
		s.Truncate(n)
		for i := 0; i < limit+70; i++ {
			if g, w := s.Has(i), want[i] && i < n; g != w {
				t.Fatalf("seed %d round %d: after Truncate(%d), Has(%d) = %v, want %v", seed, round, n, i, g, w)
			}
			if g, w := d.Has(i), want[i] && !u.Has(i); g != w {
				t.Fatalf("seed %d round %d: after AndNot, Has(%d) = %v, want %v", seed, round, i, g, w)
			}
		}
	}
}
