package wgl

import (
	"hash/maphash"
	"math/bits"
	"unsafe"
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
// exact as a key.
//
// A larger partition keys its sets by a Zobrist hash (the XOR of a random word per
// member), updated in O(1) per change, and keeps with each entry an exact description
// of its set, compared when the hashes match, so that a collision costs time but never
// a wrong answer. The description is small whatever the history's length, so that
// memory grows with the configurations explored and not with them times the operations:
//
//   - the completed operations, numbered in call order, as a window: every one below
//     base is in the set, none from hi on, and the window's bits in between. The search
//     only linearizes an operation called before the first return of one it has not
//     linearized, so the window spans the operations concurrent with that one: a few,
//     however long the history.
//   - the open operations in the set, as the number of an interned list (openSets): open
//     operations need never be linearized, so no window bounds them, but the lists share
//     their tails and the search changes them rarely.
type memo[S comparable] struct {
	bits []uint64  // the current set: of the operations (small), of the completed ranks (large)
	word [1]uint64 // bits, for a small partition

	// Large partitions only.
	hash     uint64   // the current set's Zobrist hash
	zob      []uint64 // the hash word of each operation
	rank     []int32  // by operation: its rank among the completed ones in call order, or −1−its rank among the open ones
	base, hi int32    // the current window
	openSet  int32    // the current open operations in the set, in opens
	opens    openSets
	window   []uint64 // scratch: the current window's words
	arena    []uint64 // the window words of every entry, at its ext's off

	// The table proper: slots are 0 when empty, else the high 32 bits of the entry's
	// hash and the entry's number + 1. Entries, and the exts of a large partition's
	// entries, are stored in chunks that never move (chunk k holds
	// 1<<(chunkBits+k) entries), so that growing the table copies only slots, and
	// an entry — its state included — is written once. The first chunk is sized to the
	// partition: chunkBits is its log2.
	chunkBits int
	slots     []uint64
	mask      uint64
	chunks    [][]memoEntry[S]
	exts      [][]memoExt // large partitions: chunk k holds the exts of chunk k's entries
	count     uint32
}

// memoEntry is one explored configuration.
type memoEntry[S comparable] struct {
	key uint64 // the set (small partitions) or its hash (large ones)
	sh  uint64 // the state's hash
	s   S
}

// memoExt describes a large partition's entry's set exactly (see memo).
type memoExt struct {
	base, hi int32
	openSet  int32
	off      uint64 // of its window's (hi−base+63)/64 words in the arena
}

// smallMemoMax is the largest partition that keeps its sets in one word: 64, the bits
// of a word. Tests lower it to run the general memo on small histories.
var smallMemoMax = 64

// stateSeed seeds every state hash, one seed per process. Nothing but the order of
// probes depends on it: never a verdict, a witness or a step count.
var stateSeed = maphash.MakeSeed()

// hashState is the hash of a state that the memo expects.
func hashState[S comparable](s S) uint64 { return maphash.Comparable(stateSeed, s) }

// newMemo makes a memo for n completed operations, ranked in their order.
func newMemo[S comparable](n int) *memo[S] {
	m := &memo[S]{}
	rank := make([]int32, n)
	for i := range rank {
		rank[i] = int32(i)
	}
	m.init(rank)
	return m
}

// init prepares m for a partition whose operations have the given ranks (see
// memo.rank), reusing its memory where it can.
func (m *memo[S]) init(rank []int32) {
	n := len(rank)
	size := 32
	for size < 4*n {
		size *= 2
	}
	chunkBits := 3
	for chunkBits < 10 && 1<<chunkBits < n {
		chunkBits++
	}
	old := *m
	*m = memo[S]{slots: resize(old.slots, size), mask: uint64(size - 1), chunkBits: chunkBits}
	clear(m.slots)
	if old.chunkBits == chunkBits {
		m.chunks = old.chunks // entries beyond count are never read
		m.exts = old.exts
	}
	if n <= smallMemoMax {
		m.bits = m.word[:]
		return
	}
	m.zob = resize(old.zob, n)
	// The hash words only need to be well mixed; a fixed sequence keeps runs
	// repeatable.
	x := uint64(0x9e3779b97f4a7c15)
	for i := range m.zob {
		x += 0x9e3779b97f4a7c15
		m.zob[i] = mix64(x)
	}
	m.rank = rank
	m.bits = resize(old.bits, (n+63)/64)
	clear(m.bits)
	m.opens = old.opens
	m.opens.reset()
	m.window, m.arena = old.window[:0], old.arena[:0]
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
	if m.zob == nil {
		m.bits[i>>6] ^= 1 << uint(i&63)
		return
	}
	m.hash ^= m.zob[i]
	r := m.rank[i]
	if r < 0 {
		m.openSet = m.opens.flip(m.openSet, -1-r)
		return
	}
	m.bits[r>>6] ^= 1 << uint(r&63)
	if m.has(r) {
		if r >= m.hi {
			m.hi = r + 1
		}
		for int(m.base) < len(m.bits)*64 && m.has(m.base) {
			m.base++
		}
		m.hi = max(m.hi, m.base)
		return
	}
	m.base = min(m.base, r)
	for m.hi > m.base && !m.has(m.hi-1) {
		m.hi--
	}
}

// has reports whether the completed operation of rank r is in the current set.
func (m *memo[S]) has(r int32) bool { return m.bits[r>>6]&(1<<uint(r&63)) != 0 }

// loadWindow copies the current window's bits, from base, into m.window.
func (m *memo[S]) loadWindow() []uint64 {
	n := int(m.hi-m.base+63) / 64
	m.window = resize(m.window, n)
	for k := range n {
		m.window[k] = bitsAt(m.bits, int(m.base)+64*k)
	}
	if rem := uint(m.hi-m.base) % 64; rem != 0 {
		m.window[n-1] &= 1<<rem - 1
	}
	return m.window
}

// bitsAt returns the 64 bits of words from bit position p on (zeros past the end).
func bitsAt(words []uint64, p int) uint64 {
	w, sh := p>>6, uint(p&63)
	x := words[w] >> sh
	if sh != 0 && w+1 < len(words) {
		x |= words[w+1] << (64 - sh)
	}
	return x
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

// ext returns entry e's description of its set (large partitions only).
func (m *memo[S]) ext(e uint32) *memoExt {
	k, at := m.locate(e)
	return &m.exts[k][at]
}

// sameSet reports whether entry e's set is the current one (large partitions only).
func (m *memo[S]) sameSet(e uint32) bool {
	x := m.ext(e)
	if x.base != m.base || x.hi != m.hi || x.openSet != m.openSet {
		return false
	}
	w := m.loadWindow()
	return equalWords(m.arena[x.off:x.off+uint64(len(w))], w)
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
			m.chunks[k][at] = memoEntry[S]{key: key, sh: sh, s: s}
			if m.zob != nil {
				for k >= len(m.exts) {
					m.exts = append(m.exts, make([]memoExt, 1<<(m.chunkBits+len(m.exts))))
				}
				m.exts[k][at] = memoExt{base: m.base, hi: m.hi, openSet: m.openSet, off: uint64(len(m.arena))}
				m.arena = append(m.arena, m.loadWindow()...)
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
			(m.zob == nil || m.sameSet(e)) {
			return e, false
		}
	}
}

// bytes estimates the memory the memo holds.
func (m *memo[S]) bytes() int64 {
	var entry memoEntry[S]
	n := int64(len(m.slots)) * 8
	for _, c := range m.chunks {
		n += int64(len(c)) * int64(unsafe.Sizeof(entry))
	}
	for _, c := range m.exts {
		n += int64(len(c)) * int64(unsafe.Sizeof(memoExt{}))
	}
	return n + int64(cap(m.arena))*8 + m.opens.bytes() + int64(len(m.bits)+len(m.zob))*8 + int64(len(m.rank))*4
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
