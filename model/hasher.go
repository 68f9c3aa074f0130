package model

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/cespare/xxhash/v2"
)

// The primes of xxHash64.
const (
	prime1 uint64 = 11400714785074694791
	prime2 uint64 = 14029467366897019727
	prime3 uint64 = 1609587929392839161
	prime4 uint64 = 9650029242287828579
	prime5 uint64 = 2870177450012600261
)

// Hasher accumulates a 64-bit fingerprint of a sequence of values: xxHash64's lane
// step per word and its final avalanche, without buffering, so hashing a small state costs
// a few nanoseconds per field. Strings are hashed with xxhash first.
//
// The order of writes matters; write fields in a fixed order. The zero Hasher is ready to
// use; it has no fallback for Value.
type Hasher struct {
	acc      uint64
	n        uint64
	fallback func(h *Hasher, v any)
}

// NewHasher returns a Hasher whose Value method hashes values without a HashState method
// with fallback (Ravel's engine passes its reflective walker).
func NewHasher(fallback func(h *Hasher, v any)) *Hasher {
	return &Hasher{fallback: fallback}
}

// StateHasher is a value that fingerprints itself: HashState writes every part of the
// state that matters into h, in a fixed order. Equal states must write equal sequences.
type StateHasher interface {
	HashState(h *Hasher)
}

// Reset forgets everything written, keeping the fallback.
func (h *Hasher) Reset() { h.acc, h.n = 0, 0 }

// Uint64 writes v.
func (h *Hasher) Uint64(v uint64) {
	k := bits.RotateLeft64(v*prime2, 31) * prime1
	h.acc ^= k
	h.acc = bits.RotateLeft64(h.acc, 27)*prime1 + prime4
	h.n++
}

// Int writes v.
func (h *Hasher) Int(v int) { h.Uint64(uint64(v)) }

// ID writes an actor's ID.
func (h *Hasher) ID(v ID) { h.Uint64(uint64(v)) }

// Request adds a request's identity: its client and sequence number.
func (h *Hasher) Request(r RequestID) {
	h.ID(r.Client)
	h.Int(r.Seq)
}

// Bool writes v.
func (h *Hasher) Bool(v bool) {
	if v {
		h.Uint64(1)
	} else {
		h.Uint64(0)
	}
}

// Float64 writes v by its bits after making −0 into +0, as Ravel's reflective walker
// does (reflect.DeepEqual equates them); a NaN hashes like itself.
func (h *Hasher) Float64(v float64) {
	if v == 0 {
		v = 0
	}
	h.Uint64(math.Float64bits(v))
}

// String writes s; "ab","c" and "a","bc" hash differently.
func (h *Hasher) String(s string) {
	h.Uint64(xxhash.Sum64String(s))
	h.Uint64(uint64(len(s)))
}

// Bytes writes b, like String.
func (h *Hasher) Bytes(b []byte) {
	h.Uint64(xxhash.Sum64(b))
	h.Uint64(uint64(len(b)))
}

// Value writes v: through its HashState method when it has one, otherwise through the
// fallback the Hasher was made with. Without either it panics, naming v's type.
func (h *Hasher) Value(v any) {
	if s, ok := v.(StateHasher); ok {
		s.HashState(h)
		return
	}
	if h.fallback == nil {
		panic(fmt.Sprintf("model: Hasher.Value has no fallback for %T, which has no HashState method", v))
	}
	h.fallback(h, v)
}

// Sub returns a fresh Hasher with the same fallback, for hashing the parts of an
// unordered collection one at a time.
func (h *Hasher) Sub() Hasher { return Hasher{fallback: h.fallback} }

// Sum64 returns the fingerprint of everything written so far. It does not change h.
func (h *Hasher) Sum64() uint64 {
	return Mix64(h.acc + prime5 + h.n)
}

// Mix64 is xxHash64's avalanche: every bit of the result depends on every bit of x.
// Sums of Mix64 values make order-independent fingerprints of multisets.
func Mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= prime2
	x ^= x >> 29
	x *= prime3
	x ^= x >> 32
	return x
}
