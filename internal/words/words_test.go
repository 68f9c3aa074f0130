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

// TestGrowableKeepsItsWords grows one array from the Go heap past mapFrom and on, by
// doubling and by uneven steps: after each Grow the words written before read back, the
// new ones are zero, and all can be written. Free and the cleanup of a Growable dropped
// without Free release it, whichever kind of memory it ended in.
func TestGrowableKeepsItsWords(t *testing.T) {
	val := func(i int) uint64 { return uint64(i+1) * 0x9e3779b97f4a7c15 }
	for _, tc := range []struct {
		name  string
		sizes []int
	}{
		{"doubling from the heap into mappings", []int{256, 512, mapFrom / 16, mapFrom / 8, mapFrom / 4, mapFrom / 2}},
		{"uneven", []int{1000, mapFrom/8 + 3, mapFrom/8 + 3, 3*hugeBytes/8 + 5, 5 * hugeBytes / 8}},
		{"mapped from the start", []int{mapFrom / 8, 2 * mapFrom / 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGrowable(tc.sizes[0])
			written := 0
			for _, n := range tc.sizes {
				g.Grow(n)
				if len(g.W) != n {
					t.Fatalf("after Grow(%d): len %d", n, len(g.W))
				}
				// On Linux a Growable of mapFrom or more is a mapping of its own,
				// which Grow moves (mremap) rather than copies.
				if runtime.GOOS == "linux" && n*8 >= mapFrom && !g.r.mapped() {
					t.Fatalf("after Grow(%d): %d bytes from the Go heap, want a mapping", n, n*8)
				}
				for i := range g.W {
					want := uint64(0)
					if i < written {
						want = val(i)
					}
					if g.W[i] != want {
						t.Fatalf("after Grow(%d): word %d = %#x, want %#x", n, i, g.W[i], want)
					}
				}
				for i := range g.W {
					g.W[i] = val(i)
				}
				written = n
			}
			g.Free()
			if g.W != nil {
				t.Fatal("Free left its words")
			}
			d := NewGrowable(tc.sizes[0])
			d.Grow(tc.sizes[len(tc.sizes)-1])
			d.W[len(d.W)-1] = 1
			runtime.GC()
		})
	}
}

// TestGrowableWatchesOnlyMappings: on Linux a Growable whose words are from the Go heap
// registers no cleanup (release has nothing to give back), and one registers once its
// words are a mapping, from the start or after Grow.
func TestGrowableWatchesOnlyMappings(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux tells a mapping from the Go heap")
	}
	for _, tc := range []struct {
		name  string
		sizes []int
		want  []bool // watched after NewGrowable(sizes[0]) and each Grow(sizes[i])
	}{
		{"heap only", []int{256, 512, mapFrom / 16}, []bool{false, false, false}},
		{"heap, then mapped", []int{256, mapFrom / 4, mapFrom / 2}, []bool{false, true, true}},
		{"mapped from the start", []int{mapFrom / 8, mapFrom / 4}, []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGrowable(tc.sizes[0])
			defer g.Free()
			for i, n := range tc.sizes {
				g.Grow(n)
				if g.watched != tc.want[i] {
					t.Errorf("after %d words: watched %v, want %v", n, g.watched, tc.want[i])
				}
			}
		})
	}
}
