//go:build linux

package visited

import (
	"syscall"
	"unsafe"
)

// freeDiskBytes reports the bytes available to an unprivileged user on the file system
// holding dir.
func freeDiskBytes(dir string) (int64, bool) {
	var s syscall.Statfs_t
	if err := syscall.Statfs(dir, &s); err != nil {
		return 0, false
	}
	return int64(s.Bavail) * int64(s.Bsize), true
}

// madvHugepage is MADV_HUGEPAGE: back this range with transparent huge pages where the
// system allows them only on request (/sys/kernel/mm/transparent_hugepage/enabled set
// to madvise, a common default).
const madvHugepage = 14

// adviseHugePages asks for huge pages under a large table. Every lookup lands on a random
// slot, so with 4 KiB pages a table much larger than the TLB's reach costs a TLB miss
// per lookup on top of the cache miss. It is advice: where the kernel refuses it,
// nothing changes.
func adviseHugePages(s []uint64) {
	const huge = 2 << 20
	if len(s)*8 < 2*huge {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	end := start + uintptr(len(s))*8
	start = (start + huge - 1) &^ (huge - 1)
	end &^= huge - 1
	if end > start {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvHugepage)
	}
}
