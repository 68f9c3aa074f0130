//go:build linux

package words

import (
	"syscall"
	"unsafe"
)

// madvHugepage is MADV_HUGEPAGE: back this range with transparent huge pages where the
// system allows them only on request (/sys/kernel/mm/transparent_hugepage/enabled set
// to madvise, a common default).
const madvHugepage = 14

// adviseHugePages asks for huge pages under the whole huge pages w covers. It is
// advice: where the kernel refuses it, nothing changes.
func adviseHugePages(w []uint64) {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(w)))
	end := start + uintptr(len(w))*8
	start = (start + hugeBytes - 1) &^ (hugeBytes - 1)
	end &^= hugeBytes - 1
	if end > start {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvHugepage)
	}
}
