package visited

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestVisitedCheckpointResume checks Checkpoint and Resume against a Go map: a set adds
// part of a stream, checkpoints, adds more and is abandoned (as a killed run would be);
// the set resumed from the checkpoint answers exactly as the map of the fingerprints added
// before it, goes on answering correctly, checkpoints again and is abandoned again, and a
// second resume is again exact. Budgets in memory and spilling.
func TestVisitedCheckpointResume(t *testing.T) {
	for _, tc := range []struct {
		name string
		mem  int64
		n    int
	}{
		{"memory", 64 << 20, 20_000},
		{"two-tables", 256 << 10, 60_000}, // an old table and a young one at the first checkpoint, nothing spilled
		{"spilling", MinMemBytes, 20_000},
		{"spilling-more", 16 << 10, 60_000},
	} {
		if raceEnabled {
			tc.n /= 4
		}
		t.Run(tc.name, func(t *testing.T) {
			stream := visitedStream(7, tc.n, false)
			dir := filepath.Join(t.TempDir(), "store")
			oracle := map[uint64]bool{}
			// add runs stream[from:to] on v, checking it against the oracle when check is set.
			add := func(v *Set, from, to int, check bool) {
				t.Helper()
				for i, fp := range stream[from:to] {
					got, err := v.Add(fp)
					if err != nil {
						t.Fatal(err)
					}
					if want := !oracle[fp]; check && got != want {
						t.Fatalf("Add #%d (%#x) = %v, want %v", from+i, fp, got, want)
					}
					if check {
						oracle[fp] = true
					}
				}
			}
			v, err := Open(Options{MemBytes: tc.mem, Durable: dir})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := v.LastCheckpoint(); !errors.Is(err, ErrNoCheckpoint) {
				t.Errorf("LastCheckpoint of a new store: %v, want ErrNoCheckpoint", err)
			}
			c1, c2 := tc.n/3, tc.n*2/3
			add(v, 0, c1, true)
			if tc.name == "two-tables" && !raceEnabled && (len(v.older) != 1 || v.Stats().Spilled != 0) {
				t.Fatalf("at the first checkpoint: %d old tables, %d spilled; want 1 and 0", len(v.older), v.Stats().Spilled)
			}
			if err := v.Checkpoint([]byte("first")); err != nil {
				t.Fatal(err)
			}
			add(v, c1, tc.n, false) // lost: the run is killed before its next checkpoint
			if err := v.Close(); err != nil {
				t.Fatal(err)
			}
			for round, cut := range []int{c1, c2} {
				r, err := Open(Options{MemBytes: tc.mem, Durable: dir})
				if err != nil {
					t.Fatal(err)
				}
				rec, err := r.LastCheckpoint()
				if want := []string{"first", "second"}[round]; err != nil || string(rec) != want {
					t.Fatalf("round %d: LastCheckpoint = %q, %v; want %q", round, rec, err, want)
				}
				if err := r.Resume(); err != nil {
					t.Fatalf("round %d: Resume: %v", round, err)
				}
				if got := r.Stats().States; got != uint64(len(oracle)) {
					t.Errorf("round %d: resumed with %d states, want %d", round, got, len(oracle))
				}
				if round == 0 {
					add(r, cut, c2, true)
					if err := r.Checkpoint([]byte("second")); err != nil {
						t.Fatal(err)
					}
					add(r, c2, tc.n, false)
				} else {
					add(r, cut, tc.n, true)
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
	if err := v.Checkpoint(nil); err != nil {
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
	damaged := filepath.Join(base, "damaged")
	if err := os.CopyFS(damaged, os.DirFS(good)); err != nil {
		t.Fatal(err)
	}
	tables, _ := filepath.Glob(filepath.Join(damaged, tablePrefix+"*"))
	if len(tables) != 1 {
		t.Fatalf("tables %v, want one", tables)
	}
	f, err := os.OpenFile(tables[0], os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0xff, 0xfe}, 100); err != nil {
		t.Fatal(err)
	}
	f.Close()
	noTable := filepath.Join(base, "no-table")
	if err := os.CopyFS(noTable, os.DirFS(good)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(noTable, filepath.Base(tables[0]))); err != nil {
		t.Fatal(err)
	}
	sst := filepath.Join(base, "sst-damaged")
	if err := os.CopyFS(sst, os.DirFS(good)); err != nil {
		t.Fatal(err)
	}
	ssts, _ := filepath.Glob(filepath.Join(sst, "*.sst"))
	if len(ssts) == 0 {
		t.Fatal("no badger table in the checkpoint")
	}
	g, err := os.OpenFile(ssts[0], os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteAt([]byte("garbage!"), 200); err != nil {
		t.Fatal(err)
	}
	g.Close()
	for name, dir := range map[string]string{
		"sst damaged":        sst,
		"table damaged":      damaged,
		"table missing":      noTable,
		"no checkpoint":      filepath.Join(base, "new"),
		"under a file":       filepath.Join(file, "sub"),
		"garbage manifest":   garbage,
		"manifest cut short": cut,
	} {
		t.Run(name, func(t *testing.T) {
			v, err := Open(Options{MemBytes: MinMemBytes, Durable: dir})
			if err == nil {
				err = v.Resume()
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

// TestVisitedCheckpointCutShort: files a checkpoint cut short by a kill leaves behind (a
// temporary table, a table whose record was never written) do not disturb the resume
// from the last complete checkpoint, and the next checkpoint removes them.
func TestVisitedCheckpointCutShort(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	v, err := Open(Options{MemBytes: 64 << 10, Durable: dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(1); i <= 1000; i++ {
		if _, err := v.Add(filterMix(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := v.Checkpoint([]byte("done")); err != nil {
		t.Fatal(err)
	}
	for i := uint64(1001); i <= 2000; i++ {
		if _, err := v.Add(filterMix(i)); err != nil {
			t.Fatal(err)
		}
	}
	// The next checkpoint is killed after writing its table, before its record.
	if _, err := v.writeTable(v.store.epoch, v.tables()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, tableName(v.store.epoch+1)+".tmp"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	v.Close()
	r, err := Open(Options{MemBytes: 64 << 10, Durable: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	if got := r.Stats().States; got != 1000 {
		t.Errorf("resumed with %d states, want 1000", got)
	}
	for i := uint64(1); i <= 2000; i++ {
		if isNew, err := r.Add(filterMix(i)); err != nil || isNew != (i > 1000) {
			t.Fatalf("Add(%d) = %v, %v", i, isNew, err)
		}
	}
	if err := r.Checkpoint([]byte("next")); err != nil {
		t.Fatal(err)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, tablePrefix+"*")); len(names) != 1 {
		t.Errorf("after a checkpoint, table files %v; want one", names)
	}
}

// TestVisitedKilledBeforeFirstCheckpoint: a store whose run was killed before its first
// checkpoint holds fingerprints but no record; a set opened on it starts empty.
func TestVisitedKilledBeforeFirstCheckpoint(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	v, err := Open(Options{MemBytes: MinMemBytes, Durable: dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(1); i <= 5000; i++ {
		if _, err := v.Add(filterMix(i)); err != nil {
			t.Fatal(err)
		}
	}
	if v.Stats().Spilled == 0 {
		t.Fatal("nothing spilled")
	}
	v.Close()
	r, err := Open(Options{MemBytes: MinMemBytes, Durable: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := uint64(1); i <= 5000; i++ {
		if isNew, err := r.Add(filterMix(i)); err != nil || !isNew {
			t.Fatalf("Add(%d) = %v, %v; want new", i, isNew, err)
		}
	}
}
