//go:build !unix

package snapshot

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
