package visited

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// visitedStream yields n fingerprints of which about half repeat an earlier one (drawn
// uniformly, or from the last few hundred when local is set), seeded for determinism.
// The special values 0, 1, MaxUint64 and 1<<63 appear early and recur.
func visitedStream(seed uint64, n int, local bool) []uint64 {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	special := []uint64{0, 1, math.MaxUint64, 1 << 63}
	var seen []uint64
	out := make([]uint64, 0, n)
	for len(out) < n {
		var fp uint64
		switch {
		case len(out) < len(special):
			fp = special[len(out)]
		case r.IntN(1000) == 0:
			fp = special[r.IntN(len(special))]
		case len(seen) > 0 && r.IntN(2) == 0:
			lo := 0
			if local {
				lo = max(0, len(seen)-300)
			}
			fp = seen[lo+r.IntN(len(seen)-lo)]
		default:
			fp = r.Uint64()
			seen = append(seen, fp)
		}
		out = append(out, fp)
	}
	return out
}

func openVisitedT(t *testing.T, opts Options) *Set {
	t.Helper()
	v, err := Open(opts)
	if err != nil {
		t.Fatalf("Open(%+v): %v", opts, err)
	}
	t.Cleanup(func() { _ = v.Close() })
	return v
}

// TestVisitedOracle checks Add against a Go map, in memory and with a 16 KiB budget under
// which almost every fingerprint spills to disk.
func TestVisitedOracle(t *testing.T) {
	for _, tc := range []struct {
		name      string
		mem       int64
		n         int
		local     bool
		wantSpill bool
	}{
		{"memory", 64 << 20, 200_000, false, false},
		{"memory-grows-to-limit", 64 << 10, 7_000, false, false}, // 5461 slots, not a power of 2
		{"spill-uniform", 16 << 10, 150_000, false, true},
		{"spill-local", 16 << 10, 150_000, true, true},
		{"spill-min-budget", MinMemBytes, 30_000, false, true},
	} {
		if raceEnabled {
			tc.n /= 5 // the race detector slows the disk path down
		}
		t.Run(tc.name, func(t *testing.T) {
			v := openVisitedT(t, Options{MemBytes: tc.mem, Dir: t.TempDir()})
			oracle := map[uint64]bool{}
			var revisits uint64
			for i, fp := range visitedStream(uint64(len(tc.name)), tc.n, tc.local) {
				// Prefetch is a hint: of the key added next, or of another, it
				// changes no answer.
				v.Prefetch(fp)
				v.Prefetch(fp*0x9e3779b97f4a7c15 + 1)
				got, err := v.Add(fp)
				if err != nil {
					t.Fatalf("Add #%d (%#x): %v", i, fp, err)
				}
				want := !oracle[fp]
				oracle[fp] = true
				if !want {
					revisits++
				}
				if got != want {
					t.Fatalf("Add #%d (%#x) = %v, want %v (stats %+v)", i, fp, got, want, v.Stats())
				}
				if mb := v.Stats().MemBytes; i%1000 == 0 && mb > tc.mem {
					t.Fatalf("after %d adds the set holds %d bytes, over its budget of %d", i, mb, tc.mem)
				}
			}
			st := v.Stats()
			if st.States != uint64(len(oracle)) || st.Revisits != revisits {
				t.Errorf("stats %+v: want States %d, Revisits %d", st, len(oracle), revisits)
			}
			if tc.name == "memory-grows-to-limit" && !raceEnabled && len(v.slots) != v.maxLen {
				t.Errorf("the table has %d slots, want its largest size %d", len(v.slots), v.maxLen)
			}
			if spilled := st.Spilled > 0; spilled != tc.wantSpill {
				t.Errorf("stats %+v: spilled = %v, want %v", st, spilled, tc.wantSpill)
			}
			if tc.wantSpill {
				if st.Spilled < st.States*3/4 {
					t.Errorf("stats %+v: expected most fingerprints on disk", st)
				}
				if st.DiskReads == 0 || st.FilterFalsePositives > st.DiskReads {
					t.Errorf("stats %+v: implausible disk counters", st)
				}
				if v.rebuilt == 0 {
					t.Errorf("stats %+v: the filter was never rebuilt", st)
				}
				if st.Spills > streamLevels && v.store.flushes == 0 {
					t.Errorf("stats %+v: %d spills and the hot store never moved to the cold store", st, st.Spills)
				}
				if st.MemBytes > tc.mem || st.MemBytes < tc.mem*9/10 {
					t.Errorf("stats %+v: MemBytes should be just under the budget %d once spilling", st, tc.mem)
				}
				// Every fingerprint, wherever it lives, is now a revisit.
				for fp := range oracle {
					if isNew, err := v.Add(fp); err != nil || isNew {
						t.Fatalf("re-Add(%#x) = %v, %v; want false, nil", fp, isNew, err)
					}
				}
			}
			dir := v.Dir()
			if err := v.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("Close left the store directory %s behind (%v)", dir, err)
			}
			if err := v.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			if _, err := v.Add(1); !errors.Is(err, ErrClosed) {
				t.Errorf("Add after Close: err = %v, want ErrClosed", err)
			}
		})
	}
}

// TestVisitedSpecialValues: 0 is the table's empty marker, and the extremes are the ends
// of every run on disk; all are ordinary fingerprints to the caller, before and after
// spilling.
func TestVisitedSpecialValues(t *testing.T) {
	special := []uint64{0, 1, math.MaxUint64, 1 << 63, 1<<63 - 1}
	for _, spill := range []bool{false, true} {
		v := openVisitedT(t, Options{MemBytes: MinMemBytes, Dir: t.TempDir()})
		for _, fp := range special {
			if isNew, err := v.Add(fp); err != nil || !isNew {
				t.Fatalf("first Add(%#x) = %v, %v", fp, isNew, err)
			}
		}
		if spill {
			r := rand.New(rand.NewPCG(1, 2))
			for range 5000 {
				if _, err := v.Add(r.Uint64() | 1<<62); err != nil {
					t.Fatal(err)
				}
			}
			if v.Stats().Spilled == 0 {
				t.Fatal("nothing spilled")
			}
		}
		for _, fp := range special {
			if isNew, err := v.Add(fp); err != nil || isNew {
				t.Fatalf("spill=%v: second Add(%#x) = %v, %v", spill, fp, isNew, err)
			}
		}
		if st := v.Stats(); st.Revisits != uint64(len(special)) {
			t.Errorf("spill=%v: Revisits = %d, want %d", spill, st.Revisits, len(special))
		}
	}
}

func TestVisitedDefaultTempDir(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	v, err := Open(Options{MemBytes: MinMemBytes})
	if err != nil {
		t.Fatal(err)
	}
	if v.Dir() != "" {
		t.Errorf("a directory %s was made before anything spilled", v.Dir())
	}
	for i := range uint64(2000) {
		if _, err := v.Add(filterMix(i + 1)); err != nil {
			t.Fatal(err)
		}
	}
	dir := v.Dir()
	if dir == "" || !strings.HasPrefix(filepath.Base(dir), visitedPrivatePrefix) {
		t.Fatalf("store directory %q, want a %s* directory", dir, visitedPrivatePrefix)
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Close left %s behind", dir)
	}
}

func TestVisitedBadOptions(t *testing.T) {
	for _, mem := range []int64{-1, MinMemBytes - 1} {
		if _, err := Open(Options{MemBytes: mem}); err == nil {
			t.Errorf("Open(MemBytes %d) succeeded", mem)
		}
	}
	v := openVisitedT(t, Options{})
	if st := v.Stats(); st.MemBytes > 64<<10 {
		t.Errorf("an empty set holds %d bytes", st.MemBytes)
	}
}

func TestCollisionProbability(t *testing.T) {
	for _, tc := range []struct {
		n    uint64
		want float64
	}{
		{0, 0},
		{1, 0},
		{1 << 20, 0x1p-25},
		{1 << 32, 0x1p-1 * 1}, // n²/2⁶⁵ = 1/2, so 1 − e^(−1/2)
	} {
		got := Stats{States: tc.n}.CollisionProbability()
		want := tc.want
		if tc.n == 1<<32 {
			want = -math.Expm1(-0.5 * (1 - 0x1p-32))
		}
		if math.Abs(got-want) > want*1e-6 {
			t.Errorf("n=%d: %g, want %g", tc.n, got, want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"0", 0},
		{"4096", 4096},
		{"100B", 100},
		{"64KiB", 64 << 10},
		{"512MiB", 512 << 20},
		{"2GiB", 2 << 30},
		{"1TiB", 1 << 40},
		{"100MB", 100_000_000},
		{"1kb", 1000},
		{"3 GB", 3_000_000_000},
		{" 16 kib ", 16 << 10},
		{"1.5GiB", 3 << 29},
		{".5KiB", 512},
		{"0.1KiB", 102},
		{"8388607TiB", 8388607 << 40},
		{"9223372036854775807", math.MaxInt64},
	} {
		got, err := ParseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, msg string }{
		{"", "empty"},
		{"   ", "empty"},
		{"MiB", "no number"},
		{"-1MiB", "negative"},
		{"12XB", `unknown unit "XB"`},
		{"12 bytes", "unknown unit"},
		{"512M", `ambiguous unit "M": write MiB`},
		{"2g", "ambiguous"},
		{"1.2.3MB", "not a number"},
		{"1.MB", "not a number"},
		{".", "not a number"},
		{"8388608TiB", "too large"},
		{"9223372036854775808", "too large"},
		{"99999999999999999999", "too large"},
		{"0x10", "unknown unit"},
	} {
		got, err := ParseSize(tc.in)
		if err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", tc.in, got)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), `"`+tc.in+`"`) {
			t.Errorf("ParseSize(%q): error %q should name the input and say %q", tc.in, err, tc.msg)
		}
	}
}

// wantStoreError checks that err is a *StoreError naming dir.
func wantStoreError(t *testing.T, err error, dir string) *StoreError {
	t.Helper()
	var se *StoreError
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *StoreError", err, err)
	}
	if !strings.Contains(err.Error(), dir) {
		t.Errorf("error %q does not name %s", err, dir)
	}
	return se
}

func TestVisitedDirFaults(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, dir := range map[string]string{
		"dir is a file":     file,
		"dir under a file":  filepath.Join(file, "sub"),
		"dir under a file2": filepath.Join(file, "a", "b"),
	} {
		_, err := Open(Options{MemBytes: MinMemBytes, Dir: dir})
		if err == nil {
			t.Errorf("%s: Open succeeded", name)
			continue
		}
		t.Logf("%s: %v", name, err)
		wantStoreError(t, err, filepath.Dir(file))
	}

	t.Run("read-only", func(t *testing.T) {
		ro := filepath.Join(base, "ro")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		if os.Geteuid() == 0 {
			// Root writes to a directory whatever its mode; /sys refuses everyone.
			if err := os.Mkdir("/sys/ravel-visited-probe", 0o700); err == nil {
				os.Remove("/sys/ravel-visited-probe")
				t.Skip("running as root, and /sys is writable: no read-only place to try")
			}
			ro = "/sys"
		}
		_, err := Open(Options{MemBytes: MinMemBytes, Dir: ro})
		if err == nil {
			t.Fatal("Open in a read-only directory succeeded")
		}
		t.Log(err)
		wantStoreError(t, err, ro)
	})

	t.Run("store directory replaced by a file", func(t *testing.T) {
		// A file where the store expects its directory: the spill cannot write its run,
		// whoever runs the test (root included, whom a directory's mode does not stop).
		v, err := Open(Options{MemBytes: MinMemBytes, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		if err := os.RemoveAll(v.Dir()); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(v.Dir(), []byte("not a directory"), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(v.Dir())
		var addErr error
		for i := uint64(1); addErr == nil && i < 10_000; i++ {
			_, addErr = v.Add(filterMix(i))
		}
		t.Log(addErr)
		wantStoreError(t, addErr, v.Dir())
	})

	t.Run("temp dir unusable", func(t *testing.T) {
		// The default store directory is made at the first spill: the error comes from Add.
		t.Setenv("TMPDIR", filepath.Join(file, "tmp"))
		v, err := Open(Options{MemBytes: MinMemBytes})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		var addErr error
		for i := uint64(1); addErr == nil && i < 10_000; i++ {
			_, addErr = v.Add(filterMix(i))
		}
		t.Log(addErr)
		se := wantStoreError(t, addErr, file)
		if se.Op != "create" {
			t.Errorf("Op = %q, want create", se.Op)
		}
		if _, err := v.Add(12345); err != addErr {
			t.Errorf("the error is not sticky: then %v", err)
		}
		if err := v.Close(); err != nil {
			t.Errorf("Close after a failure: %v", err)
		}
	})
}

// TestVisitedGarbageInDir: the store lives in a private subdirectory, so whatever else is
// in Dir — here, files named like the store's own — is left alone.
func TestVisitedGarbageInDir(t *testing.T) {
	dir := t.TempDir()
	garbage := map[string]string{"run-000000": "garbage", "run-000001": "x", "MANIFEST": "??", "LOCK": "x"}
	for name, content := range garbage {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := openVisitedT(t, Options{MemBytes: MinMemBytes, Dir: dir})
	for i := uint64(1); i <= 5000; i++ {
		if isNew, err := v.Add(filterMix(i)); err != nil || !isNew {
			t.Fatalf("Add: %v, %v", isNew, err)
		}
	}
	if isNew, err := v.Add(filterMix(1)); err != nil || isNew {
		t.Fatalf("re-Add: %v, %v", isNew, err)
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	for name, content := range garbage {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != content {
			t.Errorf("%s was changed: %q, %v", name, b, err)
		}
	}
}

func TestVisitedDiskFull(t *testing.T) {
	v := openVisitedT(t, Options{MemBytes: MinMemBytes, Dir: t.TempDir()})
	free := int64(1 << 40)
	v.freeDisk = func(string) (int64, bool) { return free, true }
	var err error
	for i := uint64(1); err == nil && i < 100_000; i++ {
		_, err = v.Add(filterMix(i))
		if st := v.Stats(); st.Spilled > 0 {
			free = visitedDiskSlack // the disk fills up
		}
	}
	if err == nil {
		t.Fatal("no error from a full disk")
	}
	t.Log(err)
	se := wantStoreError(t, err, v.Dir())
	if se.Op != "write" || !errors.Is(err, ErrDiskFull) {
		t.Errorf("error %v: want Op write wrapping ErrDiskFull", err)
	}
	if _, err2 := v.Add(filterMix(1)); err2 != err {
		t.Errorf("the error is not sticky: then %v", err2)
	}
	dir := v.Dir()
	if err := v.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Close left %s behind", dir)
	}
}

// TestVisitedFilterRate measures the filter's false-positive rate at several loads and
// checks it against the rates its documentation promises.
func TestVisitedFilterRate(t *testing.T) {
	for _, tc := range []struct {
		bitsPerKey int
		maxRate    float64
	}{{16, 0.002}, {10, 0.015}, {6, 0.07}, {4, 0.17}, {2, 0.45}} {
		const keys = 100_000
		f := newVisitedFilter(keys*int64(tc.bitsPerKey)/8, keys)
		r := rand.New(rand.NewPCG(uint64(tc.bitsPerKey), 9))
		for range keys {
			f.add(r.Uint64())
		}
		fp := 0
		const probes = 200_000
		for range probes {
			if f.mayContain(r.Uint64()) {
				fp++
			}
		}
		rate := float64(fp) / probes
		t.Logf("%2d bits/key, k=%d: false positives %.3f%%", tc.bitsPerKey, f.k, 100*rate)
		if rate > tc.maxRate {
			t.Errorf("%d bits/key: false-positive rate %.4f above %.4f", tc.bitsPerKey, rate, tc.maxRate)
		}
	}
}

// TestVisitedStoreOracle checks the badger store alone against a Go map, as the spill
// tier (through several flushes to its cold store and a rebuild of that) and as a durable
// store (through several moves to its cold store and a flatten of that): after each of many sorted batches of different sizes,
// every fingerprint written is found, fingerprints never written are not, and a scan
// yields each exactly once.
func TestVisitedStoreOracle(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		durable                   bool
		levels, batches           int
		wantFlushes, wantRebuilds int
	}{
		// 5 levels: batches 1-4 go to levels 4, 3, 2 and 1 of the hot store; batch 5
		// moves them, with itself, to level 4 of the cold store, and empties the hot
		// store; so does every fifth batch after it, to levels 3, 2 and 1 of the cold
		// store (10, 15, 20). At batch 25 the cold store is full and is rebuilt, with
		// batches 21-25, into its level 4; batch 30 goes to its level 3.
		{"stream", false, 5, 30, 6, 1},
		// A durable store moves its keys to its cold store the same way (batches 5, 9,
		// ..., 29), each key with its value; the cold store is flattened instead of
		// rebuilt when full (batch 21), into its level 4.
		{"durable", true, 5, 30, 7, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testStoreOracle(t, tc.durable, tc.levels, tc.batches, tc.wantFlushes, tc.wantRebuilds)
		})
	}
}

func testStoreOracle(t *testing.T, durable bool, levels, batches, wantFlushes, wantRebuilds int) {
	s, err := openStoreLevels(t.TempDir(), durable, levels)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	r := rand.New(rand.NewPCG(3, 4))
	written := map[uint64]bool{}
	for batch := 1; batch <= batches; batch++ {
		n := 1 + r.IntN(3000)
		var keys []uint64
		for len(keys) < n {
			fp := r.Uint64() &^ 1 // even: the odd numbers stay unwritten
			if !written[fp] {
				written[fp] = true
				keys = append(keys, fp)
			}
		}
		if batch == 1 {
			keys = append(keys, 0, math.MaxUint64-1)
			written[0], written[math.MaxUint64-1] = true, true
		}
		slices.Sort(keys)
		if err := s.write(keys); err != nil {
			t.Fatal(err)
		}
		for fp := range written {
			if found, err := s.has(fp); err != nil || !found {
				t.Fatalf("after batch %d: has(%#x) = %v, %v; want true", batch, fp, found, err)
			}
			if found, err := s.has(fp | 1); err != nil || found {
				t.Fatalf("after batch %d: has(%#x) = %v, %v; want false", batch, fp|1, found, err)
			}
		}
	}
	rebuilds := s.rebuilds
	if s.cold != nil {
		rebuilds += s.cold.rebuilds
	}
	scanned := map[uint64]int{}
	if s.flushes != wantFlushes || rebuilds != wantRebuilds {
		t.Errorf("store flushed to its cold store %d times and rebuilt %d, want %d and %d", s.flushes, rebuilds, wantFlushes, wantRebuilds)
	}
	if err := s.scan(func(fp uint64) { scanned[fp]++ }); err != nil {
		t.Fatal(err)
	}
	if len(scanned) != len(written) {
		t.Errorf("scan gave %d fingerprints, want %d", len(scanned), len(written))
	}
	for fp, c := range scanned {
		if c != 1 || !written[fp] {
			t.Errorf("scan gave %#x %d times (written: %v)", fp, c, written[fp])
		}
	}
}
