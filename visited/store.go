package visited

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// storeOptions are the badger settings of the spill tier; streamOptions adds the stream
// writer's (stream.go). Keys are 8-byte big-endian
// fingerprints with empty values, written in sorted batches, each as a level of its own,
// and never updated; what each setting buys was measured with TestVisitedPeakMemory and
// `ravel check` (docs/visited-states.md):
//
//   - TableSizeMultiplier 1, BaseTableSize 1 MiB: every table is small, so a table
//     builder (which allocates twice the table size, anonymous memory) stays small. With
//     2 MiB tables the peak anonymous RSS of TestVisitedPeakMemory at 2 MiB was 58 MiB
//     (through badger's write path), with 512 KiB 44 MiB but lookups, which visit more
//     tables, were slower.
//   - Compression none, BlockCacheSize 0, IndexCacheSize 0: random 8-byte keys do not
//     compress, and uncompressed blocks, table indexes and badger's own per-table Bloom
//     filters are read straight from the mmapped table files. Those pages are file-backed
//     (RssFile, page cache the kernel reclaims), not the process's own memory; a block or
//     index cache would keep a second, anonymous copy of the same bytes. Blocks of 4 KiB:
//     1 KiB ones were no faster.
//   - BloomFalsePositive 0.001: a lookup that passes our filter (mostly a true revisit)
//     checks one table per level, newest first; badger's filters skip the levels that do
//     not hold the key. Badger's filter (a 32-bit hash, double hashing) lets through
//     about four times the rate it is given: 4.1 % of absent 8-byte keys at 0.01 for a
//     table of 32,000 keys, 1.0 % at 0.001 (TestBadgerBloomRate). At 0.01, 154,000 of the
//     612,000 table searches of gossip-4 at 1MiB found nothing; at 0.001, 40,000 of
//     498,000, for 0.4 bytes more per key on disk.
//   - ValueThreshold 1 KiB, ValueLogFileSize 1 MiB: values are empty and stay in the LSM
//     tree, so the value log is never written.
//   - ChecksumVerificationMode OnTableRead: a table's checksums are verified when it is
//     opened (a checkpoint's damaged store is refused at resume, not read wrong). A
//     resumed checkpoint's tables are verified before badger opens them, in the calling
//     goroutine (verifyStore: badger's own verification runs in goroutines where a
//     damaged table panics out of reach), and badger then skips it (openMode.verified).
//   - No conflict detection, no metrics, SyncWrites off (stream-written tables are synced
//     as they are written), Logger nil: failures come back as errors, not messages.
//   - The memtable and level-0 settings matter only if something is written through
//     badger's write path, which the visited set never does.
func storeOptions(dir string) badger.Options {
	opt := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithSyncWrites(false).
		WithNumVersionsToKeep(1).
		WithBaseTableSize(1 << 20).
		WithCompression(options.None).
		WithBlockCacheSize(0).
		WithIndexCacheSize(0).
		WithBloomFalsePositive(0.001).
		WithBlockSize(4 << 10).
		WithDetectConflicts(false).
		WithMetricsEnabled(false).
		WithValueThreshold(1 << 10).
		WithValueLogFileSize(1 << 20).
		WithCompactL0OnClose(false).
		WithChecksumVerificationMode(options.OnTableRead)
	opt.TableSizeMultiplier = 1 // no With method
	return opt
}

// store is the badger database fingerprints spill to. It runs in badger's managed mode,
// and every key is written and read at one version, 1: a lookup stops at the first
// (newest) level holding the key only when the key's version is the read version, so
// with versions per checkpoint every lookup of an older key walked all the levels (that
// cost a checkpointed spilling run 22 % of its CPU). A durable store keeps instead, as
// each key's value, the epoch it was written in (a uvarint): the epoch moves on after
// each checkpoint, so that a resumed search can tell the fingerprints of the checkpoint
// it resumes from from those a killed run added after it (see dropAfter).
type store struct {
	dir      string
	db       *badger.DB
	durable  bool   // a checkpoint's store: flattened, not rebuilt, when its levels run out
	levels   int    // badger levels (openStoreLevels)
	cold     *store // the spill tier's cold store (tiers.go), once opened
	coldTier bool   // this is a cold store: rebuilt when its levels run out
	rebuilds int    // stream stores rebuilt, for tests
	flushes  int    // times a hot store moved its keys to its cold store, for tests
	epoch    uint64 // of a durable store: written as each key's value
	readOnly bool   // opened read-only (openMode)
	verified bool   // its tables were verified before it opened (openMode)
	// movedCold: opened read-only after a move cut short, so every live key of this hot
	// store is in its cold store too (resolveMove).
	movedCold bool
	rtx       *badger.Txn // reads at storeVersion
	tables    *tableSet   // the tables, read directly (tables.go)
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

// openStore opens the spill tier's store (durable false) or a checkpoint's, with
// streamLevels levels. A checkpoint's store had 72 for a while, when it was flattened by
// badger as soon as its levels ran out (a flatten rewrites the tree level by level; at 24
// the checkpointed gossip run at 1MiB, 43 spills, flattened twice and took 2.4 times the
// CPU of the same run without checkpoints). Now its hot store moves its keys to its cold
// store instead (tiers.go), and 24 levels cost the same as 72 (docs/visited-states.md).
func openStore(dir string, durable bool, mode openMode) (*store, error) {
	if !durable {
		return openStoreLevels(dir, durable, streamLevels)
	}
	return openDurable(dir, streamLevels, mode)
}

// openMode is how a checkpoint's store is opened.
type openMode struct {
	// readOnly: badger read-only, for a resume that only reports the checkpoint; it
	// writes nothing (no deletions either: see dropAfter).
	readOnly bool
	// verified: verifyStore checked every table, so badger does not verify them again.
	verified bool
}

// openDurable opens a checkpoint's store with the given number of levels (tests use
// few), with its cold store if it has one, and finishes a move a kill cut short.
func openDurable(dir string, levels int, mode openMode) (*store, error) {
	s, err := openStoreMode(dir, true, levels, mode)
	if err != nil {
		return nil, err
	}
	if err := guard(s.openDurableCold); err != nil {
		return nil, errors.Join(err, s.close())
	}
	return s, nil
}

// openStoreLevels is openStore with the number of levels of a stream-written store given
// (tests use few, to rebuild often).
func openStoreLevels(dir string, durable bool, levels int) (*store, error) {
	return openStoreMode(dir, durable, levels, openMode{})
}

func openStoreMode(dir string, durable bool, levels int, mode openMode) (*store, error) {
	used, err := manifestLevels(dir)
	if err != nil {
		return nil, err
	}
	levels = max(levels, used)
	s := &store{dir: dir, epoch: 1, durable: durable, levels: levels, readOnly: mode.readOnly, verified: mode.verified}
	opt := streamOptions(storeOptions(dir), levels).WithReadOnly(mode.readOnly)
	if mode.verified {
		opt = opt.WithChecksumVerificationMode(options.NoVerification)
	}
	if err := removeEmptyMemtables(dir); err != nil {
		return nil, err
	}
	err = guard(func() error {
		db, err := badger.OpenManaged(opt)
		if err != nil {
			return err
		}
		s.db = db
		s.rtx = db.NewTransactionAt(storeVersion, false)
		s.tables = newTableSet(dir)
		return s.tables.refresh(db)
	})
	if err != nil {
		if s.tables != nil {
			s.tables.closeAll()
		}
		if s.db != nil {
			_ = guard(s.db.Close)
		}
		return nil, err
	}
	return s, nil
}

// removeEmptyMemtables removes the memtable logs of length 0 in dir. Badger creates a
// memtable's log and then sizes it; a process killed in between leaves an empty file
// that holds no entry but that badger refuses to open ("Create a new file").
func removeEmptyMemtables(dir string) error {
	names, err := filepath.Glob(filepath.Join(dir, "*.mem"))
	if err != nil {
		return err
	}
	for _, n := range names {
		if fi, err := os.Stat(n); err == nil && fi.Size() == 0 {
			if err := os.Remove(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// storeVersion is the badger version of every key.
const storeVersion = 1

// value is what a key written now carries: its epoch in a durable store, nothing in the
// spill tier.
func (s *store) value() []byte {
	if !s.durable {
		return nil
	}
	return binary.AppendUvarint(nil, s.epoch)
}

// has reports whether fp is on disk.
func (s *store) has(fp uint64) (found bool, err error) {
	err = guard(func() error {
		found = s.tables.has(fp) || s.cold != nil && s.cold.tables.has(fp)
		return nil
	})
	return found, err
}

// scanUnordered calls fn with every fingerprint in the store, in no particular order.
func (s *store) scanUnordered(fn func(uint64)) error {
	if s.durable {
		return s.scan(fn) // a resumed durable store may hold deletions
	}
	return guard(func() error {
		if s.cold != nil {
			if err := s.cold.tables.scanUnordered(fn); err != nil {
				return err
			}
		}
		return s.tables.scanUnordered(fn)
	})
}

// scanSorted calls fn with every fingerprint of this store, not of its cold store, in
// increasing order (rebuild is its one user). It reads the tables directly, so it is for
// a store that is not durable (without deletions).
func (s *store) scanSorted(fn func(uint64)) error {
	if s.durable {
		return errors.New("scanSorted of a durable store")
	}
	return guard(func() error { return s.tables.scanSorted(fn) })
}

// write stores the fingerprints in sorted (distinct, none already on disk) and returns
// when they are readable (and, once written, durable: stream-written tables are synced).
func (s *store) write(sorted []uint64) error {
	return guard(func() error { return s.streamWrite(sorted) })
}

// scan calls fn with every fingerprint visible at the store's version: the hot store's
// in increasing order, then the cold store's.
func (s *store) scan(fn func(uint64)) error {
	if err := s.scanOne(fn); err != nil {
		return err
	}
	if s.cold != nil {
		return s.cold.scanOne(fn)
	}
	return nil
}

// scanOne is scan of this store alone, through badger's iterator.
func (s *store) scanOne(fn func(uint64)) error {
	return guard(func() error {
		return s.each(func(fp uint64, _ *badger.Item) (bool, error) {
			fn(fp)
			return true, nil
		})
	})
}

// each calls fn with every live fingerprint of this store (not its cold store) in
// increasing order, with its badger item, through badger's iterator, until fn returns
// false or an error; the record key of older stores is skipped.
func (s *store) each(fn func(fp uint64, item *badger.Item) (more bool, err error)) error {
	opts := badger.DefaultIteratorOptions
	opts.PrefetchValues = false
	it := s.rtx.NewIterator(opts)
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		item := it.Item()
		k := item.Key()
		if string(k) == string(recordKey) {
			continue
		}
		if len(k) != 8 {
			return fmt.Errorf("unexpected key %x in the store", k)
		}
		if more, err := fn(binary.BigEndian.Uint64(k), item); err != nil || !more {
			return err
		}
	}
	return nil
}

// dropAfter makes the store hold exactly the fingerprints written in epochs up to v
// (opened read-only, it only counts and reports them):
// those written later (by a run killed after its last checkpoint, or by a resume from
// that checkpoint killed before the next one) are deleted, and epoch v+1 begins. It calls
// fn with every fingerprint kept (in increasing order within each of the hot and the cold
// store), and returns how many there are.
// Only the last checkpoint's record is kept, so the store never has to go back further
// than the fingerprints deleted here.
func (s *store) dropAfter(v uint64, fn func(uint64)) (kept uint64, err error) {
	if !s.movedCold {
		kept, err = s.dropAfterOne(v, fn)
	}
	if err != nil || s.cold == nil {
		return kept, err
	}
	coldKept, err := s.cold.dropAfterOne(v, fn)
	return kept + coldKept, err
}

// dropAfterOne is dropAfter of this store alone.
func (s *store) dropAfterOne(v uint64, fn func(uint64)) (kept uint64, err error) {
	err = guard(func() error {
		var del []uint64
		err := s.each(func(fp uint64, item *badger.Item) (bool, error) {
			var epoch uint64
			if err := item.Value(func(val []byte) error {
				var n int
				if epoch, n = binary.Uvarint(val); n <= 0 {
					return fmt.Errorf("key %016x has no epoch (value %x)", fp, val)
				}
				return nil
			}); err != nil {
				return false, err
			}
			if epoch > v {
				del = append(del, fp)
			} else {
				kept++
				fn(fp)
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		s.epoch = v + 1
		if len(del) == 0 || s.readOnly {
			return nil // read-only: counted, not deleted (the set then only reports)
		}
		i := 0
		return s.streamAt(func() (entry, bool) {
			if i == len(del) {
				return entry{}, false
			}
			i++
			return entry{fp: del[i-1], del: true}, true
		})
	})
	return kept, err
}

// sync makes everything written so far durable.
func (s *store) sync() error {
	if s.cold != nil {
		if err := guard(s.cold.db.Sync); err != nil {
			return err
		}
	}
	return guard(s.db.Sync)
}

func (s *store) close() error {
	var cerr error
	if s.cold != nil {
		cerr = s.cold.close()
		s.cold = nil
	}
	return errors.Join(cerr, guard(func() error {
		s.tables.closeAll()
		s.rtx.Discard()
		return s.db.Close()
	}))
}

// manifestLevels returns how many levels the store in dir uses (1 + the highest level
// holding a table), 0 for a directory without a store. A store opened with fewer levels
// than its tables are in makes badger panic in a goroutine of its own, where guard
// cannot catch it: a checkpoint taken by a Ravel whose stores had more levels (72, before
// the cold store) must open with as many.
func manifestLevels(dir string) (int, error) {
	m, _, err := readManifest(dir)
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", filepath.Join(dir, badger.ManifestFilename), err)
	}
	used := 0
	for _, t := range m.Tables {
		used = max(used, int(t.Level)+1)
	}
	return used, nil
}
