//go:build !unix

package words

// Alloc returns n zeroed words from the Go heap: this platform has no mmap.
func Alloc(n int) []uint64 { return make([]uint64, n) }

// Map returns n zeroed words from the Go heap: this platform has no mmap.
func Map(n int) []uint64 { return make([]uint64, n) }

// Free leaves w to the collector.
func Free([]uint64) {}
