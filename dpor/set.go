package dpor

import "math/bits"

// Set is a set of small non-negative integers — indices into a node's Enabled — with the
// first 64 kept inline so that the common case allocates nothing.
type Set struct {
	w    uint64
	more []uint64
}

// Add puts i in the set.
func (s *Set) Add(i int) {
	if i < 64 {
		s.w |= 1 << i
		return
	}
	k := i/64 - 1
	for len(s.more) <= k {
		s.more = append(s.more, 0)
	}
	s.more[k] |= 1 << (i % 64)
}

// Has reports whether i is in the set.
func (s *Set) Has(i int) bool {
	if i < 64 {
		return s.w&(1<<i) != 0
	}
	k := i/64 - 1
	return k < len(s.more) && s.more[k]&(1<<(i%64)) != 0
}

// AddAll puts 0 … n−1 in the set.
func (s *Set) AddAll(n int) {
	switch {
	case n >= 64:
		s.w = ^uint64(0)
	case n > 0:
		s.w |= 1<<n - 1
	}
	for i := 64; i < n; i++ {
		s.Add(i)
	}
}

// Clear empties the set, keeping its memory.
func (s *Set) Clear() {
	s.w = 0
	clear(s.more)
	s.more = s.more[:0]
}

// Len is the number of elements.
func (s *Set) Len() int {
	n := bits.OnesCount64(s.w)
	for _, w := range s.more {
		n += bits.OnesCount64(w)
	}
	return n
}

// FirstNotIn returns the smallest element of s that is not in t.
func (s *Set) FirstNotIn(t *Set) (int, bool) {
	if d := s.w &^ t.w; d != 0 {
		return bits.TrailingZeros64(d), true
	}
	for k, w := range s.more {
		var tw uint64
		if k < len(t.more) {
			tw = t.more[k]
		}
		if d := w &^ tw; d != 0 {
			return (k+1)*64 + bits.TrailingZeros64(d), true
		}
	}
	return 0, false
}

// FirstNotInEither returns the smallest element of s that is in neither a nor b.
func (s *Set) FirstNotInEither(a, b *Set) (int, bool) {
	if d := s.w &^ a.w &^ b.w; d != 0 {
		return bits.TrailingZeros64(d), true
	}
	word := func(t *Set, k int) uint64 {
		if k < len(t.more) {
			return t.more[k]
		}
		return 0
	}
	for k, w := range s.more {
		if d := w &^ word(a, k) &^ word(b, k); d != 0 {
			return (k+1)*64 + bits.TrailingZeros64(d), true
		}
	}
	return 0, false
}

// Union adds every element of t to s.
func (s *Set) Union(t *Set) {
	s.w |= t.w
	for len(s.more) < len(t.more) {
		s.more = append(s.more, 0)
	}
	for k, w := range t.more {
		s.more[k] |= w
	}
}

// Remove takes i out of the set.
func (s *Set) Remove(i int) {
	if i < 64 {
		s.w &^= 1 << i
		return
	}
	if k := i/64 - 1; k < len(s.more) {
		s.more[k] &^= 1 << (i % 64)
	}
}

// Intersects reports whether s and t have an element in common.
func (s *Set) Intersects(t *Set) bool {
	if s.w&t.w != 0 {
		return true
	}
	for k := 0; k < len(s.more) && k < len(t.more); k++ {
		if s.more[k]&t.more[k] != 0 {
			return true
		}
	}
	return false
}

// AndNot takes every element of t out of s.
func (s *Set) AndNot(t *Set) {
	s.w &^= t.w
	for k := 0; k < len(s.more) && k < len(t.more); k++ {
		s.more[k] &^= t.more[k]
	}
}

// CopyFrom makes s equal to t, keeping s's memory.
func (s *Set) CopyFrom(t *Set) {
	s.w = t.w
	s.more = append(s.more[:0], t.more...)
}

// Each calls f with every element, in increasing order.
func (s *Set) Each(f func(int)) {
	for w := s.w; w != 0; w &= w - 1 {
		f(bits.TrailingZeros64(w))
	}
	for k, w := range s.more {
		for ; w != 0; w &= w - 1 {
			f((k+1)*64 + bits.TrailingZeros64(w))
		}
	}
}

// word returns the k-th word of the set: elements 64k … 64k+63.
func (s *Set) word(k int) uint64 {
	if k == 0 {
		return s.w
	}
	if k-1 < len(s.more) {
		return s.more[k-1]
	}
	return 0
}

// Below returns the largest element of s smaller than i, or −1.
func (s *Set) Below(i int) int {
	if i <= 64 { // the common case, inlined: the inline word alone
		return bits.Len64(s.w&(1<<uint(i)-1)) - 1
	}
	return s.below(i)
}

func (s *Set) below(i int) int {
	i = min(i, 64*(len(s.more)+1))
	for i > 0 {
		i--
		k := i / 64
		w := s.word(k) & (2<<(i%64) - 1) // elements 64k … i
		if w != 0 {
			return k*64 + bits.Len64(w) - 1
		}
		i = k * 64
	}
	return -1
}

// Truncate takes every element from n up out of s.
func (s *Set) Truncate(n int) {
	if n < 64 {
		s.w &= 1<<n - 1
		clear(s.more)
		return
	}
	k := n/64 - 1
	if k >= len(s.more) {
		return
	}
	s.more[k] &= 1<<(n%64) - 1
	clear(s.more[k+1:])
}
