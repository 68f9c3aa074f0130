package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// visitedBadgerOptions are the badger settings of the spill store. Keys are 8-byte
// big-endian fingerprints with empty values, written once in sorted batches and never
// updated or deleted; nothing needs to survive a crash (Close deletes the directory).
// What each setting buys and costs (measured with BenchmarkVisitedStream and
// TestVisitedPeakMemory):
//
//   - MemTableSize 4 MiB, NumMemtables 2 (defaults 64 MiB, 5): badger allocates each
//     memtable's skiplist arena in full, about 1.3 × MemTableSize in the Go heap, and
//     keeps the mutable one, the immutable ones waiting to be flushed and the one being
//     flushed — with the defaults that alone is several hundred MiB. Every lookup also
//     searches the memtables first, and a small skiplist is searched faster. Smaller
//     memtables mean more level-0 tables, so more compaction (2 and 8 MiB measured about
//     the same; 32 MiB a quarter to a half slower).
//   - TableSizeMultiplier 1 (default 2): every table has BaseTableSize (2 MiB) at every
//     level. With the default, tables at the bottom level are 64 MiB, and a compaction
//     holds several table builders of that size in memory at once; this cut the peak Go
//     heap and the anonymous RSS of a spilling run by about 30 %.
//   - Compression none, BlockCacheSize 0, IndexCacheSize 0: 8-byte random keys do not
//     compress, and without compression badger reads blocks straight from its mmapped
//     table files, so a block cache would only keep a second copy. Table indexes and
//     badger's per-table Bloom filters are read from the mmapped files too: file-backed
//     pages the kernel may drop under pressure, counted in RSS as RssFile, not RssAnon.
//   - BloomFalsePositive 0.01 (the default), about 1.2 bytes per key on disk: our filter
//     keeps most new fingerprints away from badger, but a lookup that gets through —
//     mostly a true revisit — checks every memtable, every level-0 table and one table
//     per level; badger's filters skip the tables that do not hold the key. Without them
//     the spilling benchmark ran 1.6 to 2 times slower.
//   - BlockSize 4 KiB (the default): 1 and 16 KiB measured no better.
//   - NumCompactors 2 (the minimum that compacts at all; default 4), DetectConflicts off,
//     MetricsEnabled off, SyncWrites off, NumVersionsToKeep 1: no transaction competes,
//     nothing is synced, no metrics are kept.
//   - ValueThreshold 1 KiB, ValueLogFileSize 1 MiB (the minimum): values are empty and
//     stay in the LSM tree, so the value log is never written. (The default threshold,
//     1 MiB, is refused with memtables this small.)
//   - Logger nil: badger's messages do not reach the user; failures come back as errors.
func visitedBadgerOptions(dir string) badger.Options {
	opt := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithSyncWrites(false).
		WithNumVersionsToKeep(1).
		WithMemTableSize(4 << 20).
		WithNumMemtables(2).
		WithBaseTableSize(2 << 20).
		WithCompression(options.None).
		WithBlockCacheSize(0).
		WithIndexCacheSize(0).
		WithBloomFalsePositive(0.01).
		WithBlockSize(4 << 10).
		WithNumCompactors(2).
		WithDetectConflicts(false).
		WithMetricsEnabled(false).
		WithValueThreshold(1 << 10).
		WithValueLogFileSize(1 << 20).
		WithCompactL0OnClose(false)
	opt.TableSizeMultiplier = 1 // no With method
	return opt
}

// visitedVersion is the version of every key. The store runs in badger's managed mode,
// where the caller gives the timestamps: every fingerprint is written and read at version
// 1. A lookup stops at the first memtable or level that holds the key only if the
// key's version equals the read timestamp; with badger's own timestamps every batch has
// a different one, and every hit would go on to search all the levels below.
const visitedVersion = 1

// visitedStore is the badger database fingerprints spill to.
type visitedStore struct {
	dir string
	db  *badger.DB
	rtx *badger.Txn // reads at visitedVersion; sees every write that has returned
	key [8]byte
}

// guard runs f and turns a panic inside badger (it asserts rather than returning errors
// in places, for instance on some corrupt files) into an error.
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("badger panicked: %v", r)
		}
	}()
	return f()
}

func openVisitedStore(dir string) (*visitedStore, error) {
	s := &visitedStore{dir: dir}
	err := guard(func() error {
		db, err := badger.OpenManaged(visitedBadgerOptions(dir))
		if err != nil {
			return err
		}
		s.db = db
		s.rtx = db.NewTransactionAt(visitedVersion, false)
		return nil
	})
	if err != nil {
		if s.db != nil {
			_ = guard(s.db.Close)
		}
		return nil, err
	}
	return s, nil
}

// has reports whether fp is on disk.
func (s *visitedStore) has(fp uint64) (found bool, err error) {
	binary.BigEndian.PutUint64(s.key[:], fp)
	err = guard(func() error {
		_, err := s.rtx.Get(s.key[:])
		switch {
		case err == nil:
			found = true
		case errors.Is(err, badger.ErrKeyNotFound):
			err = nil
		}
		return err
	})
	return found, err
}

// visitedWriteChunk is how many keys share one key buffer while a batch is written.
const visitedWriteChunk = 1 << 14

// write stores the fingerprints in sorted (distinct, none already on disk) and returns
// when they are readable.
func (s *visitedStore) write(sorted []uint64) error {
	return guard(func() error {
		wb := s.db.NewWriteBatchAt(visitedVersion)
		defer wb.Cancel()
		for len(sorted) > 0 {
			n := min(len(sorted), visitedWriteChunk)
			buf := make([]byte, 8*n) // badger keeps the key slices until the commit
			for i, fp := range sorted[:n] {
				k := buf[8*i : 8*i+8 : 8*i+8]
				binary.BigEndian.PutUint64(k, fp)
				if err := wb.Set(k, nil); err != nil {
					return err
				}
			}
			sorted = sorted[n:]
		}
		return wb.Flush()
	})
}

// scan calls fn with every fingerprint on disk, in increasing order.
func (s *visitedStore) scan(fn func(uint64)) error {
	return guard(func() error {
		opts := badger.DefaultIteratorOptions
		opts.PrefetchValues = false
		it := s.rtx.NewIterator(opts)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			if len(k) != 8 {
				return fmt.Errorf("unexpected key %x in the store", k)
			}
			fn(binary.BigEndian.Uint64(k))
		}
		return nil
	})
}

func (s *visitedStore) close() error {
	return guard(func() error {
		s.rtx.Discard()
		return s.db.Close()
	})
}
