//go:build unix

package words

import (
	"syscall"
	"unsafe"
)

// Alloc returns n zeroed words: mapped from the operating system when they are at least
// a few megabytes (and the mapping succeeds), from the Go heap otherwise. Only Free may
// release them.
func Alloc(n int) []uint64 {
	if n*8 < mapFrom {
		return make([]uint64, n)
	}
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]uint64, n)
	}
	w := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), n)
	adviseHugePages(w)
	return w
}

// Free releases words from Alloc; a slice from the Go heap is left to the collector. w
// must not be used afterwards.
func Free(w []uint64) {
	if len(w)*8 < mapFrom {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)
	// Munmap refuses memory it did not map (the Go heap fallback) with EINVAL.
	_ = syscall.Munmap(b)
}
