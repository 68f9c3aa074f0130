//go:build linux && (amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x)

package words

import "syscall"

// sysMmap is the system call that maps memory with its arguments in registers: mmap on
// 64-bit Linux.
const sysMmap = syscall.SYS_MMAP
