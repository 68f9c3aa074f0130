//go:build linux

package visited

import "syscall"

// freeDiskBytes reports the bytes available to an unprivileged user on the file system
// holding dir.
func freeDiskBytes(dir string) (int64, bool) {
	var s syscall.Statfs_t
	if err := syscall.Statfs(dir, &s); err != nil {
		return 0, false
	}
	return int64(s.Bavail) * int64(s.Bsize), true
}
