package snapshot

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ownerLockName is the file in each private spill directory that its owner holds an
// exclusive lock on for as long as the directory is in use. The lock is the kernel's:
// it ends with the owning process, however that ends (SIGKILL, OOM kill, power loss), so
// a directory whose lock can be taken belongs to no live process.
const ownerLockName = "owner.lock"

// lockPrivateDir marks dir as in use by this process until release is called. The lock
// file is locked under a temporary name and renamed into place, so that a sweep by
// another process never sees an unlocked owner.lock in a directory in use.
func lockPrivateDir(dir string) (release func(), err error) {
	tmp := filepath.Join(dir, ownerLockName+".tmp")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f, true); err != nil {
		f.Close()
		return nil, err
	}
	fmt.Fprintf(f, "%d\n", os.Getpid()) // for a person looking; the lock is what counts
	if err := os.Rename(tmp, filepath.Join(dir, ownerLockName)); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// RemoveStaleSpillDirs removes, from parent (the temporary directory when ""), the
// private spill directories (ravel-visited-*) of processes that are gone: those whose
// owner.lock can be locked. A directory without an owner.lock is left alone: it is being
// created, or was made by a version that did not lock. It returns the directories
// removed; a directory that cannot be examined or removed is skipped, as it may belong
// to another user.
func RemoveStaleSpillDirs(parent string) []string {
	if parent == "" {
		parent = os.TempDir()
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), visitedPrivatePrefix) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		f, err := os.OpenFile(filepath.Join(dir, ownerLockName), os.O_RDWR, 0)
		if err != nil {
			continue
		}
		stale := lockFile(f, false) == nil
		if stale && os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
		f.Close()
	}
	return removed
}
