//go:build linux && (386 || arm || mips || mipsle)

package words

import "syscall"

// sysMmap is the system call that maps memory with its arguments in registers: on 32-bit
// Linux that is mmap2 (the offset in pages; ours is 0), since mmap there takes a pointer
// to its arguments (386) or does not exist (ARM EABI).
const sysMmap = syscall.SYS_MMAP2
