package dpor

import (
	"slices"
	"unsafe"

	"github.com/ravelmc/ravel/model"
)

// sliceTable interns slices of words: equal slices get one index. Set k is
// data[off[k]:off[k+1]]; index chains the sets by hash, the first of each hash, and next
// the others. Like the rest of the graph it holds no pointers for the collector to scan
// but its three arrays.
type sliceTable[T int32 | uint64] struct {
	data      []T
	off, next []int32
	index     fpTable
}

// get returns set k; the caller must not modify it.
func (t *sliceTable[T]) get(k int32) []T { return t.data[t.off[k]:t.off[k+1]] }

// intern returns the index of the set equal to b (which it does not keep), adding it if
// there is none, and whether it added it. The first set interned gets index 0.
func (t *sliceTable[T]) intern(b []T) (int32, bool) {
	if len(t.off) == 0 {
		t.off = []int32{0}
	}
	h := uint64(len(b))
	for _, w := range b {
		h = model.Mix64(h ^ uint64(w))
	}
	k := int32(len(t.off) - 1)
	last := int32(-1)
	for j := t.index.getOrPut(h, k); j != k; j = t.next[j] {
		if slices.Equal(t.get(j), b) {
			return j, false
		}
		if t.next[j] < 0 {
			last = j
			break
		}
	}
	t.data = append(t.data, b...)
	t.off = append(t.off, int32(len(t.data)))
	t.next = append(t.next, -1)
	if last >= 0 {
		t.next[last] = k
	}
	return k, true
}

// bytes is the memory the table holds.
func (t *sliceTable[T]) bytes() int64 {
	var w T
	return int64(unsafe.Sizeof(w))*int64(cap(t.data)) + 4*int64(cap(t.off)+cap(t.next)) + 16*int64(len(t.index.slots))
}
