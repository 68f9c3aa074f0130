package visited

import (
	"os"
	"path/filepath"
	"testing"
)

// TestVisitedCheckpointResume checks Checkpoint and Resume against a Go map: a set adds a
// stream, checkpoints at several points, adds more and is abandoned (as a killed run
// would be); a set resumed from any checkpoint answers exactly as the map of the
// fingerprints added before that checkpoint, and goes on answering correctly. Budgets in
// memory and spilling; later checkpoints after a resume too.
func TestVisitedCheckpointResume(t *testing.T) {
	for _, tc := range []struct {
		name string
		mem  int64
		n    int
	}{
		{"memory", 64 << 20, 20_000},
		{"spilling", MinMemBytes, 20_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stream := visitedStream(7, tc.n, false)
			dir := filepath.Join(t.TempDir(), "store")
			cuts := []int{tc.n / 5, tc.n / 2, tc.n * 4 / 5}
			versions := map[int]uint64{}
			v, err := Open(Options{MemBytes: tc.mem, Durable: dir})
			if err != nil {
				t.Fatal(err)
			}
			for i, fp := range stream {
				for _, c := range cuts {
					if i == c {
						if versions[c], err = v.Checkpoint(); err != nil {
							t.Fatal(err)
						}
					}
				}
				if _, err := v.Add(fp); err != nil {
					t.Fatal(err)
				}
			}
			// Abandoned after its last checkpoint, with more added: Close keeps the store.
			if err := v.Close(); err != nil {
				t.Fatal(err)
			}
			for _, c := range []int{cuts[1], cuts[0], cuts[2]} { // not in order: a resume drops later versions
				oracle := map[uint64]bool{}
				for _, fp := range stream[:c] {
					oracle[fp] = true
				}
				r, err := Open(Options{MemBytes: tc.mem, Durable: dir})
				if err != nil {
					t.Fatal(err)
				}
				if err := r.Resume(versions[c]); err != nil {
					t.Fatalf("Resume(%d): %v", versions[c], err)
				}
				if got := r.Stats().States; got != uint64(len(oracle)) {
					t.Errorf("checkpoint at %d: %d states, want %d", c, got, len(oracle))
				}
				for i, fp := range stream[c:] {
					got, err := r.Add(fp)
					if err != nil {
						t.Fatal(err)
					}
					if want := !oracle[fp]; got != want {
						t.Fatalf("resumed at %d, Add #%d (%#x) = %v, want %v", c, c+i, fp, got, want)
					}
					oracle[fp] = true
				}
				if err := r.Close(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestVisitedDurableFaults: a checkpoint store that is damaged, foreign or unusable gives
// a *StoreError from Open or Resume, never a panic.
func TestVisitedDurableFaults(t *testing.T) {
	base := t.TempDir()
	good := filepath.Join(base, "good")
	v, err := Open(Options{MemBytes: MinMemBytes, Durable: good})
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(1); i < 5000; i++ {
		if _, err := v.Add(filterMix(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := v.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(base, "garbage")
	if err := os.MkdirAll(garbage, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(garbage, "MANIFEST"), []byte("not a manifest at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(base, "cut")
	if err := os.CopyFS(cut, os.DirFS(good)); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(cut, "MANIFEST"), 5); err != nil {
		t.Fatal(err)
	}
	for name, dir := range map[string]string{
		"under a file":       filepath.Join(file, "sub"),
		"garbage manifest":   garbage,
		"manifest cut short": cut,
	} {
		t.Run(name, func(t *testing.T) {
			v, err := Open(Options{MemBytes: MinMemBytes, Durable: dir})
			if err == nil {
				err = v.Resume(1)
				v.Close()
			}
			if err == nil {
				t.Fatal("no error")
			}
			t.Log(err)
			wantStoreError(t, err, dir)
		})
	}
}
