//go:build unix

package snapshot

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f, waiting for it when wait is set; without wait
// it fails at once if another process holds the lock.
func lockFile(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	return syscall.Flock(int(f.Fd()), how)
}
