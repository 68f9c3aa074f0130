package visited

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
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
// owner.lock can be locked. A directory without an owner.lock is being created — or its
// creator was killed between making it and renaming the lock into place, a window of a
// few system calls — so it is removed only once it is older than creationGrace and any
// owner.lock.tmp in it can be locked. It returns the directories removed; a directory
// that cannot be examined or removed is skipped, as it may belong to another user.
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
			if os.IsNotExist(err) && abandonedMidCreation(dir) && os.RemoveAll(dir) == nil {
				removed = append(removed, dir)
			}
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

// creationGrace is how old a spill directory without an owner.lock must be before a
// sweep takes it for abandoned: its creator renames the lock into place a few system
// calls after making it, so a minute is far beyond any live creator's window.
const creationGrace = time.Minute

// abandonedMidCreation reports whether dir, which has no owner.lock, was left by a
// process killed while creating it: it is older than creationGrace, holds nothing but
// the lock file its creator was preparing (a directory with fingerprints in it and no
// lock was made by an older Ravel that did not lock, and may be in use), and that file,
// if any, is locked by nobody.
func abandonedMidCreation(dir string) bool {
	info, err := os.Stat(dir)
	if err != nil || time.Since(info.ModTime()) < creationGrace {
		return false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() != ownerLockName+".tmp" {
			return false
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, ownerLockName+".tmp"), os.O_RDWR, 0)
	if os.IsNotExist(err) {
		return true
	}
	if err != nil {
		return false
	}
	defer f.Close()
	return lockFile(f, false) == nil
}
