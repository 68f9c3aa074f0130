package visited

import (
	"errors"
	"path/filepath"
)

// The spill tier is two badger stores, hot and cold, so that the cost of keeping the
// levels few stays proportional to what is spilled. Each spill is one level of the hot
// store (stream.go). When the hot store's levels run out, everything it holds is written,
// merged with the batch, as one new level of the cold store (in the directory coldDir
// inside the hot store's), and the hot store is emptied; when the cold store's levels
// run out, it is rebuilt (stream.go's rebuild), merged with what comes in.
//
// Why: with one store rebuilt whenever its levels ran out, a rebuild came every
// streamLevels-2 spills and rewrote every fingerprint spilled so far, so the writing grew
// with the square of the spills. On gossip with 4 agents (1.47 million states) at
// --visited-mem 64KiB (about 540 spills) rebuilds took more than half of 47 CPU seconds;
// at 1MiB (43 spills) they were one rewrite in all. With the cold store, a fingerprint is
// written once to each store, and the cold store is rebuilt once every
// (streamLevels-2)² spills (484 at 24 levels). A lookup that the hot store does not
// answer searches the cold store's levels too: at most twice as many Bloom checks.
const coldDir = "cold"

// flushCold writes every key of the hot store s, merged with the keys more returns, to
// the cold store (opening it the first time), then empties s. A failure leaves the
// stores as they are, possibly holding a key twice; the Set reports it and is unusable
// from then on, as after any failure of its store.
func (s *store) flushCold(more func() (uint64, bool)) error {
	if s.cold == nil {
		c, err := openStoreLevels(filepath.Join(s.dir, coldDir), false, s.levels)
		if err != nil {
			return err
		}
		c.coldTier = true
		s.cold = c
	}
	cur, err := s.tables.sorted()
	if err != nil {
		return err
	}
	werr := s.cold.writeKeys(mergeSorted(cur.next, more))
	cur.close()
	if err := errors.Join(werr, cur.err); err != nil {
		return err
	}
	s.tables.closeAll()
	if err := s.db.DropAll(); err != nil {
		return err
	}
	s.flushes++
	s.rtx.Discard()
	s.rtx = s.db.NewTransactionAt(storeVersion, false)
	return s.tables.refresh(s.db)
}

// mergeSorted returns the merge of two increasing sequences without common keys, each
// given by a function that returns the next key and whether there is one.
func mergeSorted(a, b func() (uint64, bool)) func() (uint64, bool) {
	x, okX := a()
	y, okY := b()
	return func() (uint64, bool) {
		switch {
		case okX && (!okY || x < y):
			fp := x
			x, okX = a()
			return fp, true
		case okY:
			fp := y
			y, okY = b()
			return fp, true
		}
		return 0, false
	}
}
