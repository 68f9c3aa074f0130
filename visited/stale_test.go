//go:build unix

package visited

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestRemoveStaleSpillDirs: a spill directory whose owner lock nobody holds (its
// process died) is removed; one in use by a live set, and one without a lock file, are
// kept; and Close removes its own.
func TestRemoveStaleSpillDirs(t *testing.T) {
	parent := t.TempDir()
	live, err := Open(Options{MemBytes: MinMemBytes, Dir: parent})
	if err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(parent, visitedPrivatePrefix+"dead")
	unlocked := filepath.Join(parent, visitedPrivatePrefix+"nolock")
	for _, d := range []string{dead, unlocked} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A dead owner leaves its lock file behind, unlocked, with fingerprints beside it.
	if err := os.WriteFile(filepath.Join(dead, ownerLockName), []byte("4194304\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dead, "run-0001"), make([]byte, 1024), 0o644); err != nil {
		t.Fatal(err)
	}
	removed := RemoveStaleSpillDirs(parent)
	if len(removed) != 1 || removed[0] != dead {
		t.Errorf("removed %v, want only %s", removed, dead)
	}
	for _, d := range []string{live.Dir(), unlocked} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	if err := live.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live.Dir()); !os.IsNotExist(err) {
		t.Errorf("Close left %s: %v", live.Dir(), err)
	}
	if removed := RemoveStaleSpillDirs(parent); len(removed) != 0 {
		t.Errorf("second sweep removed %v", removed)
	}
}

// TestRemoveAbandonedMidCreation: a spill directory whose creator was killed between
// making it and renaming its lock into place (nothing in it, or an unlocked
// owner.lock.tmp) is removed once older than creationGrace; a young one, one whose
// owner.lock.tmp is held, and an old unlocked one with fingerprints in it (an older Ravel
// that did not lock) are kept.
func TestRemoveAbandonedMidCreation(t *testing.T) {
	parent := t.TempDir()
	old := time.Now().Add(-2 * creationGrace)
	mk := func(name string, age time.Time, files ...string) string {
		d := filepath.Join(parent, visitedPrivatePrefix+name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(d, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(d, age, age); err != nil {
			t.Fatal(err)
		}
		return d
	}
	empty := mk("empty", old)
	tmpOnly := mk("tmp", old, ownerLockName+".tmp")
	young := mk("young", time.Now(), ownerLockName+".tmp")
	legacy := mk("legacy", old, "run-0001")
	held := mk("held", old)
	f, err := os.OpenFile(filepath.Join(held, ownerLockName+".tmp"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := lockFile(f, true); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(held, old, old); err != nil {
		t.Fatal(err)
	}
	removed := RemoveStaleSpillDirs(parent)
	slices.Sort(removed)
	want := []string{empty, tmpOnly}
	slices.Sort(want)
	if !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, d := range []string{young, legacy, held} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

// TestSweepWhenSpilling: a set in the temporary directory removes a dead run's spill
// directory when it makes its own, at its first spill, and not before: a run that never
// spills neither adds to the disk nor reads the directory.
func TestSweepWhenSpilling(t *testing.T) {
	parent := t.TempDir()
	t.Setenv("TMPDIR", parent)
	dead := filepath.Join(parent, visitedPrivatePrefix+"dead")
	if err := os.Mkdir(dead, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dead, ownerLockName), []byte("4194304\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := Open(Options{MemBytes: MinMemBytes})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	fp := uint64(1)
	for v.Stats().Spilled == 0 {
		if _, err := os.Stat(dead); err != nil {
			t.Fatalf("removed before the set spilled (%d fingerprints in): %v", fp-1, err)
		}
		if _, err := v.Add(fp * 0x9e3779b97f4a7c15); err != nil {
			t.Fatal(err)
		}
		fp++
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("%s was not removed when the set spilled (%v)", dead, err)
	}
}
