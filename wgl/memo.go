package wgl

import (
	"hash/maphash"
	"math/bits"
)

// memo is Lowe's memoization: the configurations the search has explored — a set of
// linearized operations and the state they lead to — so that each is explored once. It
// also keeps the current set, updated as operations are linearized and undone.
//
// It is an open-addressed hash table written for this purpose. A state is hashed once,
// when the search produces it, and each entry keeps that hash, so growing the table
// never hashes a state again and a lookup compares states only when the hashes match.
// The entries also keep the states themselves, and the search refers to a
// configuration by its entry's number (its stack holds numbers, not states). A
// partition of at most smallMemoMax operations keeps its set in one word, which is
// exact as a key. A larger one keeps the set as words and a Zobrist hash of it (the XOR
// of a random word per member), updated in O(1) per change; an entry keeps its set's
// words, compared when the hashes match, so that a collision costs time but never a
// wrong answer.
type memo[S comparable] struct {
	words int       // words per set: 1 for small partitions
	bits  []uint64  // the current set
	word  [1]uint64 // bits, for a small partition
	hash  uint64    // its Zobrist hash (large partitions only)
	zob   []uint64  // the hash word of each operation (large partitions only)

	// The table proper: slots are 0 when empty, else the high 32 bits of the entry's
	// hash and the entry's number + 1. Entries, and the sets of a large partition's
	// entries, are stored in chunks that never move (chunk k holds
	// 1<<(chunkBits+k) entries), so that growing the table copies only slots, and
	// an entry — its state included — is written once. The first chunk is sized to the
	// partition: chunkBits is its log2.
	chunkBits int
	slots     []uint64
	mask      uint64
	chunks    [][]memoEntry[S]
	sets      [][]uint64 // large partitions: chunk k holds the words of chunk k's entries
	count     uint32
}

// memoEntry is one explored configuration.
type memoEntry[S comparable] struct {
	key uint64 // the set (small partitions) or its hash (large ones)
	sh  uint64 // the state's hash
	s   S
}

// smallMemoMax is the largest partition that keeps its sets in one word: 64, the bits
// of a word. Tests lower it to run the general memo on small histories.
var smallMemoMax = 64

// stateSeed seeds every state hash, one seed per process. Nothing but the order of
// probes depends on it: never a verdict, a witness or a step count.
var stateSeed = maphash.MakeSeed()

// hashState is the hash of a state that the memo expects.
func hashState[S comparable](s S) uint64 { return maphash.Comparable(stateSeed, s) }

func newMemo[S comparable](n int) *memo[S] {
	m := &memo[S]{}
	m.init(n)
	return m
}

// init prepares m for a partition of n operations, reusing its memory where it can.
func (m *memo[S]) init(n int) {
	size := 32
	for size < 4*n {
		size *= 2
	}
	chunkBits := 3
	for chunkBits < 10 && 1<<chunkBits < n {
		chunkBits++
	}
	words := 1
	if n > smallMemoMax {
		words = (n + 63) / 64
	}
	old := *m
	*m = memo[S]{words: words, slots: resize(old.slots, size), mask: uint64(size - 1), chunkBits: chunkBits}
	clear(m.slots)
	if old.chunkBits == chunkBits {
		m.chunks = old.chunks // entries beyond count are never read
		if old.words == words {
			m.sets = old.sets
		}
	}
	if n > smallMemoMax {
		m.zob = resize(old.zob, n)
		// The hash words only need to be well mixed; a fixed sequence keeps runs
		// repeatable.
		x := uint64(0x9e3779b97f4a7c15)
		for i := range m.zob {
			x += 0x9e3779b97f4a7c15
			m.zob[i] = mix64(x)
		}
		m.bits = resize(old.bits, words)
		clear(m.bits)
	} else {
		m.bits = m.word[:]
	}
}

// mix64 is splitmix64's finalizer.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// configHash hashes a configuration: its set's word (or hash) and its state's hash.
func configHash(key, sh uint64) uint64 {
	return mix64(key ^ (sh * 0x9e3779b97f4a7c15))
}

// flip adds operation i to the current set, or removes it if it is there.
func (m *memo[S]) flip(i int32) {
	m.bits[i>>6] ^= 1 << uint(i&63)
	if m.zob != nil {
		m.hash ^= m.zob[i]
	}
}

// locate gives the chunk and the position in it of entry e.
func (m *memo[S]) locate(e uint32) (chunk, at int) {
	x := e + 1<<m.chunkBits
	k := bits.Len32(x) - 1 - m.chunkBits
	return k, int(x - 1<<(m.chunkBits+k))
}

// entry returns entry e.
func (m *memo[S]) entry(e uint32) *memoEntry[S] {
	k, at := m.locate(e)
	return &m.chunks[k][at]
}

// set returns the words of entry e's set (large partitions only).
func (m *memo[S]) set(e uint32) []uint64 {
	k, at := m.locate(e)
	return m.sets[k][at*m.words : (at+1)*m.words]
}

// addNew records the configuration (current set, state s whose hash is sh) and reports
// whether it was new, and its entry's number.
func (m *memo[S]) addNew(s S, sh uint64) (uint32, bool) {
	key := m.bits[0]
	if m.zob != nil {
		key = m.hash
	}
	h := configHash(key, sh)
	tag := h >> 32
	for i := h & m.mask; ; i = (i + 1) & m.mask {
		slot := m.slots[i]
		if slot == 0 {
			e := m.count
			k, at := m.locate(e)
			for k >= len(m.chunks) {
				m.chunks = append(m.chunks, make([]memoEntry[S], 1<<(m.chunkBits+len(m.chunks))))
			}
			for m.zob != nil && k >= len(m.sets) {
				m.sets = append(m.sets, make([]uint64, m.words<<(m.chunkBits+len(m.sets))))
			}
			m.chunks[k][at] = memoEntry[S]{key: key, sh: sh, s: s}
			if m.zob != nil {
				copy(m.sets[k][at*m.words:], m.bits)
			}
			m.slots[i] = tag<<32 | uint64(e+1)
			m.count++
			if uint64(m.count)*2 > uint64(len(m.slots)) {
				m.grow()
			}
			return e, true
		}
		if slot>>32 != tag {
			continue
		}
		e := uint32(slot) - 1
		if en := m.entry(e); en.key == key && en.sh == sh && en.s == s &&
			(m.zob == nil || equalWords(m.set(e), m.bits)) {
			return e, false
		}
	}
}

// grow doubles the slots.
func (m *memo[S]) grow() {
	m.slots = make([]uint64, 2*len(m.slots))
	m.mask = uint64(len(m.slots) - 1)
	e := uint32(0)
	for _, chunk := range m.chunks {
		for i := range chunk {
			if e == m.count {
				return
			}
			en := &chunk[i]
			h := configHash(en.key, en.sh)
			j := h & m.mask
			for m.slots[j] != 0 {
				j = (j + 1) & m.mask
			}
			m.slots[j] = (h>>32)<<32 | uint64(e+1)
			e++
		}
	}
}

func equalWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
