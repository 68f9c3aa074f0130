//go:build !unix

package visited

import (
	"errors"
	"os"
)

// lockFile cannot lock on this platform: every directory then looks in use, and stale
// spill directories are not removed.
func lockFile(f *os.File, wait bool) error {
	if wait {
		return nil
	}
	return errors.New("file locks are not supported on this platform")
}

// dirLockedByOther cannot tell on this platform: badger's own lock still refuses a
// store in use, with its own message.
func dirLockedByOther(dir string, shared bool) bool { return false }
