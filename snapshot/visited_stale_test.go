//go:build unix

package snapshot

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveStaleSpillDirs: a spill directory whose owner lock nobody holds (its
// process died) is removed; one in use by a live set, and one without a lock file, are
// kept; and Close removes its own.
func TestRemoveStaleSpillDirs(t *testing.T) {
	parent := t.TempDir()
	live, err := OpenVisited(VisitedOptions{MemBytes: MinVisitedMemBytes, Dir: parent})
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
