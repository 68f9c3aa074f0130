package visited

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
// badger so far (synced), the in-memory table (a file of its own, table-EPOCH, written
// to a temporary name, synced and renamed — its cost is the table's size, not the number
// of states added since the last checkpoint, and the table stays in memory), and the
// record, a file of its own (recordFile), written the same way. The record names the
// epoch and the table file and carries the table's checksum, so a checkpoint cut short
// by a kill leaves the previous one complete; older table files are removed only once
// the new record is durable.
const (
	tablePrefix = "table-"
	// recordHeader: epoch, table length (slots), used slots, zero flag, table checksum.
	recordHeader = 8 + 8 + 8 + 8 + 8
)

// Checkpoint makes every fingerprint added so far durable, with record (the caller's
// state of the search) beside it, and starts a new epoch: a resume from this
// checkpoint drops whatever is added later. It needs Options.Durable.
func (v *Set) Checkpoint(record []byte) error {
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
	sum, err := v.writeTable(ver)
	if err != nil {
		return v.fail("write", err)
	}
	head := make([]byte, recordHeader, recordHeader+len(record))
	binary.LittleEndian.PutUint64(head[0:], ver)
	binary.LittleEndian.PutUint64(head[8:], uint64(len(v.slots)))
	binary.LittleEndian.PutUint64(head[16:], uint64(v.used))
	if v.zero {
		head[24] = 1
	}
	binary.LittleEndian.PutUint64(head[32:], sum)
	val := append(head, record...)
	val = binary.LittleEndian.AppendUint64(val, xxhash.Sum64(val))
	if err := writeDurable(filepath.Join(v.private, recordFile), val, v.private); err != nil {
		return v.fail("write", err)
	}
	v.store.epoch = ver + 1
	v.removeTables(ver)
	return nil
}

func tableName(ver uint64) string { return fmt.Sprintf("%s%016x", tablePrefix, ver) }

// writeTable writes the table's slots to table-ver durably and returns their checksum.
func (v *Set) writeTable(ver uint64) (uint64, error) {
	b := wordBytes(v.slots)
	if err := writeDurable(filepath.Join(v.private, tableName(ver)), b, v.private); err != nil {
		return 0, err
	}
	return xxhash.Sum64(b), nil
}

// writeDurable writes b to the file final in dir durably: to a temporary name, synced,
// then renamed over final, and the rename synced. A kill leaves final as it was or as b.
func writeDurable(final string, b []byte, dir string) error {
	tmp := final + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
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
	return val[recordHeader:], nil
}

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
	return val[:n], nil
}

// Resume makes the set what it was at the last complete checkpoint: the fingerprints
// added after it (by a run killed before its next checkpoint) are dropped from the
// store, and the in-memory table is read back. It must be called right after Open, on a
// set opened with the checkpoint's Options.Durable and the same MemBytes.
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
	slots := binary.LittleEndian.Uint64(val[8:])
	used := binary.LittleEndian.Uint64(val[16:])
	zero := val[24] == 1
	sum := binary.LittleEndian.Uint64(val[32:])
	if slots > uint64(v.maxLen) || used > slots {
		return v.fail("read", fmt.Errorf("the checkpoint's table has %d slots (%d used); this budget allows %d: resume with the --visited-mem of the run", slots, used, v.maxLen))
	}
	if err := v.readTable(ver, int(slots), sum); err != nil {
		return v.fail("read", err)
	}
	v.used, v.zero = int(used), zero
	kept, err := v.store.dropAfter(ver, func(uint64) {})
	if err != nil {
		return v.fail("read", err)
	}
	v.st.Spilled = kept
	v.st.States = kept + used
	if zero {
		v.st.States++
	}
	if kept == 0 {
		return nil
	}
	bytes := v.memCap - int64(v.maxLen)*8
	v.filter = newVisitedFilter(bytes, max(uint64(bytes)*8/filterTargetBitsPerKey, 2*kept))
	if err := v.store.scan(v.filter.add); err != nil {
		return v.fail("scan", err)
	}
	return nil
}

// readTable reads table-ver, of n slots, into a new table and checks its checksum.
func (v *Set) readTable(ver uint64, n int, sum uint64) error {
	f, err := os.Open(filepath.Join(v.private, tableName(ver)))
	if err != nil {
		return fmt.Errorf("the checkpoint's table: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() != int64(n)*8 {
		return fmt.Errorf("the checkpoint's table %s is not %d bytes long (cut short or replaced)", f.Name(), n*8)
	}
	w := allocWords(n)
	if _, err := io.ReadFull(f, wordBytes(w)); err != nil {
		freeWords(w)
		return fmt.Errorf("the checkpoint's table: %w", err)
	}
	if xxhash.Sum64(wordBytes(w)) != sum {
		freeWords(w)
		return fmt.Errorf("the checkpoint's table %s is damaged (checksum mismatch)", f.Name())
	}
	freeWords(v.slots)
	v.setSlots(w)
	return nil
}

// dropUncheckpointed empties a durable store that holds no complete checkpoint: what is
// in it was added by a run killed before its first checkpoint, and a new run must not
// see it.
func (v *Set) dropUncheckpointed() error {
	if _, err := v.readRecord(); !errors.Is(err, ErrNoCheckpoint) {
		return nil // a checkpoint (Resume drops what came after it), or an error Resume reports
	}
	if _, err := v.store.dropAfter(0, func(uint64) {}); err != nil {
		return v.fail("read", err)
	}
	v.removeTables(0)
	return nil
}
