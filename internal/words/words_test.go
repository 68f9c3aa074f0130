package words

import (
	"runtime"
	"testing"
)

// TestAllocZeroedAndWritable checks that Alloc gives n zeroed words that can be written
// and read back, from the Go heap below mapFrom and mapped above it, and that Free and
// Block.Free take both.
func TestAllocZeroedAndWritable(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
	}{
		{"empty", 0},
		{"heap", 1000},
		{"mapped", mapFrom / 8},
		{"mapped, several huge pages", 3*hugeBytes/8 + 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check := func(w []uint64) {
				if len(w) != tc.n {
					t.Fatalf("len = %d, want %d", len(w), tc.n)
				}
				for i := range w {
					if w[i] != 0 {
						t.Fatalf("word %d = %#x, want 0", i, w[i])
					}
					w[i] = uint64(i) * 0x9e3779b97f4a7c15
				}
				for i := range w {
					if w[i] != uint64(i)*0x9e3779b97f4a7c15 {
						t.Fatalf("word %d = %#x after writing", i, w[i])
					}
				}
			}
			w := Alloc(tc.n)
			check(w)
			Free(w)
			b := NewBlock(tc.n)
			check(b.W)
			b.Free()
			if b.W != nil {
				t.Fatal("Block.Free left its words")
			}
			// A block dropped without Free is freed by its cleanup (which must not
			// fault on memory Free already gave back: that one was stopped).
			check(NewBlock(tc.n).W)
			runtime.GC()
		})
	}
}
