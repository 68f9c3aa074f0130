package samplers

import "math/bits"

// Chooser is the only source of randomness a sampler draws from (docs/samplers.md). Every
// sampler but POS draws only through IntN, so that a test Chooser can enumerate every
// draw and compute exact probabilities.
type Chooser interface {
	// IntN returns a uniform integer in [0, k); k ≥ 1. IntN(1) is 0 and consumes nothing.
	IntN(k int) int
	// Uint64 returns 64 uniform bits.
	Uint64() uint64
}

// Rand is Ravel's pinned generator: a PCG-DXSM core (the 128-bit LCG of math/rand/v2's
// PCG) seeded through SplitMix64, with Lemire's multiply-shift IntN. It is pinned by a
// golden-value test: changing it changes every seeded result, so it is Ravel's own
// rather than math/rand's, whose IntN may change between Go releases.
type Rand struct{ hi, lo uint64 }

// Version names the generator and the samplers' draw order; outputs record it, since a
// change of either changes seeded results.
const Version = "samplers/1 (pcg-dxsm, splitmix64 seeding, lemire intn)"

// NewRand returns the generator of stream (seed, stream).
func NewRand(seed, stream uint64) *Rand {
	s := splitMix{seed}
	t := splitMix{s.next() ^ stream}
	return &Rand{hi: t.next(), lo: t.next()}
}

// RunRand returns the generator of run r of a session with seed s: rng(s, r).
func RunRand(seed int64, run int) *Rand { return NewRand(uint64(seed), uint64(run)) }

// CalibrationRand returns the generator of calibration run c: rng(s, 2⁶³ + c).
func CalibrationRand(seed int64, c int) *Rand {
	return NewRand(uint64(seed), 1<<63+uint64(c))
}

type splitMix struct{ x uint64 }

func (s *splitMix) next() uint64 {
	s.x += 0x9e3779b97f4a7c15
	z := s.x
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Uint64 returns the next 64 bits of the stream (PCG-DXSM).
func (r *Rand) Uint64() uint64 {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	hi, lo := bits.Mul64(r.lo, mulLo)
	hi += r.hi*mulLo + r.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	r.lo, r.hi = lo, hi
	const cheapMul = 0xda942042e4dd58b5
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// IntN returns a uniform integer in [0, k) by Lemire's multiply-shift with rejection.
// IntN(1) returns 0 without drawing. It panics if k < 1.
func (r *Rand) IntN(k int) int {
	if k <= 1 {
		if k == 1 {
			return 0
		}
		panic("samplers: IntN of a non-positive bound")
	}
	n := uint64(k)
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return int(hi)
}
