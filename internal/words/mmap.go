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
	return Map(n)
}

// Map returns n zeroed words mapped from the operating system whatever their number (on
// huge pages from a few megabytes), or from the Go heap if the mapping fails: for memory
// that must stay outside the Go heap however small, such as a budget the caller accounts
// for itself. Only Free may release them.
func Map(n int) []uint64 {
	if n == 0 {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]uint64, n)
	}
	w := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), n)
	if n*8 >= mapFrom {
		adviseHugePages(w)
	}
	return w
}

// Free releases words from Alloc or Map; a slice from the Go heap is left to the
// collector. w must not be used afterwards.
func Free(w []uint64) {
	if len(w) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)
	// Munmap unmaps only what syscall.Mmap mapped (it keeps a table of its mappings) and
	// refuses anything else, the Go heap fallback included, with EINVAL.
	_ = syscall.Munmap(b)
}
