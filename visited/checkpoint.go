package visited

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	"github.com/cespare/xxhash/v2"
)

// ErrNotDurable is returned by Checkpoint and Resume on a set opened without
// Options.Durable.
var ErrNotDurable = errors.New("visited set has no durable store")

// ErrNoCheckpoint is the cause, in the *StoreError of LastCheckpoint and Resume, when
// the store holds no complete checkpoint; the set stays usable.
var ErrNoCheckpoint = errors.New("no complete checkpoint in the directory")

// recordKey is the store key of the last checkpoint's record in stores written before
// the record moved to recordFile; scans skip it.
var recordKey = []byte("ravel/checkpoint")

// recordFile is the file of the last complete checkpoint's record: the record, then its
// xxhash (8 bytes, little-endian).
const recordFile = "checkpoint"

// A checkpoint is three things, made durable in this order: the fingerprints spilled to
// badger so far (synced), the in-memory tables (a file of their own, table-EPOCH, the
// older generations, oldest first, then the young table; written
// to a temporary name, synced and renamed — its cost is the table's size, not the number
// of states added since the last checkpoint, and the table stays in memory), and the
// record, a file of its own (recordFile), written the same way. The record names the
// epoch and the table file and carries the table's checksum, so a checkpoint cut short
// by a kill leaves the previous one complete; older table files are removed only once
// the new record is durable.
const (
	tablePrefix = "table-"
	// recordHeader: epoch, zero flag (a byte), recordSpilled flag (a byte), six bytes of
	// zeros, the tables' checksum, number of tables; then recordTable for each table, in
	// the table file's order: its length (slots) and used slots; then, with the
	// recordSpilled flag, the number of fingerprints spilled (8 bytes), which the store
	// must hold (checkpoints taken before it was recorded have no such field).
	recordHeader = 8 + 8 + 8 + 8
	recordTable  = 8 + 8
	// recordSpilled flags a record that carries the number of fingerprints spilled.
	recordSpilled = 1
)

// tables returns the in-memory tables in the order of a checkpoint's table file: older
// generations, oldest first, then the young table.
func (v *Set) tables() []generation {
	return append(slices.Clone(v.older), generation{v.slots, v.used})
}

// Checkpoint makes every fingerprint added so far durable, with record (the caller's
// state of the search, the concatenation of its parts: LastCheckpoint returns them as
// one) beside it, and starts a new epoch: a resume from this checkpoint drops whatever
// is added later. It needs Options.Durable. The parts are written as they are, not
// copied into one: a record can be most of the memory a search holds.
func (v *Set) Checkpoint(record ...[]byte) error {
	if v.err != nil {
		return v.err
	}
	if !v.durable {
		return ErrNotDurable
	}
	ver := v.store.epoch
	if err := v.store.sync(); err != nil {
		return v.fail("sync", err)
	}
	tables := v.tables()
	sum, err := v.writeTable(ver, tables)
	if err != nil {
		return v.fail("write", err)
	}
	n := recordHeader + recordTable*len(tables)
	head := make([]byte, n+8)
	binary.LittleEndian.PutUint64(head[0:], ver)
	if v.zero {
		head[8] = 1
	}
	head[9] = recordSpilled
	binary.LittleEndian.PutUint64(head[16:], sum)
	binary.LittleEndian.PutUint64(head[24:], uint64(len(tables)))
	for i, g := range tables {
		binary.LittleEndian.PutUint64(head[recordHeader+recordTable*i:], uint64(len(g.slots)))
		binary.LittleEndian.PutUint64(head[recordHeader+recordTable*i+8:], uint64(g.used))
	}
	binary.LittleEndian.PutUint64(head[n:], v.st.Spilled)
	parts := append([][]byte{head}, record...)
	d := xxhash.New()
	for _, p := range parts {
		_, _ = d.Write(p)
	}
	parts = append(parts, binary.LittleEndian.AppendUint64(nil, d.Sum64()))
	if err := writeDurable(filepath.Join(v.private, recordFile), v.private, parts...); err != nil {
		return v.fail("write", err)
	}
	v.store.epoch = ver + 1
	v.removeTables(ver)
	return nil
}

func tableName(ver uint64) string { return fmt.Sprintf("%s%016x", tablePrefix, ver) }

// writeTable writes the tables' slots, one after the other, to table-ver durably and
// returns their checksum.
func (v *Set) writeTable(ver uint64, tables []generation) (uint64, error) {
	bs := make([][]byte, len(tables))
	d := xxhash.New()
	for i, g := range tables {
		bs[i] = wordBytes(g.slots)
		_, _ = d.Write(bs[i])
	}
	if err := writeDurable(filepath.Join(v.private, tableName(ver)), v.private, bs...); err != nil {
		return 0, err
	}
	return d.Sum64(), nil
}

// writeDurable writes the concatenation of bs to the file final in dir durably: to a
// temporary name, synced, then renamed over final, and the rename synced. A kill leaves
// final as it was or as written.
func writeDurable(final, dir string, bs ...[]byte) error {
	tmp := final + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for _, b := range bs {
		if _, err := f.Write(b); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // the rename's durability, where the platform allows syncing a directory
		d.Close()
	}
	return nil
}

// removeTables removes the table files of checkpoints before ver, and temporary files
// left by a checkpoint cut short. A failure leaves a stale file, nothing worse.
func (v *Set) removeTables(ver uint64) {
	keep := tableName(ver)
	names, _ := filepath.Glob(filepath.Join(v.private, tablePrefix+"*"))
	for _, n := range names {
		if filepath.Base(n) != keep {
			_ = os.Remove(n)
		}
	}
}

func wordBytes(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)
}

// LastCheckpoint returns the record of the last complete checkpoint in the set's store,
// or ErrNoCheckpoint.
func (v *Set) LastCheckpoint() ([]byte, error) {
	if !v.durable {
		return nil, ErrNotDurable
	}
	val, err := v.readRecord()
	if err != nil {
		return nil, err
	}
	return val[recordLen(val):], nil
}

// recordLen is the length of the header of val, a record that readRecord checked.
func recordLen(val []byte) int {
	n := recordHeader + recordTable*int(binary.LittleEndian.Uint64(val[24:]))
	if val[9]&recordSpilled != 0 {
		n += 8
	}
	return n
}

// recordedSpilled returns the number of fingerprints spilled that the record val (checked
// by readRecord) says the store holds, if it says.
func recordedSpilled(val []byte) (uint64, bool) {
	if val[9]&recordSpilled == 0 {
		return 0, false
	}
	return binary.LittleEndian.Uint64(val[recordLen(val)-8:]), true
}

// prepareResume checks, before badger opens the store, that the directory exists, is
// not in use, holds a checkpoint record, and that the store's tables are sound and hold
// at least what the record says was spilled: badger would otherwise panic, out of reach,
// on a damaged table, or take a store whose MANIFEST is gone or cut short for empty and
// delete its tables.
func (v *Set) prepareResume(readOnly bool) error {
	if err := prepareResume(v.private, readOnly); err != nil {
		return err
	}
	val, err := v.readRecord()
	if err != nil {
		return err
	}
	entries, err := verifyStore(v.private)
	if err != nil {
		return v.fail("open", err)
	}
	if want, ok := recordedSpilled(val); ok && entries < want {
		return v.fail("open", missingTables(entries, want))
	}
	v.mode = openMode{readOnly: readOnly, verified: true}
	return nil
}

// ErrMissingTables is the cause, in a *StoreError, of a checkpoint's store that holds
// fewer fingerprints than its checkpoint spilled.
var ErrMissingTables = errors.New("the checkpoint's store is missing tables (MANIFEST damaged?)")

func missingTables(has, want uint64) error {
	return fmt.Errorf("%w: it holds %d of the %d fingerprints the checkpoint spilled", ErrMissingTables, has, want)
}

// ErrReadOnly is the cause, in the *StoreError Add and Checkpoint return, of a set
// opened with Options.ReadOnly.
var ErrReadOnly = errors.New("the checkpoint was opened read-only")

func (v *Set) readRecord() ([]byte, error) {
	val, err := os.ReadFile(filepath.Join(v.private, recordFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, &StoreError{Op: "read", Dir: v.private, Err: ErrNoCheckpoint}
	case err != nil:
		return nil, v.fail("read", err)
	case len(val) < recordHeader+8:
		return nil, v.fail("read", fmt.Errorf("checkpoint record of %d bytes is cut short", len(val)))
	}
	n := len(val) - 8
	if xxhash.Sum64(val[:n]) != binary.LittleEndian.Uint64(val[n:]) {
		return nil, v.fail("read", errors.New("the checkpoint record is damaged (checksum mismatch)"))
	}
	if val[9]&^recordSpilled != 0 {
		return nil, v.fail("read", fmt.Errorf("the checkpoint record has flags %#x this build does not know", val[9]))
	}
	if t := binary.LittleEndian.Uint64(val[24:]); t > uint64(v.maxGens) || recordLen(val[:n]) > n {
		return nil, v.fail("read", fmt.Errorf("the checkpoint has %d tables; this build keeps at most %d", t, v.maxGens))
	}
	return val[:n], nil
}

// Resume makes the set what it was at the last complete checkpoint: the fingerprints
// added after it (by a run killed before its next checkpoint) are dropped from the
// store, and the in-memory table is read back. It must be called right after Open, on a
// set opened with the checkpoint's Options.Durable, Options.Resume and the same MemBytes.
// A store that does not hold exactly the fingerprints the checkpoint spilled is refused
// (checkpoints taken before the record counted them are not checked). Opened
// Options.ReadOnly, the set only counts what the checkpoint holds, for Stats.
func (v *Set) Resume() error {
	if v.err != nil {
		return v.err
	}
	if !v.durable {
		return ErrNotDurable
	}
	if v.st.States != 0 {
		return errors.New("visited set: Resume after Add")
	}
	val, err := v.readRecord()
	if err != nil {
		return err
	}
	ver := binary.LittleEndian.Uint64(val[0:])
	zero := val[8] == 1
	sum := binary.LittleEndian.Uint64(val[16:])
	lens := make([]int, binary.LittleEndian.Uint64(val[24:]))
	if len(lens) == 0 {
		return v.fail("read", errors.New("the checkpoint has no table"))
	}
	var inMem uint64
	for i := range lens {
		slots := binary.LittleEndian.Uint64(val[recordHeader+recordTable*i:])
		used := binary.LittleEndian.Uint64(val[recordHeader+recordTable*i+8:])
		if slots > uint64(v.maxLen) || used > slots {
			return v.fail("read", fmt.Errorf("the checkpoint's table has %d slots (%d used); this budget allows %d: resume with the --visited-mem of the run", slots, used, v.maxLen))
		}
		lens[i] = int(slots)
		inMem += used
	}
	tables, err := v.readTables(ver, lens, sum)
	if err != nil {
		return v.fail("read", err)
	}
	for i := range tables {
		tables[i].used = int(binary.LittleEndian.Uint64(val[recordHeader+recordTable*i+8:]))
	}
	young := tables[len(tables)-1]
	v.older = tables[:len(tables)-1]
	v.setSlots(young.slots)
	v.used, v.zero = young.used, zero
	kept, err := v.store.dropAfter(ver, func(uint64) {})
	if err != nil {
		return v.fail("read", err)
	}
	if want, ok := recordedSpilled(val); ok && kept != want {
		if kept < want {
			return v.fail("read", missingTables(kept, want))
		}
		return v.fail("read", fmt.Errorf("the checkpoint's store holds %d fingerprints of the checkpoint's epochs, and the checkpoint spilled %d: it is not this checkpoint's store", kept, want))
	}
	v.st.Spilled = kept
	v.st.States = kept + inMem
	if zero {
		v.st.States++
	}
	if v.mode.readOnly {
		// It only reports: no filter, and any Add or Checkpoint is refused.
		v.err = &StoreError{Op: "write", Dir: v.private, Err: ErrReadOnly}
		return nil
	}
	if kept == 0 {
		return nil
	}
	v.filter = v.newFilter(2 * kept)
	if err := v.store.scan(v.filter.add); err != nil {
		return v.fail("scan", err)
	}
	return nil
}

// readTables reads table-ver as tables of the given lengths (slots; their used counts
// are left to the caller) and checks the checksum. On success the set's young table is
// released, for the caller to install the tables read.
func (v *Set) readTables(ver uint64, lens []int, sum uint64) ([]generation, error) {
	f, err := os.Open(filepath.Join(v.private, tableName(ver)))
	if err != nil {
		return nil, fmt.Errorf("the checkpoint's table: %w", err)
	}
	defer f.Close()
	var n int64
	for _, l := range lens {
		n += int64(l)
	}
	if fi, err := f.Stat(); err != nil || fi.Size() != n*8 {
		return nil, fmt.Errorf("the checkpoint's table %s is not %d bytes long (cut short or replaced)", f.Name(), n*8)
	}
	tables := make([]generation, len(lens))
	release := func() {
		for _, g := range tables {
			freeWords(g.slots)
		}
	}
	d := xxhash.New()
	for i, l := range lens {
		tables[i].slots = allocWords(l)
		b := wordBytes(tables[i].slots)
		if _, err := io.ReadFull(f, b); err != nil {
			release()
			return nil, fmt.Errorf("the checkpoint's table: %w", err)
		}
		_, _ = d.Write(b)
	}
	if d.Sum64() != sum {
		release()
		return nil, fmt.Errorf("the checkpoint's table %s is damaged (checksum mismatch)", f.Name())
	}
	freeWords(v.slots)
	return tables, nil
}
