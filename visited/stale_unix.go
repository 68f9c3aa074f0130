//go:build unix

package visited

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

// dirLockedByOther reports whether another process holds badger's lock on dir (badger
// flocks the directory itself: exclusively for a store open for writing, shared for one
// open read-only). It takes the lock a store opened with shared would take, and drops it
// at once.
func dirLockedByOther(dir string, shared bool) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	how := syscall.LOCK_EX | syscall.LOCK_NB
	if shared {
		how = syscall.LOCK_SH | syscall.LOCK_NB
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		return err == syscall.EWOULDBLOCK
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
