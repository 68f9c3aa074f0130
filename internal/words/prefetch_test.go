package words

import (
	"testing"
	"unsafe"
)

// TestPrefetchChangesNothing: Prefetch of an address — a word of a table, or nil —
// neither faults nor changes memory.
func TestPrefetchChangesNothing(t *testing.T) {
	w := Alloc(1 << 16)
	defer Free(w)
	for i := range w {
		w[i] = uint64(i) * 3
	}
	for _, p := range []unsafe.Pointer{
		unsafe.Pointer(&w[0]),
		unsafe.Pointer(&w[len(w)/2]),
		unsafe.Pointer(&w[len(w)-1]),
		nil,
	} {
		Prefetch(p)
	}
	for i := range w {
		if w[i] != uint64(i)*3 {
			t.Fatalf("word %d = %d after Prefetch, want %d", i, w[i], uint64(i)*3)
		}
	}
}
