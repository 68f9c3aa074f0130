package visited

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/cespare/xxhash/v2"
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
				r, err := Open(Options{MemBytes: tc.mem, Durable: dir, Resume: true})
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
// a *StoreError from Open or Resume, never a panic; and a store whose MANIFEST is gone or
// cut short is refused before badger, which would take it for empty and delete its
// tables, opens it.
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
	ssts, _ := filepath.Glob(filepath.Join(good, "*.sst"))
	if len(ssts) < 2 {
		t.Fatalf("badger tables %v, want at least two", ssts)
	}
	sstName := filepath.Base(ssts[len(ssts)/2])
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// damage copies the good store to a directory of its own and changes it with fn.
	damage := func(name string, fn func(dir string) error) string {
		t.Helper()
		dir := filepath.Join(base, name)
		if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
			t.Fatal(err)
		}
		if err := fn(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	overwrite := func(path string, off int64, b []byte) error {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteAt(b, off)
		return err
	}
	tableFile := func(dir string) string {
		tables, _ := filepath.Glob(filepath.Join(dir, tablePrefix+"*"))
		if len(tables) != 1 {
			t.Fatalf("tables %v, want one", tables)
		}
		return tables[0]
	}
	garbage := make([]byte, 20<<10)
	for i := range garbage {
		garbage[i] = byte(filterMix(uint64(i)))
	}
	for _, tc := range []struct {
		name, dir string
		want      string // in the error
	}{
		{"sst damaged", damage("sst-damaged", func(d string) error {
			return overwrite(filepath.Join(d, sstName), 200, []byte("garbage!"))
		}), "table " + sstName},
		// The probe's cases (B2): badger panicked on these in a goroutine of its own.
		{"sst cut short", damage("sst-cut", func(d string) error {
			return os.Truncate(filepath.Join(d, sstName), 5000)
		}), "the checkpoint's store is damaged (table " + sstName + ")"},
		{"sst garbage", damage("sst-garbage", func(d string) error {
			return overwrite(filepath.Join(d, sstName), 10<<10, garbage)
		}), "the checkpoint's store is damaged (table " + sstName + ")"},
		{"sst empty", damage("sst-empty", func(d string) error {
			return os.Truncate(filepath.Join(d, sstName), 0)
		}), "table " + sstName},
		{"sst missing", damage("sst-missing", func(d string) error {
			return os.Remove(filepath.Join(d, sstName))
		}), "missing table " + sstName},
		{"table damaged", damage("damaged", func(d string) error {
			return overwrite(tableFile(d), 100, []byte{0xff, 0xfe})
		}), "checksum mismatch"},
		{"table missing", damage("no-table", func(d string) error {
			return os.Remove(tableFile(d))
		}), "table"},
		{"garbage manifest", damage("garbage-manifest", func(d string) error {
			return os.WriteFile(filepath.Join(d, "MANIFEST"), []byte("not a manifest at all"), 0o644)
		}), "MANIFEST"},
		{"manifest cut short", damage("cut", func(d string) error {
			return os.Truncate(filepath.Join(d, "MANIFEST"), 5)
		}), "MANIFEST"},
		// B3: badger reads these as an empty store, and deleted the tables.
		{"manifest cut to its magic", damage("cut-10", func(d string) error {
			return os.Truncate(filepath.Join(d, "MANIFEST"), 10)
		}), "missing tables (MANIFEST damaged?)"},
		{"manifest missing", damage("no-manifest", func(d string) error {
			return os.Remove(filepath.Join(d, "MANIFEST"))
		}), "MANIFEST is missing"},
		{"no checkpoint", func() string {
			d := filepath.Join(base, "empty")
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
			return d
		}(), "no complete checkpoint"},
		{"under a file", filepath.Join(file, "sub"), "not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := dirListing(t, tc.dir)
			for _, ro := range []bool{true, false} {
				v, err := Open(Options{MemBytes: MinMemBytes, Durable: tc.dir, Resume: true, ReadOnly: ro})
				if err == nil {
					err = v.Resume()
					v.Close()
				}
				if err == nil {
					t.Fatalf("read-only %v: no error", ro)
				}
				t.Log(err)
				wantStoreError(t, err, tc.dir)
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("read-only %v: error %q does not say %q", ro, err, tc.want)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("read-only %v: error %q is more than a line", ro, err)
				}
				// Read-only changes nothing; nor does a refusal before badger opens.
				if after := dirListing(t, tc.dir); (ro || strings.Contains(err.Error(), ": open: ")) && !slices.Equal(after, before) {
					t.Errorf("read-only %v: the directory changed:\n%v\nbefore:\n%v", ro, after, before)
				}
			}
		})
	}
}

// dirListing lists the files under dir with their sizes, "" for a directory that does
// not exist.
func dirListing(t *testing.T, dir string) []string {
	t.Helper()
	var l []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		l = append(l, fmt.Sprintf("%s %d", path, fi.Size()))
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		t.Fatal(err)
	}
	return l
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
	r, err := Open(Options{MemBytes: 64 << 10, Durable: dir, Resume: true})
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
	if err := os.WriteFile(filepath.Join(dir, "notes"), []byte("a user's file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Options{MemBytes: MinMemBytes, Durable: dir, Resume: true}); !errors.Is(err, ErrNoCheckpoint) {
		t.Errorf("resuming it: %v, want ErrNoCheckpoint", err)
	}
	r, err := Open(Options{MemBytes: MinMemBytes, Durable: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := os.Stat(filepath.Join(dir, "notes")); err != nil {
		t.Errorf("a file not the store's was removed: %v", err)
	}
	for i := uint64(1); i <= 5000; i++ {
		if isNew, err := r.Add(filterMix(i)); err != nil || !isNew {
			t.Fatalf("Add(%d) = %v, %v; want new", i, isNew, err)
		}
	}
}

// TestVisitedLegacyCheckpoint: a checkpoint taken before the directory marker and the
// record's count of spilled fingerprints (B5, B3) still resumes, and a new store is not
// started over it.
func TestVisitedLegacyCheckpoint(t *testing.T) {
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
	if err := v.Checkpoint([]byte("legacy")); err != nil {
		t.Fatal(err)
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	// Rewrite the record as an older Ravel wrote it: no flag, no count; and no marker.
	path := filepath.Join(dir, recordFile)
	val, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	val = val[:len(val)-8]
	n := recordLen(val)
	old := append(append([]byte(nil), val[:n-8]...), val[n:]...)
	old[9] = 0
	old = binary.LittleEndian.AppendUint64(old, xxhash.Sum64(old))
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, markerFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Options{MemBytes: MinMemBytes, Durable: dir}); !errors.Is(err, ErrHasCheckpoint) {
		t.Errorf("a new store over it: %v, want ErrHasCheckpoint", err)
	}
	r, err := Open(Options{MemBytes: MinMemBytes, Durable: dir, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if rec, err := r.LastCheckpoint(); err != nil || string(rec) != "legacy" {
		t.Fatalf("LastCheckpoint = %q, %v", rec, err)
	}
	if err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	if r.Stats().Spilled == 0 {
		t.Fatal("nothing was spilled: the test checks nothing")
	}
	for i := uint64(1); i <= 6000; i++ {
		if isNew, err := r.Add(filterMix(i)); err != nil || isNew != (i > 5000) {
			t.Fatalf("Add(%d) = %v, %v", i, isNew, err)
		}
	}
}
