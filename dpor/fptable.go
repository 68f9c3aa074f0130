package dpor

import (
	"math/bits"
	"unsafe"

	"github.com/ravelmc/ravel/internal/words"
)

// fpTable maps fingerprints to state indices: open addressing with linear probing over
// one flat array, with no pointers for the collector to scan. It was a Go map, which cost
// a tenth of a large stateful search: the graph looks a state up every time the search
// reaches one. A slot holds the fingerprint and its index side by side, so that a lookup,
// hit or miss, is one cache miss; the table is at most three quarters full.
//
// A fingerprint's home slot is the high bits of its product with an odd constant
// (Fibonacci hashing), so that fingerprints combined from parts by addition or xor spread
// as well as mixed ones, and doubling the table keeps the slots' order: an entry's home
// in the larger table is twice its home, or one more, which lets the table double in
// place (rehash). Fingerprint 0 marks an empty slot; the index of fingerprint 0
// itself is kept apart.
//
// The slots come from words.Growable: a large table is mapped outside the Go heap, on
// huge pages. The table of states grows to tens of megabytes, and in the Go heap each
// doubling faulted its new array in page by page as it filled it (abd 1w2r-seq: grow was
// a twentieth of the search's CPU). It doubles in place (grow); mem frees the mapping
// once the table is dropped.
type fpTable struct {
	slots []fpSlot
	n     int
	shift uint  // 64 − log2(len(slots))
	zero  int32 // the index of fingerprint 0, or −1; valid once slots is allocated
	mem   *words.Growable
}

type fpSlot struct {
	fp  uint64
	val int32
	_   int32 // explicit, so that a slot is two words where uint64 aligns to 4 bytes too
}

// An fpSlot is two words: the table's memory is words.
var _ [16 - unsafe.Sizeof(fpSlot{})]struct{}
var _ [unsafe.Sizeof(fpSlot{}) - 16]struct{}

func (t *fpTable) home(fp uint64) uint64 { return (fp * 0x9e3779b97f4a7c15) >> t.shift }

// get returns the index stored for fp, or −1.
func (t *fpTable) get(fp uint64) int32 {
	if len(t.slots) == 0 {
		return -1
	}
	if fp == 0 {
		return t.zero
	}
	mask := uint64(len(t.slots) - 1)
	for i := t.home(fp); ; i = (i + 1) & mask {
		switch t.slots[i].fp {
		case fp:
			return t.slots[i].val
		case 0:
			return -1
		}
	}
}

// prefetch starts loading the slot where a lookup of fp begins, so that a lookup a
// little later finds it in the cache (words.Prefetch): the graph knows a state's
// fingerprint before it has to look it up.
func (t *fpTable) prefetch(fp uint64) {
	if len(t.slots) != 0 {
		words.Prefetch(unsafe.Pointer(&t.slots[t.home(fp)]))
	}
}

// getOrPut returns the index stored for fp, storing k first if there is none: one probe
// sequence for both.
func (t *fpTable) getOrPut(fp uint64, k int32) int32 {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	if fp == 0 {
		if t.zero < 0 {
			t.zero = k
		}
		return t.zero
	}
	mask := uint64(len(t.slots) - 1)
	i := t.home(fp)
	for {
		s := &t.slots[i]
		switch s.fp {
		case fp:
			return s.val
		case 0:
			*s = fpSlot{fp: fp, val: k}
			t.n++
			return k
		}
		i = (i + 1) & mask
	}
}

// fpTableFirst is the number of slots of a table's first array (512 bytes).
const fpTableFirst = 1 << 5

// grow doubles the table in place: its memory grows keeping the slots (on Linux by
// moving the mapping, so the old and the new table are never both held: a table of 4
// GiB doubling held 12 GiB at once when it was allocated anew), and rehash moves the
// entries to their slots in the larger table.
func (t *fpTable) grow() {
	old := len(t.slots)
	// Small first: a graph holds four tables and most searches are small. With 256 slots
	// (4 KiB) each, a search of 60 states wrote a fresh page for each table; the
	// doublings up to 256 move a few hundred entries at most.
	n := max(fpTableFirst, 2*old)
	if t.mem == nil {
		t.zero = -1
		t.mem = words.NewGrowable(2 * n)
	} else {
		t.mem.Grow(2 * n)
	}
	t.slots = unsafe.Slice((*fpSlot)(unsafe.Pointer(unsafe.SliceData(t.mem.W))), n)
	t.shift = uint(64 - bits.Len(uint(n-1)))
	t.rehash(old)
}

// rehash moves the entries of the first old slots, a table of old slots, to where they
// belong in the table of twice as many that holds them. An entry's home in the larger
// table is twice its home in the smaller one, or one more (the product's next bit), so
// walking the old slots from the last down, an entry whose new home is at or above its
// slot probes only slots that hold entries already moved or nothing: those below are
// the ones not yet moved. The others — an entry displaced further than its home (near
// the start of the table), or one whose probe runs off the end and would wrap into the
// slots not yet moved — wait in a list and are put back once every other entry is in
// place. Every probe sequence of an entry moved in the walk lies above every slot the
// walk empties after it, so no later step breaks it.
func (t *fpTable) rehash(old int) {
	n := uint64(len(t.slots))
	var wait []fpSlot
	for i := old - 1; i >= 0; i-- {
		s := t.slots[i]
		if s.fp == 0 {
			continue
		}
		t.slots[i] = fpSlot{}
		j := t.home(s.fp)
		if j < uint64(i) {
			wait = append(wait, s)
			continue
		}
		for j < n && t.slots[j].fp != 0 {
			j++
		}
		if j == n {
			wait = append(wait, s)
			continue
		}
		t.slots[j] = s
	}
	mask := n - 1
	for _, s := range wait {
		j := t.home(s.fp)
		for t.slots[j].fp != 0 {
			j = (j + 1) & mask
		}
		t.slots[j] = s
	}
}
