package visited

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/badger/v4/y"
	"github.com/dgraph-io/ristretto/v2/z"
)

// tableSet answers lookups by reading the store's tables with badger's table package,
// not through badger's read path. The tables of the store are immutable once written
// (the stream writer builds them whole, compactions are off), so they can be opened a
// second time, read-only, between two writes; after every write the store calls refresh.
//
// Why: on gossip with 4 agents spilling at 1 MiB (docs/visited-states.md), badger's
// Txn.Get cost about 4 µs a lookup, most of it not in the search of the one table that
// holds the key but in walking the levels: per level a read lock, a binary search for
// the table and a slice allocated for it, the key's hash computed again, a table
// iterator allocated; per lookup a check of the (empty) memtables and a key copy. Here a
// lookup computes the hash once and searches each level's tables, newest level first,
// with one iterator per table kept open.
//
// A level is badger's: its tables hold disjoint key ranges, sorted (level 0, never used
// by the stream writer, is searched table by table, newest first). The first level that
// holds the key decides, as in badger: a deletion there (a resumed durable store's, see
// store.dropAfter) means absent.
type tableSet struct {
	dir    string
	opts   table.Options
	byID   map[uint64]*openTable
	levels [][]*openTable // by badger level, newest (0) first; tables sorted by key
	key    [16]byte       // the key looked up, with its version suffix
}

// openTable is one table file, mapped read-only, with an iterator kept for lookups.
type openTable struct {
	t  *table.Table
	it *table.Iterator
}

func newTableSet(dir string) *tableSet {
	return &tableSet{dir: dir, opts: tableOptions(dir), byID: map[uint64]*openTable{}}
}

// tableOptions are the read options of a table written with storeOptions. Checksums are
// not verified here: badger verified each table when it opened or wrote it.
func tableOptions(dir string) table.Options {
	opt := storeOptions(dir)
	return table.Options{
		ReadOnly:           true,
		ChkMode:            options.NoVerification,
		BlockSize:          opt.BlockSize,
		BloomFalsePositive: opt.BloomFalsePositive,
		Compression:        opt.Compression,
	}
}

// refresh makes the set hold exactly the tables badger holds now: tables it no longer
// has are closed, new ones opened.
func (ts *tableSet) refresh(db *badger.DB) error {
	infos := db.Tables()
	live := make(map[uint64]bool, len(infos))
	var levels [][]*openTable
	for _, ti := range infos {
		live[ti.ID] = true
		ot := ts.byID[ti.ID]
		if ot == nil {
			var err error
			if ot, err = openTableFile(table.NewFilename(ti.ID, ts.dir), ts.opts); err != nil {
				return err
			}
			ts.byID[ti.ID] = ot
		}
		for len(levels) <= ti.Level {
			levels = append(levels, nil)
		}
		levels[ti.Level] = append(levels[ti.Level], ot)
	}
	for id, ot := range ts.byID {
		if !live[id] {
			ot.close()
			delete(ts.byID, id)
		}
	}
	for l, lvl := range levels {
		if l == 0 {
			slices.SortFunc(lvl, func(a, b *openTable) int { return -cmpUint64(a.t.ID(), b.t.ID()) })
			continue
		}
		slices.SortFunc(lvl, func(a, b *openTable) int { return y.CompareKeys(a.t.Smallest(), b.t.Smallest()) })
	}
	ts.levels = levels
	return nil
}

func cmpUint64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func openTableFile(path string, opts table.Options) (*openTable, error) {
	mf, err := z.OpenMmapFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	t, err := table.OpenTable(mf, opts)
	if err != nil {
		mf.Close(-1)
		return nil, fmt.Errorf("opening table %s: %w", path, err)
	}
	// The mapping is all a read needs, so the descriptor is closed at once: badger keeps
	// one open per table already, and a second would halve the store size at which a
	// process runs out of descriptors (about 10 GiB of tables at a limit of 20,000).
	fd := mf.Fd
	mf.Fd = nil
	if err := fd.Close(); err != nil {
		_ = z.Munmap(mf.Data)
		return nil, fmt.Errorf("closing table %s: %w", path, err)
	}
	// The iterator holds a second reference to the table, so that closing it never
	// drops the table's count to 0, which would delete the file.
	return &openTable{t: t, it: t.NewIterator(0)}, nil
}

// close unmaps the table; the file is badger's and stays.
func (ot *openTable) close() {
	_ = ot.it.Close()
	_ = z.Munmap(ot.t.MmapFile.Data)
}

// closeAll closes every table (before badger removes or rewrites them all).
func (ts *tableSet) closeAll() {
	for id, ot := range ts.byID {
		ot.close()
		delete(ts.byID, id)
	}
	ts.levels = nil
}

// has reports whether fp is in the store.
func (ts *tableSet) has(fp uint64) bool {
	k := ts.key[:]
	binary.BigEndian.PutUint64(k[:8], fp)
	binary.BigEndian.PutUint64(k[8:], math.MaxUint64-storeVersion)
	h := y.Hash(k[:8])
	for l, lvl := range ts.levels {
		if len(lvl) == 0 {
			continue
		}
		if l == 0 {
			for _, ot := range lvl {
				if found, present := ot.lookup(k, h); found {
					return present
				}
			}
			continue
		}
		// The first table whose biggest key is at least the key's.
		i, _ := slices.BinarySearchFunc(lvl, k, func(ot *openTable, k []byte) int {
			return y.CompareKeys(ot.t.Biggest(), k)
		})
		if i == len(lvl) {
			continue
		}
		if found, present := lvl[i].lookup(k, h); found {
			return present
		}
	}
	return false
}

// lookup searches one table for k (a key with its version; h the hash of the key
// without it): found reports whether the table holds an entry for it, present whether
// that entry is not a deletion.
func (ot *openTable) lookup(k []byte, h uint32) (found, present bool) {
	if ot.t.DoesNotHave(h) {
		return false, false
	}
	ot.it.Seek(k)
	if !ot.it.Valid() || !y.SameKey(k, ot.it.Key()) {
		return false, false
	}
	return true, ot.it.Value().Meta&bitDelete == 0
}

// scanUnordered calls fn with every key of every table, table by table, in no
// particular order. It is right only for a store without deletions, where every key is
// in one table (the spill tier's: a batch is never in an earlier one).
func (ts *tableSet) scanUnordered(fn func(uint64)) error {
	for _, lvl := range ts.levels {
		for _, ot := range lvl {
			it := ot.t.NewIterator(table.NOCACHE)
			for it.Rewind(); it.Valid(); it.Next() {
				k := y.ParseKey(it.Key())
				if len(k) != 8 {
					it.Close()
					return fmt.Errorf("unexpected key %x in table %d", k, ot.t.ID())
				}
				fn(binary.BigEndian.Uint64(k))
			}
			if cerr := it.Close(); cerr != nil {
				return cerr
			}
		}
	}
	return nil
}

// scanSorted calls fn with every key of every table in increasing order: a merge of the
// levels, each of which is its tables in key order. Like scanUnordered, it is right only
// for a store without deletions, where no key is in two levels. It reads the tables with
// iterators of its own, without badger's merging iterator, which cost about ten times as
// much per key (it builds an item for each).
func (ts *tableSet) scanSorted(fn func(uint64)) error {
	c, err := ts.sorted()
	if err != nil {
		return err
	}
	defer c.close()
	for {
		fp, ok := c.next()
		if !ok {
			return c.err
		}
		fn(fp)
	}
}

// sortedCursor reads the keys of a tableSet in increasing order (tableSet.sorted), or
// its live entries with their values (tableSet.entries).
type sortedCursor struct {
	h   cursorHeap
	val []byte // the value of the entry nextEntry returned last
	err error  // the first error met; next then reports no more keys
}

// sorted returns a cursor over every key of the set's tables in increasing order, under
// scanSorted's condition (no deletions). The tables must stay open until it is closed.
func (ts *tableSet) sorted() (*sortedCursor, error) { return ts.cursor(false) }

// entries returns a cursor over every live entry of the set's tables, with its value, in
// increasing order of key, for a store that may hold deletions and a key in several
// levels (a checkpoint's): the newest level holding a key decides, and a deletion there
// leaves the key out (tableSet.has's rule). It reads the tables directly: badger's
// iterator, which builds an item for each key, took 0.9 s to move the 720,000 keys of
// gossip-4's checkpoint store at 1MiB to its cold store.
func (ts *tableSet) entries() (*sortedCursor, error) { return ts.cursor(true) }

func (ts *tableSet) cursor(values bool) (*sortedCursor, error) {
	c := &sortedCursor{}
	for l, lvl := range ts.levels {
		if len(lvl) == 0 {
			continue
		}
		if l == 0 && len(lvl) > 1 {
			c.close()
			return nil, fmt.Errorf("level 0 holds %d tables, whose key ranges may overlap", len(lvl))
		}
		lc := &levelCursor{tables: lvl, level: l, values: values}
		ok, err := lc.start()
		if err != nil {
			c.close()
			return nil, err
		}
		if ok {
			c.h = append(c.h, lc)
		}
	}
	c.h.init()
	return c, nil
}

// next returns the next key; ok is false at the end or after an error (c.err).
func (c *sortedCursor) next() (fp uint64, ok bool) {
	e, ok := c.nextEntry()
	return e.fp, ok
}

// nextEntry returns the next live entry; ok is false at the end or after an error
// (c.err). Its value is valid until the next call.
func (c *sortedCursor) nextEntry() (e entry, ok bool) {
	for len(c.h) > 0 && c.err == nil {
		top := c.h[0]
		c.val = append(c.val[:0], top.val...)
		e = entry{fp: top.key, val: c.val, del: top.del}
		c.advance()
		// The same key in older levels: the newest, just taken, decides.
		for len(c.h) > 0 && c.err == nil && c.h[0].key == e.fp {
			c.advance()
		}
		if c.err != nil || e.del {
			continue
		}
		return e, true
	}
	return entry{}, false
}

// advance moves the cursor at the top of the heap to its next entry.
func (c *sortedCursor) advance() {
	lc := c.h[0]
	more, err := lc.next()
	switch {
	case err != nil:
		c.err = err
	case more:
		c.h.fix0()
	default:
		lc.close()
		c.h.pop0()
	}
}

// close closes the iterators still open.
func (c *sortedCursor) close() {
	for _, lc := range c.h {
		lc.close()
	}
	c.h = nil
}

// levelCursor walks one level's keys in order, table after table.
type levelCursor struct {
	tables []*openTable
	level  int  // badger's: a lower level is newer
	values bool // read each entry's value into val
	i      int  // the table it is in
	it     *table.Iterator
	key    uint64
	del    bool   // the entry is a deletion
	val    []byte // its value, when values
}

// start opens the iterator of tables[i] and reads its first key; it moves on to later
// tables while one is empty.
func (c *levelCursor) start() (bool, error) {
	for ; c.i < len(c.tables); c.i++ {
		c.it = c.tables[c.i].t.NewIterator(table.NOCACHE)
		c.it.Rewind()
		if c.it.Valid() {
			return c.read()
		}
		c.close()
	}
	return false, nil
}

func (c *levelCursor) next() (bool, error) {
	c.it.Next()
	if c.it.Valid() {
		return c.read()
	}
	c.close()
	c.i++
	return c.start()
}

func (c *levelCursor) read() (bool, error) {
	k := y.ParseKey(c.it.Key())
	if len(k) != 8 {
		return false, fmt.Errorf("unexpected key %x in table %d", k, c.tables[c.i].t.ID())
	}
	c.key = binary.BigEndian.Uint64(k)
	vs := c.it.Value()
	c.del = vs.Meta&bitDelete != 0
	if c.values {
		c.val = append(c.val[:0], vs.Value...)
	}
	return true, nil
}

func (c *levelCursor) close() {
	if c.it != nil {
		_ = c.it.Close()
		c.it = nil
	}
}

// cursorHeap is a min-heap of cursors by their current key, then by level (the newest
// first).
type cursorHeap []*levelCursor

func (h cursorHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h cursorHeap) fix0() { h.down(0) }

func (h *cursorHeap) pop0() {
	old := *h
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	h.down(0)
}

func (h cursorHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].before(h[l]) {
			m = r
		}
		if !h[m].before(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// before orders cursors by key, then level.
func (c *levelCursor) before(d *levelCursor) bool {
	return c.key < d.key || c.key == d.key && c.level < d.level
}
