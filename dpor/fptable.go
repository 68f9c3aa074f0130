package dpor

import "math/bits"

// fpTable maps fingerprints to state indices: open addressing with linear probing over
// flat arrays, with no pointers for the collector to scan. It was a Go map, which cost a
// tenth of a large stateful search: the graph looks a state up every time the search
// reaches one. The probe walks fps alone (8 bytes a slot) and reads vals once, at the
// end: a lookup is one cache miss, and the arrays the table grows into are as small as
// they can be, since touching fresh memory (a page fault per page) is what growing costs
// most on a virtual machine.
//
// A fingerprint's home slot is the high bits of its product with an odd constant
// (Fibonacci hashing), so that fingerprints combined from parts by addition or xor spread
// as well as mixed ones, and doubling the table keeps the slots' order: rehashing walks
// both arrays in order.
type fpTable struct {
	fps   []uint64
	vals  []int32 // the index plus one; 0 marks an empty slot
	n     int
	shift uint // 64 − log2(len(fps))
}

func (t *fpTable) home(fp uint64) uint64 { return (fp * 0x9e3779b97f4a7c15) >> t.shift }

// get returns the index stored for fp, or −1.
func (t *fpTable) get(fp uint64) int32 {
	if len(t.fps) == 0 {
		return -1
	}
	mask := uint64(len(t.fps) - 1)
	for i := t.home(fp); ; i = (i + 1) & mask {
		if t.fps[i] == fp && t.vals[i] != 0 {
			return t.vals[i] - 1
		}
		if t.fps[i] == 0 && t.vals[i] == 0 {
			return -1
		}
	}
}

// getOrPut returns the index stored for fp, storing k first if there is none: one probe
// sequence for both.
func (t *fpTable) getOrPut(fp uint64, k int32) int32 {
	// At most three quarters full.
	if 4*(t.n+1) > 3*len(t.fps) {
		t.grow()
	}
	mask := uint64(len(t.fps) - 1)
	i := t.home(fp)
	for {
		if x := t.fps[i]; x == fp {
			if v := t.vals[i]; v != 0 {
				return v - 1
			}
			break // fp is 0 and the slot is empty
		} else if x == 0 && t.vals[i] == 0 {
			break
		}
		i = (i + 1) & mask
	}
	t.fps[i], t.vals[i] = fp, k+1
	t.n++
	return k
}

func (t *fpTable) grow() {
	oldFps, oldVals := t.fps, t.vals
	n := max(1<<12, 2*len(oldFps))
	t.fps, t.vals = make([]uint64, n), make([]int32, n)
	t.shift = uint(64 - bits.Len(uint(n-1)))
	mask := uint64(n - 1)
	for j, v := range oldVals {
		if v == 0 {
			continue
		}
		i := t.home(oldFps[j])
		for t.vals[i] != 0 {
			i = (i + 1) & mask
		}
		t.fps[i], t.vals[i] = oldFps[j], v
	}
}
