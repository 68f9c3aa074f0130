//go:build unix

package visited

import (
	"syscall"
	"unsafe"
)

// allocWords returns n zeroed words mapped from the operating system (see
// visited_words.go), or from the Go heap if the mapping fails. Only freeWords may
// release them.
func allocWords(n int) []uint64 {
	if n == 0 {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]uint64, n)
	}
	w := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), n)
	adviseHugePages(w)
	return w
}

// freeWords releases words from allocWords; a slice from the Go heap is left to the
// collector. w must not be used afterwards.
func freeWords(w []uint64) {
	if len(w) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)
	// Munmap refuses memory it did not map (the Go heap fallback) with EINVAL.
	_ = syscall.Munmap(b)
}
