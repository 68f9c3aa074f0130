package dpor

import "math/bits"

// fpTable maps fingerprints to state indices: open addressing with linear probing over
// one flat array, with no pointers for the collector to scan. A fingerprint's slot is
// the high bits of its product with an odd constant (Fibonacci hashing), so that a
// fingerprint combined from parts by addition or xor spreads as well as a mixed one. It was a Go map, which cost a tenth of a
// large stateful search: the graph looks a state up every time the search reaches one.
type fpTable struct {
	slots []fpSlot
	n     int
	shift uint // 64 − log2(len(slots))
}

func (t *fpTable) home(fp uint64) uint64 { return (fp * 0x9e3779b97f4a7c15) >> t.shift }

type fpSlot struct {
	fp  uint64
	val int32 // the index plus one; 0 marks an empty slot
}

// get returns the index stored for fp, or −1.
func (t *fpTable) get(fp uint64) int32 {
	if len(t.slots) == 0 {
		return -1
	}
	mask := uint64(len(t.slots) - 1)
	for i := t.home(fp); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.val == 0 {
			return -1
		}
		if s.fp == fp {
			return s.val - 1
		}
	}
}

// getOrPut returns the index stored for fp, storing k first if there is none: one probe
// sequence for both.
func (t *fpTable) getOrPut(fp uint64, k int32) int32 {
	// At most half full: linear probing's expected probes for a miss grow as
	// 1/(1−load)², 2.5 at a half and 8.5 at three quarters.
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	i := t.home(fp)
	for {
		s := &t.slots[i]
		if s.val == 0 {
			*s = fpSlot{fp: fp, val: k + 1}
			t.n++
			return k
		}
		if s.fp == fp {
			return s.val - 1
		}
		i = (i + 1) & mask
	}
}

func (t *fpTable) insert(fp uint64, val int32) {
	mask := uint64(len(t.slots) - 1)
	i := t.home(fp)
	for t.slots[i].val != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = fpSlot{fp: fp, val: val}
}

func (t *fpTable) grow() {
	old := t.slots
	t.slots = make([]fpSlot, max(1<<15, 2*len(old)))
	t.shift = uint(64 - bits.Len(uint(len(t.slots)-1)))
	for _, s := range old {
		if s.val != 0 {
			t.insert(s.fp, s.val)
		}
	}
}
