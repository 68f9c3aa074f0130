// Package words allocates large tables of machine words outside the Go heap, on
// transparent huge pages where the system gives them on request. A table probed at
// random slots (a map from fingerprints to states) is written first when it grows: in the
// Go heap's 4 KiB pages that is a page fault every 256 slots of 16 bytes, and once the
// table is much larger than the TLB's reach every lookup costs a TLB miss on top of its
// cache miss. Memory mapped from the operating system comes zeroed, is given back when
// freed rather than left to the collector, and holds no pointers for it to scan.
package words

import "runtime"

// hugeBytes is the size of a transparent huge page on amd64 and arm64.
const hugeBytes = 2 << 20

// mapFrom is the size from which a table is mapped: below it the Go heap does as well.
const mapFrom = 2 * hugeBytes

// Block is words from Alloc that a cleanup frees once the Block is unreachable, unless
// Free did first: for tables owned by a structure that has no Close.
type Block struct {
	W       []uint64
	cleanup runtime.Cleanup
}

// NewBlock returns a Block of n zeroed words.
func NewBlock(n int) *Block {
	b := &Block{W: Alloc(n)}
	b.cleanup = runtime.AddCleanup(b, Free, b.W)
	return b
}

// Free releases the block's words now; b.W must not be used afterwards.
func (b *Block) Free() {
	b.cleanup.Stop()
	Free(b.W)
	b.W = nil
}
