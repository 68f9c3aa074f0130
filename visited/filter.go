package visited

import (
	"math"
	"math/bits"
)

// visitedFilter is a blocked Bloom filter over the fingerprints on disk: every key sets
// k bits inside one 512-bit block (one cache line), so a query costs one memory access
// and, when the filter says "no", no disk read at all.
//
// The block is chosen from the fingerprint's high bits (fingerprints are already well
// mixed); the k bit positions, 9 bits each, come from an avalanche of the whole
// fingerprint, so they are independent of the block. k ≤ 7 so that 7×9 bits fit in one
// 64-bit word.
//
// False-positive rates at the k optimalK picks (measured by TestVisitedFilterRate):
// 16 bits/key 0.1 %, 10 bits/key 1 %, 6 bits/key 6 %, 4 bits/key 15 %, 2 bits/key 40 %.
type visitedFilter struct {
	words []uint64 // len is a multiple of 8; block i is words[8i:8i+8]
	k     int      // bits set per key, 1..7
	plan  uint64   // keys the filter was tuned for (k is optimal near this many)
}

const (
	filterBlockBytes = 64
	filterMaxK       = 7
	// filterTargetBitsPerKey is what the filter aims for while its memory share allows:
	// about 1 % false positives.
	filterTargetBitsPerKey = 10
)

// newVisitedFilter returns a filter of the given size (rounded down to whole blocks, at
// least one) tuned for plan keys.
func newVisitedFilter(bytes int64, plan uint64) visitedFilter {
	blocks := bytes / filterBlockBytes
	if blocks < 1 {
		blocks = 1
	}
	f := visitedFilter{words: allocWords(int(blocks * 8))}
	f.tune(plan)
	return f
}

// optimalK is the number of bits per key that minimises false positives for the given
// number of bits and keys: ln 2 × bits/keys, clamped to 1..filterMaxK.
func optimalK(nbits, keys uint64) int {
	if keys == 0 {
		return filterMaxK
	}
	k := int(math.Round(math.Ln2 * float64(nbits) / float64(keys)))
	return min(max(k, 1), filterMaxK)
}

// tune sets the filter's plan to keys and its k to the best for that load. It must only
// be called on an empty filter, or the keys in it would be lost.
func (f *visitedFilter) tune(keys uint64) {
	f.plan = max(keys, 1)
	f.k = optimalK(uint64(len(f.words))*64, f.plan)
}

func (f *visitedFilter) bytes() int64 { return int64(len(f.words)) * 8 }

// locate returns the index of the first word of fp's block and the word holding its bit
// positions.
func (f *visitedFilter) locate(fp uint64) (int, uint64) {
	blk, _ := bits.Mul64(fp, uint64(len(f.words)/8))
	return int(blk) * 8, filterMix(fp)
}

func (f *visitedFilter) add(fp uint64) {
	base, h := f.locate(fp)
	b := f.words[base : base+8 : base+8]
	for range f.k {
		p := h & 511
		b[p>>6] |= 1 << (p & 63)
		h >>= 9
	}
}

// mayContain reports whether fp may have been added; false means it certainly was not.
func (f *visitedFilter) mayContain(fp uint64) bool {
	base, h := f.locate(fp)
	b := f.words[base : base+8 : base+8]
	for range f.k {
		p := h & 511
		if b[p>>6]&(1<<(p&63)) == 0 {
			return false
		}
		h >>= 9
	}
	return true
}

// reset empties the filter (keeping its memory) and tunes it for keys.
func (f *visitedFilter) reset(keys uint64) {
	clear(f.words)
	f.tune(keys)
}

// filterMix is a 64-bit avalanche (the murmur3 finaliser): every output bit depends on
// every input bit.
func filterMix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
