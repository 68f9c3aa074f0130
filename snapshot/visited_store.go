package snapshot

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// visitedStore keeps spilled fingerprints on disk as sorted runs: files of 8-byte
// big-endian fingerprints in increasing order, written once and never changed. For each
// run it keeps in memory the first fingerprint of every block of runBlockKeys (one 4 KiB
// page), so a lookup reads one block per run with pread. The newest two runs are merged
// while the older is at most twice the newer, so each run is more than twice the size of
// the next: a store of n fingerprints spilled in batches of at least b has at most
// log₂(n/b)+1 runs, and a fingerprint is rewritten O(log(n/b)) times.
//
// Why not badger, the store DESIGN.md named: badger mmaps its tables and reads through
// the mappings, so every page a lookup touches stays in the process's RSS, and a run that
// spilled ten times its budget measured a peak RSS of 1.8 GiB for a 64 MiB budget. Pages
// read with pread live in the kernel's page cache, which is not the process's memory;
// and a fingerprint takes 8 bytes here against about 27 in badger. The store needs
// nothing else that badger offers: keys are written once, in sorted batches, never
// updated or deleted, and nothing has to survive a crash.
//
// Every run's file stays open for reads; errors are returned, never panics.
type visitedStore struct {
	dir  string
	runs []*visitedRun // oldest first
	seq  int           // the next run's number
	page []byte        // the read buffer of one block
	// indexBytes is the memory the runs' indexes take.
	indexBytes int64
}

// visitedRun is one sorted file.
type visitedRun struct {
	f     *os.File
	path  string
	n     int64    // fingerprints in the file
	first []uint64 // the first fingerprint of each block
	last  uint64   // the largest fingerprint in the file
}

// runBlockKeys is how many fingerprints a block holds: one page, one pread per lookup.
const runBlockKeys = 512

// runIOBytes is the buffer of sequential reads and writes (spills and merges).
const runIOBytes = 256 << 10

func openVisitedStore(dir string) (*visitedStore, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	return &visitedStore{dir: dir, page: make([]byte, 8*runBlockKeys)}, nil
}

// has reports whether fp is on disk.
func (s *visitedStore) has(fp uint64) (bool, error) {
	for i := len(s.runs) - 1; i >= 0; i-- {
		found, err := s.runs[i].has(fp, s.page)
		if err != nil || found {
			return found, err
		}
	}
	return false, nil
}

func (r *visitedRun) has(fp uint64, page []byte) (bool, error) {
	if r.n == 0 || fp < r.first[0] || fp > r.last {
		return false, nil
	}
	// The last block whose first fingerprint is ≤ fp.
	b, found := slices.BinarySearch(r.first, fp)
	if found {
		return true, nil
	}
	b--
	keys := min(int64(runBlockKeys), r.n-int64(b)*runBlockKeys)
	buf := page[:8*keys]
	if _, err := r.f.ReadAt(buf, int64(b)*runBlockKeys*8); err != nil {
		return false, r.readError(err)
	}
	lo, hi := 0, int(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		x := binary.BigEndian.Uint64(buf[8*m:])
		switch {
		case x == fp:
			return true, nil
		case x < fp:
			lo = m + 1
		default:
			hi = m
		}
	}
	return false, nil
}

// write stores the fingerprints in sorted (distinct, none already on disk) as a new run,
// then merges the newest two while the older is at most twice the newer.
func (s *visitedStore) write(sorted []uint64) error {
	if len(sorted) == 0 {
		return nil
	}
	w, err := s.newRunWriter()
	if err != nil {
		return err
	}
	for _, fp := range sorted {
		w.add(fp)
	}
	r, err := w.finish()
	if err != nil {
		return err
	}
	s.runs = append(s.runs, r)
	s.indexBytes += int64(8 * cap(r.first))
	for len(s.runs) >= 2 && s.runs[len(s.runs)-2].n <= 2*s.runs[len(s.runs)-1].n {
		if err := s.mergeLastTwo(); err != nil {
			return err
		}
	}
	return nil
}

// mergeLastTwo replaces the two newest runs by their merge.
func (s *visitedStore) mergeLastTwo() error {
	a, b := s.runs[len(s.runs)-2], s.runs[len(s.runs)-1]
	w, err := s.newRunWriter()
	if err != nil {
		return err
	}
	ra, rb := newRunReader(a), newRunReader(b)
	x, okx, err := ra.next()
	if err != nil {
		w.abort()
		return err
	}
	y, oky, err := rb.next()
	if err != nil {
		w.abort()
		return err
	}
	for okx || oky {
		switch {
		case okx && (!oky || x < y):
			w.add(x)
			x, okx, err = ra.next()
		case oky && (!okx || y < x):
			w.add(y)
			y, oky, err = rb.next()
		default: // equal: keep one
			w.add(x)
			if x, okx, err = ra.next(); err == nil {
				y, oky, err = rb.next()
			}
		}
		if err != nil {
			w.abort()
			return err
		}
	}
	r, err := w.finish()
	if err != nil {
		return err
	}
	s.indexBytes += int64(8*cap(r.first)) - int64(8*cap(a.first)) - int64(8*cap(b.first))
	s.runs = append(s.runs[:len(s.runs)-2], r)
	return errors.Join(a.remove(), b.remove())
}

// scan calls fn with every fingerprint on disk (in no particular order).
func (s *visitedStore) scan(fn func(uint64)) error {
	for _, r := range s.runs {
		rr := newRunReader(r)
		for {
			fp, ok, err := rr.next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			fn(fp)
		}
	}
	return nil
}

// close closes every run's file; the files are removed with the directory.
func (s *visitedStore) close() error {
	var errs []error
	for _, r := range s.runs {
		if err := r.f.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	s.runs = nil
	return errors.Join(errs...)
}

// readError describes a failed read of the run.
func (r *visitedRun) readError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("read %s: the file is shorter than the %d fingerprints written to it: damaged, or changed by another process", r.path, r.n)
	}
	return fmt.Errorf("read %s: %w", r.path, err)
}

func (r *visitedRun) remove() error {
	return errors.Join(r.f.Close(), os.Remove(r.path))
}

// runWriter writes one run sequentially and builds its index.
type runWriter struct {
	run *visitedRun
	w   *bufio.Writer
	key [8]byte
	err error
}

func (s *visitedStore) newRunWriter() (*runWriter, error) {
	path := filepath.Join(s.dir, fmt.Sprintf("run-%06d", s.seq))
	s.seq++
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	return &runWriter{run: &visitedRun{f: f, path: path}, w: bufio.NewWriterSize(f, runIOBytes)}, nil
}

func (w *runWriter) add(fp uint64) {
	r := w.run
	if r.n%runBlockKeys == 0 {
		r.first = append(r.first, fp)
	}
	r.n++
	r.last = fp
	if w.err == nil {
		binary.BigEndian.PutUint64(w.key[:], fp)
		_, w.err = w.w.Write(w.key[:])
	}
}

// finish flushes the run and returns it, or removes the file and returns the error (a
// full disk as ErrDiskFull).
func (w *runWriter) finish() (*visitedRun, error) {
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if w.err != nil {
		err := w.err
		if errors.Is(err, syscall.ENOSPC) {
			err = fmt.Errorf("%w: %w", ErrDiskFull, err)
		}
		w.abort()
		return nil, fmt.Errorf("write %s: %w", w.run.path, err)
	}
	w.run.first = slices.Clip(w.run.first)
	return w.run, nil
}

func (w *runWriter) abort() { _ = w.run.remove() }

// runReader reads one run sequentially.
type runReader struct {
	run  *visitedRun
	r    *bufio.Reader
	read int64
	key  [8]byte
}

func newRunReader(r *visitedRun) *runReader {
	return &runReader{run: r, r: bufio.NewReaderSize(io.NewSectionReader(r.f, 0, 8*r.n), runIOBytes)}
}

// next returns the next fingerprint, or ok false at the end of the run.
func (rr *runReader) next() (fp uint64, ok bool, err error) {
	if rr.read == rr.run.n {
		return 0, false, nil
	}
	if _, err := io.ReadFull(rr.r, rr.key[:]); err != nil {
		return 0, false, rr.run.readError(err)
	}
	rr.read++
	return binary.BigEndian.Uint64(rr.key[:]), true, nil
}
