//go:build !unix

package visited

// allocWords returns n zeroed words from the Go heap: this platform has no mmap.
func allocWords(n int) []uint64 { return make([]uint64, n) }

// freeWords leaves w to the garbage collector.
func freeWords([]uint64) {}
