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
//
// One made by reservedSlotCache takes, when it first grows, an array of up to
// slotCacheReserve slots, and grows on within it, splitting each bucket in place
// (split): a process then writes the pages of the first size and of the final one only.
// Growing into a new array each time wrote nearly twice those (on chord-fixed 2r1w the
// step memo's 2,048 slots, 48 KiB, were 90 KiB of fresh pages: a fifth of the page
// faults stateful DPOR's process took beyond exhaustive search's). The array's pages
// beyond those in use are never written, so they cost a new process nothing; a cache
// that never grows takes only its first slots.
type slotCache[V any] struct {
	slots   []cacheSlot[V]
	used    int  // slots taken
	max     int  // the most slots, a power of two
	reserve bool // the first growth takes an array to grow on in (reservedSlotCache)
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
	// slotCacheReserve is the most slots a reservedSlotCache's array holds when it first
	// grows: a search of a few thousand states stays within it (chord-fixed 2r1w's step
	// memo takes 2,048 slots), and a test's loop of small searches clears a smaller
	// array each time.
	slotCacheReserve = 1 << 11
)

// newSlotCache returns an empty cache of at most most slots, a power of two no smaller
// than slotCacheFirst.
func newSlotCache[V any](most int) slotCache[V] {
	if most < slotCacheFirst || most&(most-1) != 0 {
		panic("explorer: a slot cache's size must be a power of two of at least slotCacheFirst")
	}
	return slotCache[V]{max: most}
}

// reservedSlotCache is newSlotCache whose cache grows in place (slotCache).
func reservedSlotCache[V any](most int) slotCache[V] {
	c := newSlotCache[V](most)
	c.reserve = true
	return c
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
		if cap(c.slots) >= 2*len(c.slots) {
			c.split()
			return
		}
		old := c.slots
		if c.reserve {
			c.slots = newSlotsIn(make([]cacheSlot[V], 0, max(2*len(old), min(c.max, slotCacheReserve))), 2*len(old))
		} else {
			c.slots = newSlots[V](2 * len(old))
		}
		c.used = 0
		for _, s := range old {
			if s.key != 0 {
				c.place(s.key, s.val)
			}
		}
	}
}

// split doubles the slots within their array's capacity, moving each bucket's keys that
// belong to the new upper half there: the slots put's rehash into a new array gives,
// since a bucket's taken slots are its first (place takes the first empty one, and
// nothing empties a slot) and the keys of one bucket split between two.
func (c *slotCache[V]) split() {
	n := len(c.slots)
	c.slots = newSlotsIn(c.slots, 2*n)
	mask := 2*n - 1
	for b := 0; b < n; b += slotWays {
		stay, moved := b, b+n
		for i := b; i < b+slotWays; i++ {
			s := c.slots[i]
			switch {
			case s.key == 0:
				continue
			case int(s.key)&mask&^(slotWays-1) == b:
				c.slots[stay] = s
				stay++
			default:
				c.slots[moved] = s
				moved++
			}
		}
		clear(c.slots[stay : b+slotWays])
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
	return newSlotsIn(make([]cacheSlot[V], 0, n), n)
}

// newSlotsIn extends s, whose slots past its length are empty, to n slots (at most its
// capacity), writing each page of the new ones once as newSlots does.
func newSlotsIn[V any](s []cacheSlot[V], n int) []cacheSlot[V] {
	from := len(s)
	s = s[:n]
	step := max(1, pageBytes/int(unsafe.Sizeof(cacheSlot[V]{})))
	for i := from; i < n; i += step {
		s[i].key = 0
	}
	return s
}

// pageBytes is the smallest page size of the platforms Ravel runs on.
const pageBytes = 4096
