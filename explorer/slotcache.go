package explorer

import "unsafe"

// slotCache is a cache of V by a non-zero uint64 key, in buckets of slotWays slots: a
// key's low bits pick its bucket, a lookup reads the bucket's few slots, and an entry
// that finds its bucket full takes a slot of another key. A miss costs the caller the
// work the entry saved, never a different answer, so nothing depends on what it holds.
//
// It starts with a few slots and doubles, up to max, while more than half are taken: a
// small search pays for the slots it uses, not for a table sized for a large one
// (register-buggy 2r1w, 164 states, had allocated 384 KiB for the two caches that use
// this). Doubling at a quarter, with the step memo's slots a word larger than now, cost
// a process of stateful DPOR on chord-fixed 2r1w (a few milliseconds) about 100 more
// page faults and saved it no step; on leader 1rw and abd 1w2r-seq it saved 19 and 64
// peeked steps of 23,400 and 95,900. Buckets, not one slot a key, are what let it stay
// small: a direct-mapped table half full lost keys to others so often that leader 1rw
// peeked 3.5 times the steps it did with a table of the most slots from the start.
//
// The zero slotCache keeps one bucket; newSlotCache makes one that grows.
type slotCache[V any] struct {
	slots []cacheSlot[V]
	used  int // slots taken
	max   int // the most slots, a power of two
}

type cacheSlot[V any] struct {
	key uint64 // 0: empty
	val V
}

const (
	// slotWays is the number of slots of a bucket.
	slotWays = 4
	// slotCacheFirst is a slotCache's number of slots at its first put.
	slotCacheFirst = 1 << 8
)

// newSlotCache returns an empty cache of at most most slots, a power of two no smaller
// than slotCacheFirst.
func newSlotCache[V any](most int) slotCache[V] {
	if most < slotCacheFirst || most&(most-1) != 0 {
		panic("explorer: a slot cache's size must be a power of two of at least slotCacheFirst")
	}
	return slotCache[V]{max: most}
}

// bucket returns the slots key may take.
func (c *slotCache[V]) bucket(key uint64) []cacheSlot[V] {
	i := int(key) & (len(c.slots) - 1) &^ (slotWays - 1)
	return c.slots[i : i+slotWays : i+slotWays]
}

// get returns the value kept under key; key 0 is never kept.
func (c *slotCache[V]) get(key uint64) (V, bool) {
	if len(c.slots) != 0 && key != 0 {
		for _, s := range c.bucket(key) {
			if s.key == key {
				return s.val, true
			}
		}
	}
	var zero V
	return zero, false
}

// put keeps v under key, in place of what it kept under key; key 0 is not kept.
func (c *slotCache[V]) put(key uint64, v V) {
	if key == 0 {
		return
	}
	if len(c.slots) == 0 {
		c.slots = newSlots[V](max(min(slotCacheFirst, c.max), slotWays))
	}
	if c.place(key, v) && 2*c.used > len(c.slots) && len(c.slots) < c.max {
		old := c.slots
		c.slots, c.used = newSlots[V](2*len(old)), 0
		for _, s := range old {
			if s.key != 0 {
				c.place(s.key, s.val)
			}
		}
	}
}

// place puts v under key in key's bucket: in key's slot if it has one, else in an
// empty slot (it reports that one more is taken), else in the slot of another key
// that key's high bits pick.
func (c *slotCache[V]) place(key uint64, v V) (took bool) {
	b := c.bucket(key)
	empty := -1
	for i := range b {
		if b[i].key == key {
			b[i].val = v
			return false
		}
		if b[i].key == 0 && empty < 0 {
			empty = i
		}
	}
	if empty < 0 {
		b[key>>62%slotWays] = cacheSlot[V]{key, v}
		return false
	}
	b[empty] = cacheSlot[V]{key, v}
	c.used++
	return true
}

// newSlots returns n empty slots, each page of them written once. Fresh memory from the
// operating system is mapped on first touch; place reads a bucket before it writes it,
// and a page first read is mapped to the shared zero page, so its first write faults a
// second time and, with the search's threads on other CPUs, flushes their TLBs by
// interrupt. Writing first maps each page once.
func newSlots[V any](n int) []cacheSlot[V] {
	s := make([]cacheSlot[V], n)
	step := max(1, pageBytes/int(unsafe.Sizeof(cacheSlot[V]{})))
	for i := 0; i < n; i += step {
		s[i].key = 0
	}
	return s
}

// pageBytes is the smallest page size of the platforms Ravel runs on.
const pageBytes = 4096
