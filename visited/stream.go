package visited

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/ristretto/v2/z"
)

// The spill tier of a set without checkpoints does not go through badger's write path.
// A spill is one sorted batch of keys that are in no other batch, so it is written with
// badger's incremental StreamWriter, which builds the batch's tables directly (no
// memtable, no write-ahead log) and installs them as a level of their own above the
// levels written before; badger's compactions are off. What that bought, measured on
// gossip with 4 agents spilling at 1 MiB (docs/visited-states.md): through the write
// path, each key was inserted in a skiplist, flushed to a level-0 table, and rewritten
// by every compaction of level 0 into level 1 — 5.8 of the 10 CPU seconds that spilling
// added went there; a stream-written batch costs one table build.
//
// A lookup visits the levels newest first and checks each level's table by its Bloom
// filter, so the number of levels is bounded: when the next batch would have to go to
// level 0 or 1, the store's keys move to its cold store (tiers.go). Badger's own way out,
// Flatten, compacts level by level, rewriting the upper batches once for every level
// below them.
//
// 48 levels: with badger's filters at 0.1 % an extra level costs a lookup little, and on
// gossip-4 at 1MiB (43 spills) 48 took 0.94× the CPU of 24, which move once (5 pairs);
// at 256KiB and 64KiB, 0.98× and 0.99× (2 pairs each). Before the filters were set right
// (they passed 4 % at 1 %), 48 was 1.13× of 24.
//
// A durable store (a checkpoint's) is written the same way, and a resume's rewrites
// (store.dropAfter) are one stream write with deletions; nothing may go through
// badger's write path, as the stream writer refuses a database whose memtable holds
// anything. Both kinds of store have a cold store behind them (tiers.go); a durable
// cold store's levels, when they run out, are flattened by badger rather than rebuilt.
const streamLevels = 48

// streamChunk is how many keys go to the stream writer in one buffer: each becomes an
// entry of about 100 bytes on the Go heap until its table is built.
const streamChunk = 1 << 13

// streamOptions adapts the badger options of a store to stream writing: no compactors,
// the given number of levels, and the smallest memtable (nothing is written to it, but
// badger allocates its arena at open).
func streamOptions(opt badger.Options, levels int) badger.Options {
	return opt.WithNumCompactors(0).
		WithMaxLevels(levels).
		WithMemTableSize(1 << 20)
}

// streamWrite writes the fingerprints in sorted (distinct, none on disk) as a new level.
func (s *store) streamWrite(sorted []uint64) error {
	i := 0
	return s.writeKeys(func() (uint64, bool) {
		if i == len(sorted) {
			return 0, false
		}
		i++
		return sorted[i-1], true
	})
}

// writeKeys writes the fingerprints next returns (increasing, distinct, none on disk) as
// a new level. When no level above level 1 is free: the spill tier's hot store moves all
// it holds, with them, to its cold store (flushCold), and the cold store is rebuilt with
// them; a checkpoint's hot store moves all it holds to its cold store first (moveCold),
// and the cold store is flattened (badger's Flatten: slower than a rebuild, but a kill in
// the middle leaves the store as it was).
func (s *store) writeKeys(next func() (uint64, bool)) error {
	if s.levelsFull() {
		switch {
		case !s.durable && s.coldTier:
			return s.rebuild(next)
		case !s.durable:
			return s.flushCold(next)
		case !s.coldTier:
			if err := s.moveCold(); err != nil {
				return err
			}
		default:
			if err := s.flatten(); err != nil {
				return err
			}
		}
	}
	return s.streamAt(valued(next, s.value()))
}

// flatten makes room in a durable store with badger's Flatten, which leaves one level.
func (s *store) flatten() error {
	s.tables.closeAll()
	if err := s.db.Flatten(2); err != nil {
		return err
	}
	s.rebuilds++
	return s.tables.refresh(s.db)
}

// entry is one key of a stream write: a fingerprint with its value, or its deletion.
type entry struct {
	fp  uint64
	val []byte
	del bool
}

// streamAt writes the entries next returns (in increasing order of fp) as a new level
// above the others.
func (s *store) streamAt(next func() (entry, bool)) error {
	sw := s.db.NewStreamWriter()
	if err := sw.PrepareIncremental(); err != nil {
		sw.Cancel()
		return err
	}
	if err := streamKeys(sw, next); err != nil {
		sw.Cancel()
		return err
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return s.tables.refresh(s.db)
}

// levelsFull reports whether level 0 or 1 holds a table: an incremental stream write
// goes to the level above the highest one in use, and a write after one into level 0
// would make badger flatten the tree.
func (s *store) levelsFull() bool {
	for _, l := range s.db.Levels() {
		if l.Level <= 1 && l.NumTables > 0 {
			return true
		}
	}
	return false
}

// valued turns a sequence of fingerprints into entries with the value val.
func valued(next func() (uint64, bool), val []byte) func() (entry, bool) {
	return func() (entry, bool) {
		fp, ok := next()
		return entry{fp: fp, val: val}, ok
	}
}

// bitDelete is badger's entry flag of a deletion (unexported there, value.go), which a
// stream writer takes as an entry's Meta.
const bitDelete byte = 1 << 0

// streamKeys writes the entries next returns, in increasing order, to sw.
func streamKeys(sw *badger.StreamWriter, next func() (entry, bool)) (err error) {
	// One buffer for every chunk: Write has copied each entry out of it when it returns.
	buf := z.NewBuffer(streamChunk*24, "ravel.visited")
	defer func() {
		if rerr := buf.Release(); err == nil {
			err = rerr
		}
	}()
	for {
		buf.Reset()
		n := 0
		for n < streamChunk {
			e, ok := next()
			if !ok {
				break
			}
			appendKV(buf, e.fp, e.val, storeVersion, e.del)
			n++
		}
		if n > 0 {
			if err := sw.Write(buf); err != nil {
				return err
			}
		}
		if n < streamChunk {
			return nil
		}
	}
}

// rebuildFile is the temporary file that holds the store's keys while it is rebuilt.
const rebuildFile = "rebuild.tmp"

// rebuild writes every key of the store, merged with the keys more returns (increasing,
// none in the store), as a fresh store of one level: the store's keys are copied to a
// temporary file (8 bytes each), the store is emptied, and the merge of the file and more
// is stream-written. A crash in between loses the store, which is a spill tier removed at
// Close anyway; durable stores never come here.
func (s *store) rebuild(more func() (uint64, bool)) (err error) {
	path := filepath.Join(s.dir, rebuildFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		f.Close()
		if rerr := os.Remove(path); err == nil {
			err = rerr
		}
	}()
	w := bufio.NewWriterSize(f, 1<<16)
	var b [8]byte
	var werr error
	if err := s.scanSorted(func(fp uint64) {
		binary.LittleEndian.PutUint64(b[:], fp)
		if _, err := w.Write(b[:]); err != nil && werr == nil {
			werr = err
		}
	}); err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	r := bufio.NewReaderSize(f, 1<<16)
	var rerr error
	readOld := func() (uint64, bool) {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			if !errors.Is(err, io.EOF) {
				rerr = fmt.Errorf("reading back %s: %w", path, err)
			}
			return 0, false
		}
		return binary.LittleEndian.Uint64(b[:]), true
	}
	next := valued(mergeSorted(readOld, more), s.value())
	s.tables.closeAll()
	sw := s.db.NewStreamWriter()
	if err := sw.Prepare(); err != nil {
		sw.Cancel()
		return err
	}
	if err := streamKeys(sw, next); err != nil {
		sw.Cancel()
		return err
	}
	if rerr != nil {
		sw.Cancel()
		return rerr
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	s.rebuilds++
	s.rtx.Discard()
	s.rtx = s.db.NewTransactionAt(storeVersion, false)
	return s.tables.refresh(s.db)
}
