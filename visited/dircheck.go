package visited

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"
)

// markerFile marks a checkpoint directory as Ravel's: Open writes it first, before any
// store file, into a directory it makes or finds empty. A directory that has it but no
// checkpoint record (its run died before its first checkpoint) is Ravel's to empty and
// start afresh; any other non-empty directory is refused. Directories of checkpoints
// taken before the marker existed are recognised by their record (recordFile).
const markerFile = "ravel-checkpoint"

const markerText = "This directory holds a checkpoint of `ravel check` (--checkpoint DIR, --resume DIR).\n"

// The causes, in a *DirError, of a checkpoint directory Open refuses before it reads or
// writes the store in it.
var (
	ErrNoDir            = errors.New("no such directory")
	ErrNotCheckpointDir = errors.New("the directory is not empty and is not a Ravel checkpoint directory; give a new or empty one")
	ErrHasCheckpoint    = errors.New("the directory already holds a checkpoint")
	ErrInUse            = errors.New("the directory is in use by another ravel run")
)

// DirError is Open's refusal of a checkpoint directory (Options.Durable), before it has
// read or written the store in it.
type DirError struct {
	Dir string
	Err error // ErrNoDir, ErrNotCheckpointDir, ErrHasCheckpoint or ErrInUse
	Pid int   // with ErrInUse: the process holding the directory, when known
}

// Error is the directory, the cause and, when known, the pid holding it.
func (e *DirError) Error() string {
	s := e.Dir + ": " + e.Err.Error()
	if e.Pid > 0 {
		s += fmt.Sprintf(" (pid %d)", e.Pid)
	}
	return s
}

// Unwrap returns the cause, one of the Err… values above, for errors.Is.
func (e *DirError) Unwrap() error { return e.Err }

// prepareNew readies dir for a new checkpointed run: it makes it (with its marker) if it
// does not exist, marks it if it is empty, and empties the store of a marked directory
// without a checkpoint record. It refuses a directory that holds a checkpoint, one in
// use, and any other non-empty directory, without writing into it.
func prepareNew(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return &StoreError{Op: "create", Dir: dir, Err: err}
		}
		return writeMarker(dir)
	case err != nil:
		return &StoreError{Op: "create", Dir: dir, Err: err}
	case !fi.IsDir():
		return &StoreError{Op: "create", Dir: dir, Err: errors.New("not a directory")}
	}
	if err := checkNotInUse(dir, false); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &StoreError{Op: "read", Dir: dir, Err: err}
	}
	has := func(name string) bool {
		return slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == name })
	}
	switch {
	case len(entries) == 0:
		return writeMarker(dir)
	case has(recordFile):
		return &DirError{Dir: dir, Err: ErrHasCheckpoint}
	case has(markerFile):
		return removeStoreFiles(dir, entries)
	}
	return &DirError{Dir: dir, Err: ErrNotCheckpointDir}
}

// prepareResume checks that dir is a directory not in use (read-only: by a run that
// writes), without writing into it.
func prepareResume(dir string, readOnly bool) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &DirError{Dir: dir, Err: ErrNoDir}
	case err != nil:
		return &StoreError{Op: "open", Dir: dir, Err: err}
	case !fi.IsDir():
		return &StoreError{Op: "open", Dir: dir, Err: errors.New("not a directory")}
	}
	return checkNotInUse(dir, readOnly)
}

func writeMarker(dir string) error {
	if err := writeDurable(filepath.Join(dir, markerFile), dir, []byte(markerText)); err != nil {
		return &StoreError{Op: "create", Dir: dir, Err: err}
	}
	return nil
}

// checkNotInUse refuses dir when another process holds badger's lock on it, naming the
// process from badger's LOCK file when it can.
func checkNotInUse(dir string, shared bool) error {
	if !dirLockedByOther(dir, shared) {
		return nil
	}
	return inUse(dir)
}

func inUse(dir string) *DirError {
	e := &DirError{Dir: dir, Err: ErrInUse}
	if b, err := os.ReadFile(filepath.Join(dir, "LOCK")); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			e.Pid = pid
		}
	}
	return e
}

// badgerLocked reports whether err is badger's refusal to open a directory another
// process holds (the message of badger v4's acquireDirectoryLock, which wraps no error
// errors.Is can find): the fallback when the lock was taken after checkNotInUse looked.
func badgerLocked(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Cannot acquire directory lock")
}

// removeStoreFiles removes from a marked directory the files of the store and of the
// checkpoints (what badger and this package write), and leaves anything else.
func removeStoreFiles(dir string, entries []os.DirEntry) error {
	for _, e := range entries {
		if !storeFileName(e.Name()) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return &StoreError{Op: "remove", Dir: dir, Err: err}
		}
	}
	return nil
}

func storeFileName(name string) bool {
	switch name {
	case badger.ManifestFilename, "MANIFEST-REWRITE", badger.KeyRegistryFileName, badger.KeyRegistryRewriteFileName,
		"DISCARD", "LOCK", coldDir, recordFile + ".tmp":
		return true
	}
	for _, suffix := range []string{".sst", ".vlog", ".mem"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return strings.HasPrefix(name, tablePrefix)
}

// verifyStore opens every table the MANIFEST of the store in dir lists, and those of its
// cold store, with badger's table package and their checksums verified, in the calling
// goroutine and under guard. Badger opens its tables in goroutines of its own
// (newLevelsController), where a damaged table makes it panic out of reach of any
// recover: a table cut short or overwritten would crash the process with a trace. It
// refuses a store with table files but no MANIFEST, which badger would take for empty
// (deleting the tables), and returns the number of entries the listed tables hold.
func verifyStore(dir string) (entries uint64, err error) {
	entries, err = verifyTables(dir, "")
	if err != nil {
		return 0, err
	}
	cold := filepath.Join(dir, coldDir)
	if fi, err := os.Stat(cold); err == nil && fi.IsDir() {
		n, err := verifyTables(cold, coldDir+string(filepath.Separator))
		if err != nil {
			return 0, err
		}
		entries += n
	}
	return entries, nil
}

// verifyTables is verifyStore of one store; prefix is how its tables are named in
// messages.
func verifyTables(dir, prefix string) (entries uint64, err error) {
	m, ok, err := readManifest(dir)
	if err != nil {
		return 0, fmt.Errorf("the checkpoint's store is damaged (%s%s): %w", prefix, badger.ManifestFilename, err)
	}
	if !ok {
		if ssts, _ := filepath.Glob(filepath.Join(dir, "*.sst")); len(ssts) > 0 {
			return 0, fmt.Errorf("the checkpoint's store is damaged: %s%s is missing, and %d table files are left without it", prefix, badger.ManifestFilename, len(ssts))
		}
		return 0, nil
	}
	ids := make([]uint64, 0, len(m.Tables))
	for id := range m.Tables {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	opts := tableOptions(dir)
	for _, id := range ids {
		path := table.NewFilename(id, dir)
		name := prefix + filepath.Base(path)
		n, err := verifyTable(path, opts)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return 0, fmt.Errorf("the checkpoint's store is missing table %s, which its %s lists", name, badger.ManifestFilename)
		case err != nil:
			return 0, fmt.Errorf("the checkpoint's store is damaged (table %s): %w", name, err)
		}
		entries += n
	}
	return entries, nil
}

// verifyTable opens the table file at path read-only, verifies its checksums and returns
// how many entries it holds. A panic of badger's reading it is an error.
func verifyTable(path string, opts table.Options) (entries uint64, err error) {
	fd, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer fd.Close()
	fi, err := fd.Stat()
	if err != nil {
		return 0, err
	}
	if fi.Size() == 0 {
		return 0, errors.New("the file is empty")
	}
	data, err := z.Mmap(fd, false, fi.Size())
	if err != nil {
		return 0, err
	}
	defer func() { _ = z.Munmap(data) }()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("it cannot be read (%d bytes: cut short or overwritten)", fi.Size())
			if e, ok := r.(error); ok { // a runtime error; badger's own panics are reports of many lines
				err = fmt.Errorf("%w: %v", err, e)
			}
		}
	}()
	// With opts.ChkMode NoVerification OpenTable never closes the file: the deferred
	// calls above own it.
	t, err := table.OpenTable(&z.MmapFile{Data: data, Fd: fd}, opts)
	if err != nil {
		return 0, err
	}
	if err := t.VerifyChecksum(); err != nil {
		return 0, err
	}
	return uint64(t.KeyCount()), nil
}

// readManifest replays the MANIFEST of the store in dir; ok is false when there is none.
func readManifest(dir string) (m badger.Manifest, ok bool, err error) {
	f, err := os.Open(filepath.Join(dir, badger.ManifestFilename))
	if errors.Is(err, os.ErrNotExist) {
		return m, false, nil
	} else if err != nil {
		return m, false, err
	}
	defer f.Close()
	err = guard(func() error {
		var rerr error
		m, _, rerr = badger.ReplayManifestFile(f, 0, storeOptions(dir))
		return rerr
	})
	return m, err == nil, err
}

// ReadCheckpoint returns the record of the last complete checkpoint in dir, as
// LastCheckpoint would, without opening the store and without writing anything: a
// resume reads it first, to refuse another run's checkpoint and to know whether it will
// stop at once (Options.ReadOnly) before it opens the store. Its errors are a *DirError
// (ErrNoDir) or a *StoreError (ErrNoCheckpoint, a damaged record).
func ReadCheckpoint(dir string) ([]byte, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, &DirError{Dir: dir, Err: ErrNoDir}
	case err != nil:
		return nil, &StoreError{Op: "read", Dir: dir, Err: err}
	case !fi.IsDir():
		return nil, &StoreError{Op: "read", Dir: dir, Err: errors.New("not a directory")}
	}
	v := &Set{private: dir, durable: true, maxGens: tableGenerations}
	val, err := v.readRecord()
	if err != nil {
		return nil, err
	}
	return val[recordLen(val):], nil
}
