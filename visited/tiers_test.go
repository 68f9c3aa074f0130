package visited

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// durableBatches writes n sorted batches of new, even fingerprints to s, batch i in
// epoch i, and returns each fingerprint's epoch.
func durableBatches(t *testing.T, s *store, r *rand.Rand, from, n int, epochs map[uint64]uint64) {
	t.Helper()
	for batch := from; batch < from+n; batch++ {
		s.epoch = uint64(batch)
		var keys []uint64
		for len(keys) < 1+r.IntN(2000) {
			fp := r.Uint64() &^ 1
			if _, dup := epochs[fp]; !dup {
				epochs[fp] = uint64(batch)
				keys = append(keys, fp)
			}
		}
		slices.Sort(keys)
		if err := s.write(keys); err != nil {
			t.Fatal(err)
		}
	}
}

// checkDurable checks s against the oracle: has finds exactly the fingerprints with an
// epoch up to v, and scan yields each of them once.
func checkDurable(t *testing.T, s *store, epochs map[uint64]uint64, v uint64) {
	t.Helper()
	want := 0
	for fp, e := range epochs {
		found, err := s.has(fp)
		if err != nil {
			t.Fatal(err)
		}
		if found != (e <= v) {
			t.Fatalf("has(%#x) of epoch %d = %v, want %v (epochs up to %d kept)", fp, e, found, e <= v, v)
		}
		if e <= v {
			want++
		}
	}
	seen := map[uint64]int{}
	if err := s.scan(func(fp uint64) { seen[fp]++ }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != want {
		t.Errorf("scan gave %d fingerprints, want %d", len(seen), want)
	}
	for fp, c := range seen {
		if e, ok := epochs[fp]; c != 1 || !ok || e > v {
			t.Fatalf("scan gave %#x %d times (epoch %d, written %v)", fp, c, e, ok)
		}
	}
}

// TestDurableMoveKeepsEpochs: in a checkpoint's store, the fingerprints moved to the cold
// store keep the epoch they were written in, so that dropAfter, across both stores, keeps
// exactly those of the epochs up to the checkpoint's, whichever store holds them, and a
// reopened store holds the same.
func TestDurableMoveKeepsEpochs(t *testing.T) {
	dir := t.TempDir()
	s, err := openDurable(dir, 5, openMode{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(14, 3))
	epochs := map[uint64]uint64{}
	durableBatches(t, s, r, 1, 30, epochs)
	if s.flushes != 7 || s.cold == nil || s.cold.rebuilds != 1 {
		t.Fatalf("after 30 batches: %d moves, cold store %v; want 7 moves and one flatten", s.flushes, s.cold != nil)
	}
	checkDurable(t, s, epochs, 30)
	// Epoch 17's fingerprints went to the cold store with the move at batch 21 (and
	// were flattened with it at batch 25); those of 18-20 too; 21-30 are in both stores.
	const v = 17
	var kept uint64
	got, err := s.dropAfter(v, func(uint64) { kept++ })
	if err != nil {
		t.Fatal(err)
	}
	want := uint64(0)
	for _, e := range epochs {
		if e <= v {
			want++
		}
	}
	if got != want || kept != want {
		t.Errorf("dropAfter(%d) kept %d (called fn %d times), want %d", v, got, kept, want)
	}
	checkDurable(t, s, epochs, v)
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
	if s, err = openDurable(dir, 5, openMode{}); err != nil {
		t.Fatal(err)
	}
	defer s.close()
	checkDurable(t, s, epochs, v)
	// Moves now carry the deletions' effect: a key deleted in a newer level of a store
	// is not moved.
	var dropped []uint64
	for fp, e := range epochs {
		if e > v {
			dropped = append(dropped, fp)
			delete(epochs, fp)
		}
	}
	durableBatches(t, s, r, v+1, 8, epochs)
	checkDurable(t, s, epochs, v+8)
	// The dropped fingerprints come back, as a resumed search adds them again: each is
	// then live in a newer level than its deletion, and moves with it.
	s.epoch = v + 9
	slices.Sort(dropped)
	if err := s.write(dropped); err != nil {
		t.Fatal(err)
	}
	for _, fp := range dropped {
		epochs[fp] = v + 9
	}
	durableBatches(t, s, r, v+10, 8, epochs)
	if s.flushes < 3 {
		t.Errorf("%d moves after the reopening, want at least 3", s.flushes)
	}
	checkDurable(t, s, epochs, v+17)
}

// TestDurableMoveCutShort: a kill in the middle of a move leaves the hot store's keys in
// the cold store too (the cold store's level written, the hot store not yet emptied);
// opening the store finishes the move, and every fingerprint is then found and scanned
// once. A kill before the cold store's level leaves nothing to finish.
func TestDurableMoveCutShort(t *testing.T) {
	for _, tc := range []struct {
		name      string
		coldLevel bool // the kill came after the cold store's level was written
	}{{"after the cold level", true}, {"before the cold level", false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := openDurable(dir, 5, openMode{})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(14, 4))
			epochs := map[uint64]uint64{}
			durableBatches(t, s, r, 1, 6, epochs) // batch 5 moved 1-4 to the cold store
			if err := s.openCold(); err != nil {
				t.Fatal(err)
			}
			if tc.coldLevel {
				// moveCold without its last step.
				var fps []uint64
				if err := s.scanOne(func(fp uint64) { fps = append(fps, fp) }); err != nil {
					t.Fatal(err)
				}
				i := 0
				if err := s.cold.streamAt(func() (entry, bool) {
					if i == len(fps) {
						return entry{}, false
					}
					i++
					return entry{fp: fps[i-1], val: s.value()}, true
				}); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.close(); err != nil {
				t.Fatal(err)
			}
			if s, err = openDurable(dir, 5, openMode{}); err != nil {
				t.Fatal(err)
			}
			defer s.close()
			checkDurable(t, s, epochs, 6)
			_, hotLive, err := s.firstLive()
			if err != nil {
				t.Fatal(err)
			}
			if hotLive == tc.coldLevel {
				t.Errorf("after reopening, the hot store holds keys: %v, want %v", hotLive, !tc.coldLevel)
			}
		})
	}
}

// TestStoreOpensWithItsLevels: a store written with more levels than the opener asks for
// (a checkpoint of a Ravel whose stores had 72) opens with as many as its tables use,
// instead of making badger panic, and holds what was written.
func TestStoreOpensWithItsLevels(t *testing.T) {
	for _, durable := range []bool{false, true} {
		t.Run(map[bool]string{false: "spill", true: "durable"}[durable], func(t *testing.T) {
			dir := t.TempDir()
			s, err := openStoreLevels(dir, durable, 12)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(14, 5))
			epochs := map[uint64]uint64{}
			durableBatches(t, s, r, 1, 3, epochs) // levels 11, 10 and 9
			if err := s.close(); err != nil {
				t.Fatal(err)
			}
			if s, err = openStoreLevels(dir, durable, 5); err != nil {
				t.Fatal(err)
			}
			defer s.close()
			if s.levels != 12 {
				t.Errorf("opened with %d levels, want the 12 its tables use", s.levels)
			}
			checkDurable(t, s, epochs, 3)
		})
	}
}
