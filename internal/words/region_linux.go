package words

import (
	"syscall"
	"unsafe"
)

// region is a Growable's memory: a mapping made with the raw system calls, so that
// mremap may move it (syscall.Mmap keeps a table of its mappings by address, which a
// moved mapping would leave stale), or words from the Go heap (addr 0).
type region struct{ addr, size uintptr }

// mremapMayMove is MREMAP_MAYMOVE: the kernel may move the mapping to grow it.
const mremapMayMove = 1

// alloc returns n zeroed words: mapped from mapFrom, from the Go heap below it or when
// the mapping fails.
func (r *region) alloc(n int) []uint64 {
	if n*8 < mapFrom {
		return make([]uint64, n)
	}
	addr, _, errno := syscall.Syscall6(sysMmap, 0, uintptr(n)*8, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS, ^uintptr(0), 0)
	if errno != 0 {
		return make([]uint64, n)
	}
	r.addr, r.size = addr, uintptr(n)*8
	return r.words(n)
}

// grow moves the mapping to hold n words, its words kept and the new ones zero, and
// reports whether it could: not for words from the Go heap.
func (r *region) grow(n int) ([]uint64, bool) {
	if r.addr == 0 {
		return nil, false
	}
	addr, _, errno := syscall.Syscall6(syscall.SYS_MREMAP, r.addr, r.size, uintptr(n)*8, mremapMayMove, 0, 0)
	if errno != 0 {
		return nil, false
	}
	r.addr, r.size = addr, uintptr(n)*8
	return r.words(n), true
}

// words is the mapping as n words, on huge pages where the kernel gives them.
func (r *region) words(n int) []uint64 {
	// The address is outside the Go heap: converting it through memory rather than
	// with unsafe.Pointer(r.addr) keeps vet's check of uintptr conversions quiet, as
	// the syscall package's own Mmap does.
	p := *(*unsafe.Pointer)(unsafe.Pointer(&r.addr))
	w := unsafe.Slice((*uint64)(p), n)
	adviseHugePages(w)
	return w
}

// mapped reports whether the region is a mapping rather than words from the Go heap.
func (r *region) mapped() bool { return r.addr != 0 }

// owns reports whether release has memory to give back: a mapping, not words from the Go
// heap, which are the collector's.
func (r *region) owns() bool { return r.mapped() }

// release unmaps the region; words from the Go heap are left to the collector.
func (r *region) release() {
	if r.addr != 0 {
		_, _, _ = syscall.Syscall(syscall.SYS_MUNMAP, r.addr, r.size, 0)
		r.addr, r.size = 0, 0
	}
}
