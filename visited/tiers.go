package visited

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dgraph-io/badger/v4"
)

// The spill tier is two badger stores, hot and cold, so that the cost of keeping the
// levels few stays proportional to what is spilled. Each spill is one level of the hot
// store (stream.go). When the hot store's levels run out, everything it holds is written,
// merged with the batch, as one new level of the cold store (in the directory coldDir
// inside the hot store's), and the hot store is emptied; when the cold store's levels
// run out, it is rebuilt (stream.go's rebuild), merged with what comes in.
//
// Why: with one store rebuilt whenever its 24 levels ran out, a rebuild came every
// 22 spills and rewrote every fingerprint spilled so far, so the writing grew
// with the square of the spills. On gossip with 4 agents (1.47 million states) at
// --visited-mem 64KiB (about 540 spills) rebuilds took more than half of 47 CPU seconds;
// at 1MiB (43 spills) they were one rewrite in all. With the cold store, a fingerprint is
// written once to each store, and the cold store is rebuilt once every
// (streamLevels-2)² spills (2,116 at 48 levels). A lookup that the hot store does not
// answer searches the cold store's levels too: at most twice as many Bloom checks.
const coldDir = "cold"

// flushCold writes every key of the hot store s, merged with the keys more returns, to
// the cold store (opening it the first time), then empties s. A failure leaves the
// stores as they are, possibly holding a key twice; the Set reports it and is unusable
// from then on, as after any failure of its store.
func (s *store) flushCold(more func() (uint64, bool)) error {
	if err := s.openCold(); err != nil {
		return err
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
	return s.empty()
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

// openCold opens the cold store of the hot store s, creating it if needed, unless it is
// open.
func (s *store) openCold() error {
	if s.cold != nil {
		return nil
	}
	c, err := openStoreMode(filepath.Join(s.dir, coldDir), s.durable, s.levels, openMode{readOnly: s.readOnly, verified: s.verified})
	if err != nil {
		return fmt.Errorf("cold store: %w", err)
	}
	c.coldTier, c.epoch = true, s.epoch
	s.cold = c
	return nil
}

// A checkpoint's store is split the same way, for the same reason: badger's Flatten,
// which a durable store needs when its levels run out, rewrote the tree level by level
// every 70 spills, and a checkpointed gossip run at 64KiB took 71 CPU seconds against 21
// without checkpoints. Its move (moveCold) carries each key's value, the epoch it was
// written in, and is made crash-safe by what a fingerprint is: it is spilled once, so
// outside a move no key is live in both stores. A kill after the cold store's new level
// is durable and before the hot store is emptied leaves every live key of the hot store
// in the cold store too; resolveMove, when the store is opened, finds the hot store's
// first live key there and finishes the move by emptying the hot store. A kill before
// leaves the cold store without any of them (badger installs a stream-written level
// whole or not at all).

// moveCold moves every live entry of the durable hot store s, with its value, to one new
// level of its cold store (flattened first if its levels have run out), then empties s.
func (s *store) moveCold() error {
	if err := s.openCold(); err != nil {
		return err
	}
	if s.cold.levelsFull() {
		if err := s.cold.flatten(); err != nil {
			return err
		}
	}
	cur, err := s.tables.entries()
	if err != nil {
		return err
	}
	werr := s.cold.streamAt(cur.nextEntry)
	cur.close()
	if err := errors.Join(werr, cur.err); err != nil {
		return err
	}
	return s.empty()
}

// empty drops every key of the hot store s (after a move to its cold store).
func (s *store) empty() error {
	s.tables.closeAll()
	if err := s.db.DropAll(); err != nil {
		return err
	}
	s.flushes++
	s.rtx.Discard()
	s.rtx = s.db.NewTransactionAt(storeVersion, false)
	return s.tables.refresh(s.db)
}

// openDurableCold opens the cold store of a durable hot store s if it exists, and
// finishes a move a kill cut short (see moveCold).
func (s *store) openDurableCold() error {
	if _, err := os.Stat(filepath.Join(s.dir, coldDir, badger.ManifestFilename)); errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("cold store: %w", err)
	}
	if err := s.openCold(); err != nil {
		return err
	}
	return s.resolveMove()
}

// resolveMove empties the hot store s when its first live key is in the cold store: a
// move wrote the cold store's level and was killed before it emptied s. A store opened
// read-only is not emptied, but marked: its keys are all in the cold store too.
func (s *store) resolveMove() error {
	first, ok, err := s.firstLive()
	if err != nil || !ok || !s.cold.tables.has(first) {
		return err
	}
	if s.readOnly {
		s.movedCold = true
		return nil
	}
	return s.empty()
}

// firstLive returns the smallest fingerprint live in the store, if any.
func (s *store) firstLive() (fp uint64, ok bool, err error) {
	err = s.each(func(first uint64, _ *badger.Item) (bool, error) {
		fp, ok = first, true
		return false, nil
	})
	return fp, ok, err
}
