package visited

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	"github.com/ravelmc/ravel/internal/words"
)

// DefaultMemBytes is the memory budget of a visited set whose options leave
// MemBytes zero.
const DefaultMemBytes = 512 << 20

// MinMemBytes is the smallest memory budget Open accepts.
const MinMemBytes = 4 << 10

// Options configure a visited set.
type Options struct {
	// MemBytes bounds the memory the set holds: the in-memory table and, once
	// fingerprints spill to disk, the filter in front of the disk. Badger's memtable
	// (1 MiB, allocated though never written) and the table builders of a spill come on
	// top; its tables are mapped files (page cache, not the process's anonymous memory).
	// 0 means
	// DefaultMemBytes; below MinMemBytes is an error.
	MemBytes int64
	// Dir is where fingerprints spill to: Open creates it if needed and makes a
	// private subdirectory in it (named ravel-visited-*), which Close removes; nothing
	// else in Dir is read, written or removed. Empty means the system's temporary
	// directory, and then the subdirectory is made only when the first fingerprint
	// spills.
	Dir string
	// Durable, when not empty, is the directory of a store that outlives the set: the
	// visited part of a checkpoint. Close leaves it, and Dir is not used. See Checkpoint
	// and Resume. Without Resume, Open starts a new store there: the directory must not
	// exist, be empty, or be one Open marked as its own that holds no complete
	// checkpoint (a run died before its first one), which is emptied; anything else is
	// refused with a *DirError, without writing into it.
	Durable string
	// Resume opens Durable to resume its last complete checkpoint (Resume comes next):
	// the directory must exist and hold a checkpoint record, and its tables are verified
	// before badger opens them. Nothing is created or written before that is known.
	Resume bool
	// ReadOnly, with Resume, opens the store read-only, for a run that only reports the
	// checkpoint: nothing in the directory changes, and after Resume the set answers
	// Stats, but Add and Checkpoint return an error.
	ReadOnly bool
}

// Set is a set of 64-bit state fingerprints that answers "add this one, and was it
// new?" (docs/visited-states.md). Every value, 0 included, is a valid fingerprint.
//
// Fingerprints live in open-addressing tables that together take at most two thirds of
// the memory budget, split into tableGenerations generations of equal size: the young
// table, which takes the new fingerprints and grows by doubling up to its largest size,
// and older ones, each a young table that filled. When the young table is full and every
// generation is in use, the oldest is sorted and written to disk as one batch of keys (a
// badger database, store), emptied and made the young table. So the memory always holds
// the most recently added fingerprints, which a depth-first search revisits most (see
// tableGenerations); from then on a fingerprint not in the tables is looked up in a Bloom filter
// over the disk's contents (the remaining third of the budget), and read from disk only
// when the filter says it may be there. So memory stays at the budget however many
// fingerprints spill, and a new fingerprint touches the disk only on a filter false
// positive.
//
// A Set is not safe for concurrent use. After any method returns an error, the set
// can no longer answer: every later Add returns the same error (Stats and Close still
// work).
type Set struct {
	slots   []uint64     // the young table; 0 marks an empty slot; fingerprint 0 is kept in zero
	used    int          // occupied slots of the young table
	limit   int          // used at which the young table grows or ages: 3/4 of len(slots)
	older   []generation // full tables, oldest first, at most maxGens-1
	maxLen  int          // a table's largest length, in slots
	maxGens int          // generations of tables, young included
	zero    bool         // fingerprint 0 was added
	memCap  int64        // the budget
	dir     string       // Dir as given, or "" for the system's temporary directory
	private string       // the private store directory once made, else ""
	unlock  func()       // releases the private directory's owner lock
	filter  visitedFilter
	store   *store
	durable bool // the store is a checkpoint's: Close keeps it
	mode    openMode
	err     error
	st      Stats
	rebuilt int // filter rebuilds from disk, for tests
	// freeDisk reports the free bytes on the file system holding a directory, if known;
	// a field so that tests can simulate a full disk.
	freeDisk func(dir string) (int64, bool)
}

// generation is a table that filled as the young table: read, never written, until it
// spills.
type generation struct {
	slots []uint64
	used  int
}

// has reports whether fp (not 0) is in the table.
func (g *generation) has(fp uint64) bool {
	s := g.slots
	h, _ := bits.Mul64(fp, uint64(len(s)))
	for i := int(h); ; {
		switch s[i] {
		case fp:
			return true
		case 0:
			return false
		}
		if i++; i == len(s) {
			i = 0
		}
	}
}

// tableGenerations is how many tables the in-memory part of a set is split into once it
// reaches its largest size. A depth-first search revisits mostly states it added
// recently: on gossip with 4 agents spilling at 1 MiB (docs/visited-states.md), of the
// revisits that one table, emptied at every spill, sent to disk, 38 % were of states
// added less than half a table's worth of new states before, and 56 % less than a
// table's worth. With two halves, the half
// spilled is always the older one, so the last half table's worth of fingerprints is
// always in memory. More generations keep more of the recent past but cost a probe each
// for every new fingerprint, and make spills smaller and more frequent.
const tableGenerations = 2

// Stats are a visited set's counters.
type Stats struct {
	States               uint64 // distinct fingerprints added
	Revisits             uint64 // Adds of a fingerprint already in the set
	Spilled              uint64 // fingerprints on disk (included in States)
	Spills               uint64 // batches written to disk
	DiskReads            uint64 // lookups in the disk store (the filter said "maybe")
	FilterFalsePositives uint64 // disk lookups that did not find the fingerprint
	MemBytes             int64  // bytes held now by the table and the filter
}

// CollisionProbability estimates the chance that two distinct states among States share
// a 64-bit fingerprint, assuming fingerprints are uniformly random: 1 − e^(−n(n−1)/2⁶⁵),
// about n²/2⁶⁵ while that is small. A collision would make the search treat a new state
// as visited and skip what lies beyond it.
func (s Stats) CollisionProbability() float64 {
	n := float64(s.States)
	return -math.Expm1(-n * (n - 1) / (1 << 65))
}

// StoreError reports a failure of the visited set's disk store: a directory that cannot
// be created or written, a full disk, a store that cannot be opened, read or closed. The
// command line maps it to exit status 2.
type StoreError struct {
	Op  string // what failed: "create", "open", "write", "read", "scan", "close" or "remove"
	Dir string // the directory concerned
	Err error
}

// Error names the store's directory, the operation and the cause.
func (e *StoreError) Error() string {
	return fmt.Sprintf("visited-state store in %s: %s: %v", e.Dir, e.Op, e.Err)
}

// Unwrap returns the cause (ErrDiskFull when the disk is full), for errors.Is.
func (e *StoreError) Unwrap() error { return e.Err }

// ErrDiskFull is the cause, inside a StoreError, when the file system holding the store
// has too little free space for the next batch of fingerprints.
var ErrDiskFull = errors.New("not enough free disk space")

// ErrClosed is returned by Add after Close.
var ErrClosed = errors.New("visited set is closed")

const (
	visitedInitialSlots  = 1 << 10
	visitedPrivatePrefix = "ravel-visited-"
)

// Open returns an empty visited set. With an explicit Dir it creates Dir (if
// needed) and its private subdirectory at once, so that an unusable directory is reported
// here rather than when the first fingerprint spills; the error is then a *StoreError.
func Open(opts Options) (*Set, error) {
	mem := opts.MemBytes
	switch {
	case mem == 0:
		mem = DefaultMemBytes
	case mem < 0:
		return nil, fmt.Errorf("visited set: memory budget %d is negative", mem)
	case mem < MinMemBytes:
		return nil, fmt.Errorf("visited set: memory budget %d bytes is below the minimum of %d (4KiB)", mem, MinMemBytes)
	}
	v := &Set{memCap: mem, dir: opts.Dir, freeDisk: freeDiskBytes}
	// The tables may take two thirds of the budget: while the young table doubles, the
	// old and the new arrays coexist (at most 1/2 + 1 of a generation's share, which
	// with one generation is 1/3 + 2/3), and once they spill the filter takes the last third.
	v.maxGens = tableGenerations
	v.maxLen = max(int(min(mem/3*2/8, math.MaxInt/2))/v.maxGens, 1)
	v.setSlots(allocWords(min(visitedInitialSlots, v.maxLen)))
	if opts.Durable != "" {
		v.private, v.durable = opts.Durable, true
		if !opts.Resume {
			if err := prepareNew(opts.Durable); err != nil {
				freeWords(v.slots)
				return nil, err
			}
		} else if err := v.prepareResume(opts.ReadOnly); err != nil {
			freeWords(v.slots)
			return nil, err
		}
		if err := v.openStore(); err != nil {
			freeWords(v.slots)
			return nil, err
		}
		return v, nil
	}
	if opts.Dir != "" {
		if err := v.makePrivateDir(); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func (v *Set) setSlots(s []uint64) {
	v.slots = s
	v.limit = len(s) * 3 / 4
}

// Add inserts fp and reports whether it was new. It returns an error only when the disk
// store fails (a *StoreError), or after Close (ErrClosed); isNew is then false and
// the set is unusable.
func (v *Set) Add(fp uint64) (isNew bool, err error) {
	if v.err != nil {
		return false, v.err
	}
	if fp == 0 {
		return v.addZero(), nil
	}
	s := v.slots
	h, _ := bits.Mul64(fp, uint64(len(s)))
	i := int(h)
	for {
		x := s[i]
		if x == fp {
			v.st.Revisits++
			return false, nil
		}
		if x == 0 {
			break
		}
		if i++; i == len(s) {
			i = 0
		}
	}
	if v.store != nil || v.used >= v.limit || len(v.older) > 0 {
		return v.addSlow(fp)
	}
	s[i] = fp
	v.used++
	v.st.States++
	return true, nil
}

// Prefetch starts fetching the slot of the in-memory table where Add(fp) begins, so that
// an Add a little later finds it in the cache (words.Prefetch). It changes nothing.
func (v *Set) Prefetch(fp uint64) {
	if s := v.slots; len(s) > 0 {
		h, _ := bits.Mul64(fp, uint64(len(s)))
		words.Prefetch(unsafe.Pointer(&s[h]))
	}
}

func (v *Set) addZero() bool {
	if v.zero {
		v.st.Revisits++
		return false
	}
	v.zero = true
	v.st.States++
	return true
}

// addSlow finishes Add for a fingerprint that is not in the young table when there are
// older tables, something has spilled or the young table is full.
func (v *Set) addSlow(fp uint64) (bool, error) {
	for i := len(v.older) - 1; i >= 0; i-- {
		if v.older[i].has(fp) {
			v.st.Revisits++
			return false, nil
		}
	}
	if v.filter.words != nil && v.filter.mayContain(fp) {
		v.st.DiskReads++
		found, err := v.store.has(fp)
		if err != nil {
			return false, v.fail("read", err)
		}
		if found {
			v.st.Revisits++
			return false, nil
		}
		v.st.FilterFalsePositives++
	}
	if v.used >= v.limit {
		if err := v.makeRoom(); err != nil {
			return false, err
		}
	}
	v.insert(fp)
	v.st.States++
	return true, nil
}

// insert puts fp, known to be absent, into the table, which has room.
func (v *Set) insert(fp uint64) {
	s := v.slots
	h, _ := bits.Mul64(fp, uint64(len(s)))
	i := int(h)
	for s[i] != 0 {
		if i++; i == len(s) {
			i = 0
		}
	}
	s[i] = fp
	v.used++
}

// makeRoom doubles the young table, up to its largest size, or makes it an older
// generation and starts an empty one, spilling the oldest generation when all are in use.
func (v *Set) makeRoom() error {
	if len(v.slots) < v.maxLen {
		old := v.slots
		v.setSlots(allocWords(min(2*len(old), v.maxLen)))
		v.used = 0
		for _, x := range old {
			if x != 0 {
				v.insert(x)
			}
		}
		freeWords(old)
		return nil
	}
	if len(v.older) == 0 && v.maxGens == 1 {
		if err := v.spill(v.slots); err != nil {
			return err
		}
		v.used = 0
		return nil
	}
	young := generation{v.slots, v.used}
	if len(v.older) < v.maxGens-1 {
		v.older = append(v.older, young)
		v.setSlots(allocWords(v.maxLen))
		v.used = 0
		return nil
	}
	oldest := v.older[0]
	if err := v.spill(oldest.slots); err != nil {
		return err
	}
	copy(v.older, v.older[1:])
	v.older[len(v.older)-1] = young
	v.setSlots(oldest.slots)
	v.used = 0
	return nil
}

// spill writes the fingerprints of the table s to disk, sorted, adds them to the filter
// and empties s.
func (v *Set) spill(s []uint64) error {
	// Compact the fingerprints to the front of the table and sort them there: the table
	// is emptied afterwards, so no other memory is needed.
	n := 0
	for _, x := range s {
		if x != 0 {
			s[n] = x
			n++
		}
	}
	batch := s[:n]
	slices.Sort(batch)
	if err := v.openStore(); err != nil {
		return err
	}
	if err := v.checkSpace(n); err != nil {
		return err
	}
	if err := v.store.write(batch); err != nil {
		return v.fail("write", err)
	}
	v.st.Spilled += uint64(n)
	v.st.Spills++
	if err := v.updateFilter(batch); err != nil {
		return err
	}
	clear(s)
	return nil
}

// tableWords is the most words the tables may take together.
func (v *Set) tableWords() int64 { return int64(v.maxLen) * int64(v.maxGens) }

// newFilter returns an empty filter in the budget's share left by the tables, planned
// for at least keys.
func (v *Set) newFilter(keys uint64) visitedFilter {
	bytes := v.memCap - v.tableWords()*8
	return newVisitedFilter(bytes, max(uint64(bytes)*8/filterTargetBitsPerKey, keys))
}

// updateFilter adds a batch just written to the filter. The filter has a fixed size (the
// budget's last third); when the keys on disk outgrow the number its k was chosen for,
// and a different k would now be better, it is rebuilt from the disk with that k, planned
// for twice the keys on disk. That happens at most once per doubling of the disk's
// contents, so the disk scans cost O(1) reads per spilled fingerprint overall.
func (v *Set) updateFilter(batch []uint64) error {
	if v.filter.words == nil {
		v.filter = v.newFilter(v.st.Spilled)
	} else if v.st.Spilled > v.filter.plan {
		plan := 2 * v.st.Spilled
		if optimalK(uint64(len(v.filter.words))*64, plan) != v.filter.k {
			v.filter.reset(plan)
			v.rebuilt++
			if err := v.store.scanUnordered(v.filter.add); err != nil {
				return v.fail("scan", err)
			}
			return nil
		}
		v.filter.plan = plan
	}
	for _, fp := range batch {
		v.filter.add(fp)
	}
	return nil
}

// visitedDiskBytesPerKey is what one spilled fingerprint takes on disk in badger (key,
// version, table index and Bloom filter; measured about 27); visitedDiskSlack is a fixed
// reserve on top of what checkSpace asks for.
const (
	visitedDiskBytesPerKey = 32
	visitedDiskSlack       = 1 << 20
)

// checkSpace refuses to spill n fingerprints when the file system looks too full for
// them, so that a full disk is reported before the run has spent its time. A compaction
// may rewrite a level as large as the store while the old tables still exist. It is a check at each spill, not a guarantee: a disk
// that another process fills is still reported, as a write error, when a write fails.
func (v *Set) checkSpace(n int) error {
	free, ok := v.freeDisk(v.private)
	if !ok {
		return nil
	}
	need := 2*(int64(n)+int64(v.st.Spilled))*visitedDiskBytesPerKey + visitedDiskSlack
	if free < need {
		return v.fail("write", fmt.Errorf("%w: %d bytes free, spilling %d more fingerprints (%d on disk) needs about %d",
			ErrDiskFull, free, n, v.st.Spilled, need))
	}
	return nil
}

// makePrivateDir creates Dir (or uses the temporary directory) and the store's private
// subdirectory in it, after removing the private subdirectories of runs that are gone.
//
// The sweep is here, where a run first writes to the parent, rather than at Open: spill
// directories of runs that died without cleaning up (killed, out of memory) would fill
// the disk run after run, but only a run that spills adds to the disk, and reading a
// temporary directory of a few hundred entries cost a run that never spills about 0.2 ms,
// a tenth of a small search (BenchmarkCheckSmallSearch's profile, chord-fixed 2r1w).
func (v *Set) makePrivateDir() error {
	parent := v.dir
	if parent == "" {
		parent = os.TempDir()
	} else if err := os.MkdirAll(parent, 0o755); err != nil {
		return v.failDir("create", parent, err)
	}
	RemoveStaleSpillDirs(parent)
	p, err := os.MkdirTemp(parent, visitedPrivatePrefix+"*")
	if err != nil {
		return v.failDir("create", parent, err)
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	release, err := lockPrivateDir(p)
	if err != nil {
		os.RemoveAll(p)
		return v.failDir("create", p, err)
	}
	v.private, v.unlock = p, release
	return nil
}

func (v *Set) openStore() error {
	if v.store != nil {
		return nil
	}
	if v.private == "" {
		if err := v.makePrivateDir(); err != nil {
			return err
		}
	}
	s, err := openStore(v.private, v.durable, v.mode)
	switch {
	case v.durable && badgerLocked(err):
		v.err = inUse(v.private)
		return v.err
	case err != nil:
		return v.fail("open", err)
	}
	v.store = s
	return nil
}

// fail records a store failure in the private directory and returns it.
func (v *Set) fail(op string, err error) error {
	return v.failDir(op, v.private, err)
}

func (v *Set) failDir(op, dir string, err error) error {
	v.err = &StoreError{Op: op, Dir: dir, Err: err}
	return v.err
}

// Stats returns the set's counters.
func (v *Set) Stats() Stats {
	st := v.st
	st.MemBytes = int64(len(v.slots))*8 + v.filter.bytes()
	for _, g := range v.older {
		st.MemBytes += int64(len(g.slots)) * 8
	}
	return st
}

// Dir returns the private directory fingerprints spill to, or "" while none has been
// made.
func (v *Set) Dir() string { return v.private }

// Close releases the disk store and removes its private directory. It returns a
// *StoreError if either fails; the memory is released in any case. Calling Close again
// does nothing and returns nil.
func (v *Set) Close() error {
	if errors.Is(v.err, ErrClosed) {
		return nil
	}
	var errs []error
	if v.store != nil {
		if err := v.store.close(); err != nil {
			errs = append(errs, &StoreError{Op: "close", Dir: v.private, Err: err})
		}
		v.store = nil
	}
	if v.unlock != nil {
		v.unlock()
		v.unlock = nil
	}
	if v.private != "" && !v.durable {
		if err := os.RemoveAll(v.private); err != nil {
			errs = append(errs, &StoreError{Op: "remove", Dir: v.private, Err: err})
		}
	}
	freeWords(v.slots)
	for _, g := range v.older {
		freeWords(g.slots)
	}
	freeWords(v.filter.words)
	v.slots, v.older, v.filter = nil, nil, visitedFilter{}
	v.used, v.limit = 0, 0
	v.err = ErrClosed
	return errors.Join(errs...)
}
