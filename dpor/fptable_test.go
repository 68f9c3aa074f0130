package dpor

import (
	"math/rand/v2"
	"testing"
)

// TestFPTableMatchesMap checks the fingerprint table against a Go map on random and on
// adversarial keys (consecutive, and multiples of a large power of two, which share their
// low bits).
func TestFPTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		key  func(i int) uint64
	}{
		{"random", func(int) uint64 { return r.Uint64() }},
		{"consecutive", func(i int) uint64 { return uint64(i) }},
		{"high bits", func(i int) uint64 { return uint64(i) << 40 }},
		// Homes crowded at the end of the first table, so that its clusters wrap to
		// the start, and at its start, so that entries sit far from their homes: the
		// entries rehash's walk leaves for its list.
		{"wrapping and crowded", func(i int) uint64 {
			if i < 400 {
				return homeAt(uint64(248+i%8), 8, uint64(i))
			}
			if i < 600 {
				return homeAt(uint64(i%3), 8, uint64(i))
			}
			return r.Uint64()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tab fpTable
			want := map[uint64]int32{}
			for i := 0; i < 50_000; i++ {
				fp := tc.key(i)
				if _, ok := want[fp]; ok {
					continue
				}
				if got := tab.get(fp); got != -1 {
					t.Fatalf("get(%#x) before put = %d, want -1", fp, got)
				}
				want[fp] = int32(len(want))
				if got := tab.getOrPut(fp, want[fp]); got != want[fp] {
					t.Fatalf("getOrPut(%#x, %d) of a new fingerprint = %d", fp, want[fp], got)
				}
				if got := tab.getOrPut(fp, -5); got != want[fp] {
					t.Fatalf("getOrPut(%#x) of a stored fingerprint = %d, want %d", fp, got, want[fp])
				}
			}
			for fp, k := range want {
				if got := tab.get(fp); got != k {
					t.Fatalf("get(%#x) = %d, want %d", fp, got, k)
				}
			}
			if got := tab.get(^uint64(0) - 7); got != -1 {
				if _, ok := want[^uint64(0)-7]; !ok {
					t.Fatalf("get of an absent fingerprint = %d, want -1", got)
				}
			}
		})
	}
}

// homeAt returns a fingerprint whose home in a table of 2^bits slots is h, different
// for each salt: x·C⁻¹ for the x whose top bits are h (C, the multiplier, is odd).
func homeAt(h uint64, bits uint, salt uint64) uint64 {
	const inv = 0xf1de83e19937733d // the inverse of 0x9e3779b97f4a7c15 modulo 2^64
	return (h<<(64-bits) | salt<<1 | 1) * inv
}

// TestFPTableDoublesInPlace grows a table past the size words.Growable maps (4 MiB, 2^18
// slots) and on, so that it doubles by moving its mapping, and after each doubling
// checks every entry against a map and the probe invariant: every slot from an entry's
// home up to its own is taken.
func TestFPTableDoublesInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var tab fpTable
	want := map[uint64]int32{}
	size := 0
	for len(want) < 450_000 {
		fp := r.Uint64() | 1
		if _, ok := want[fp]; ok {
			continue
		}
		want[fp] = int32(len(want))
		tab.getOrPut(fp, want[fp])
		if len(tab.slots) == size {
			continue
		}
		size = len(tab.slots)
		mask := uint64(size - 1)
		for i, sl := range tab.slots {
			if sl.fp == 0 {
				continue
			}
			for j := tab.home(sl.fp); j != uint64(i); j = (j + 1) & mask {
				if tab.slots[j].fp == 0 {
					t.Fatalf("table of %d slots: slot %d is empty, between the home %d of the entry in slot %d and it", size, j, tab.home(sl.fp), i)
				}
			}
		}
		for fp, k := range want {
			if got := tab.get(fp); got != k {
				t.Fatalf("table of %d slots: get(%#x) = %d, want %d", size, fp, got, k)
			}
		}
	}
	if size < 1<<19 {
		t.Fatalf("the table reached %d slots, want 2^19 or more (two doublings past the mapped size)", size)
	}
}
