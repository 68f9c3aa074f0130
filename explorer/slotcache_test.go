package explorer

import (
	"math/rand/v2"
	"testing"
)

// TestSlotCacheNeverAnswersWrong: against a map of what was last put under each key, a
// hit gives that value; and keys put once, few enough, are nearly all still there.
func TestSlotCacheNeverAnswersWrong(t *testing.T) {
	for _, tc := range []struct {
		name       string
		max, keys  int // the cache's most slots; the distinct keys put
		puts       int
		minHitRate float64 // of the keys' last puts, asked right after the run
	}{
		{"few keys stay in a small table", 1 << 14, 40, 400, 1},
		{"a quarter of the most slots", 1 << 10, 1 << 8, 4000, 0.97},
		{"far more keys than slots", 1 << 8, 1 << 12, 20000, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(tc.max), uint64(tc.keys)))
			keys := make([]uint64, tc.keys)
			for i := range keys {
				keys[i] = r.Uint64() | 1
			}
			c := newSlotCache[uint64](tc.max)
			want := map[uint64]uint64{}
			for i := range tc.puts {
				k := keys[r.IntN(len(keys))]
				if v, ok := c.get(k); ok && v != want[k] {
					t.Fatalf("put %d: get(%#x) = %d, want %d or a miss", i, k, v, want[k])
				}
				c.put(k, uint64(i))
				want[k] = uint64(i)
				if v, ok := c.get(k); !ok || v != uint64(i) {
					t.Fatalf("put %d: get(%#x) right after = %d, %v, want %d, true", i, k, v, ok, i)
				}
				if len(c.slots) > tc.max {
					t.Fatalf("put %d: %d slots, want at most %d", i, len(c.slots), tc.max)
				}
			}
			hits := 0
			for k, w := range want {
				v, ok := c.get(k)
				if ok && v != w {
					t.Fatalf("get(%#x) = %d, want %d or a miss", k, v, w)
				}
				if ok {
					hits++
				}
			}
			if rate := float64(hits) / float64(len(want)); rate < tc.minHitRate {
				t.Errorf("%d of %d keys kept (%.3f), want at least %.3f", hits, len(want), rate, tc.minHitRate)
			}
		})
	}
}

// TestSlotCacheGrowsWithUse: a cache holds the slots its use needs, up to its most.
func TestSlotCacheGrowsWithUse(t *testing.T) {
	for _, tc := range []struct {
		keys, max, want int
	}{
		{0, 1 << 14, 0},
		{1, 1 << 14, slotCacheFirst},
		{slotCacheFirst / 2, 1 << 14, slotCacheFirst},
		// A full bucket's key takes another's slot (no slot more is taken), so a few
		// more keys than half the slots.
		{slotCacheFirst/2 + slotCacheFirst/8, 1 << 14, 2 * slotCacheFirst},
		{1 << 13, 1 << 14, 1 << 14},
		{1 << 16, 1 << 14, 1 << 14},
	} {
		c := newSlotCache[uint64](tc.max)
		r := rand.New(rand.NewPCG(uint64(tc.keys), 7))
		for range tc.keys {
			c.put(r.Uint64()|1, 1)
		}
		if got := len(c.slots); got != tc.want {
			t.Errorf("%d keys into at most %d slots: %d slots, want %d", tc.keys, tc.max, got, tc.want)
		}
	}
}

// TestSlotCacheKeepsNoZeroKey: key 0 marks an empty slot, so it is never kept.
func TestSlotCacheKeepsNoZeroKey(t *testing.T) {
	var c slotCache[uint64]
	c.put(0, 5)
	if v, ok := c.get(0); ok {
		t.Errorf("get(0) = %d, true after put(0, 5), want a miss", v)
	}
	c.put(8, 6) // the zero cache keeps one bucket
	if v, ok := c.get(8); !ok || v != 6 {
		t.Errorf("zero cache: get(8) = %d, %v, want 6, true", v, ok)
	}
}

// TestNewSlotsAreEmpty: the slots newSlots writes to map its pages are left empty, for
// slots smaller than a page, a page's divisor and larger than a page.
func TestNewSlotsAreEmpty(t *testing.T) {
	t.Run("step outcomes", func(t *testing.T) { checkNewSlots[stepOut](t, 1<<12) })
	t.Run("words", func(t *testing.T) { checkNewSlots[uint64](t, 1<<10) })
	t.Run("larger than a page", func(t *testing.T) { checkNewSlots[[pageBytes]byte](t, 3) })
}

func checkNewSlots[V comparable](t *testing.T, n int) {
	s := newSlots[V](n)
	if len(s) != n {
		t.Fatalf("%d slots, want %d", len(s), n)
	}
	for i := range s {
		if s[i] != (cacheSlot[V]{}) {
			t.Fatalf("slot %d of %d not empty", i, n)
		}
	}
}

// TestReservedSlotCacheGrowsAsANewArray: a cache that grows in place (split) holds, after
// every put, the slots of one that grows into a new array each time, slot for slot, so
// that which keys it keeps, and so the checks the step memo saves, are the same.
func TestReservedSlotCacheGrowsAsANewArray(t *testing.T) {
	for _, tc := range []struct {
		name      string
		max, keys int
		puts      int
	}{
		{"grows to its most", 1 << 12, 1 << 11, 6000},
		{"keys past its most", 1 << 10, 1 << 12, 20000},
		{"a few keys", 1 << 12, 30, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(tc.max), uint64(tc.puts)))
			keys := make([]uint64, tc.keys)
			for i := range keys {
				keys[i] = r.Uint64() | 1
			}
			moved, inPlace := newSlotCache[uint64](tc.max), reservedSlotCache[uint64](tc.max)
			for i := range tc.puts {
				k := keys[r.IntN(len(keys))]
				moved.put(k, uint64(i))
				inPlace.put(k, uint64(i))
				if len(inPlace.slots) != len(moved.slots) || inPlace.used != moved.used {
					t.Fatalf("put %d: %d slots, %d taken, want %d, %d", i, len(inPlace.slots), inPlace.used, len(moved.slots), moved.used)
				}
				for j := range moved.slots {
					if inPlace.slots[j] != moved.slots[j] {
						t.Fatalf("put %d: slot %d of %d = %v, want %v", i, j, len(moved.slots), inPlace.slots[j], moved.slots[j])
					}
				}
			}
			if n, got := len(inPlace.slots), cap(inPlace.slots); n > slotCacheFirst && n <= slotCacheReserve && got != min(tc.max, slotCacheReserve) {
				t.Errorf("%d slots in an array of %d, want %d: it grew into a new one", n, got, min(tc.max, slotCacheReserve))
			}
		})
	}
}
