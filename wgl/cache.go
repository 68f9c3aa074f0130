package wgl

// The memo of configurations already explored: the set of linearized operations and the
// specification's state after them. Two configurations with the same set and state have
// the same future, so the search explores each one once (Lowe's memoization).
//
// A partition of at most 64 operations keeps its set in one word and uses it directly in
// the map key. A larger one keeps a []uint64 and a Zobrist hash of it (the XOR of a
// random word per member), updated in O(1) when one operation is added or removed; the map
// is keyed by (hash, state) and holds a chain of the sets that share that key, compared
// word by word, so a hash collision costs time but never a wrong answer.

// key64 is a configuration of a partition of at most 64 operations.
type key64[S comparable] struct {
	bits uint64
	s    S
}

// keyN is the map key of a configuration of a larger partition.
type keyN[S comparable] struct {
	hash uint64
	s    S
}

// chainLink is one stored set of a large partition: its words are
// arena[off : off+words], and next is the index of the following link of the same map
// key, or -1.
type chainLink struct {
	off  int
	next int32
}

// memo holds the current set of linearized operations and the configurations seen.
type memo[S comparable] struct {
	small bool

	// small: the current set and the seen configurations.
	bits64 uint64
	seen64 map[key64[S]]struct{}
	// large: the current set, its hash, the per-operation hash words, and the seen sets.
	bits  []uint64
	hash  uint64
	zob   []uint64
	seenN map[keyN[S]]int32
	links []chainLink
	arena []uint64
}

// smallMemoMax is the largest partition that uses the one-word memo: 64, the bits of a
// word. Tests lower it to run the general memo on small histories.
var smallMemoMax = 64

func newMemo[S comparable](n int) *memo[S] {
	if n <= smallMemoMax {
		return &memo[S]{small: true, seen64: make(map[key64[S]]struct{})}
	}
	m := &memo[S]{
		bits:  make([]uint64, (n+63)/64),
		zob:   make([]uint64, n),
		seenN: make(map[keyN[S]]int32),
	}
	// The hash words only need to be well mixed; a fixed sequence keeps runs repeatable.
	x := uint64(0x9e3779b97f4a7c15)
	for i := range m.zob {
		x += 0x9e3779b97f4a7c15
		m.zob[i] = mix64(x)
	}
	return m
}

// mix64 is splitmix64's finalizer.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// flip adds operation i to the current set, or removes it if it is there.
func (m *memo[S]) flip(i int) {
	if m.small {
		m.bits64 ^= 1 << uint(i)
		return
	}
	m.bits[i>>6] ^= 1 << uint(i&63)
	m.hash ^= m.zob[i]
}

// addNew records the configuration (current set, s) and reports whether it was new.
func (m *memo[S]) addNew(s S) bool {
	if m.small {
		k := key64[S]{m.bits64, s}
		if _, ok := m.seen64[k]; ok {
			return false
		}
		m.seen64[k] = struct{}{}
		return true
	}
	k := keyN[S]{m.hash, s}
	head, ok := m.seenN[k]
	if !ok {
		head = -1
	}
	for l := head; l >= 0; l = m.links[l].next {
		if equalWords(m.arena[m.links[l].off:m.links[l].off+len(m.bits)], m.bits) {
			return false
		}
	}
	m.links = append(m.links, chainLink{off: len(m.arena), next: head})
	m.arena = append(m.arena, m.bits...)
	m.seenN[k] = int32(len(m.links) - 1)
	return true
}

func equalWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
