package samplers

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPCGMatchesStdlib: the core is math/rand/v2's PCG-DXSM, step for step, from the same
// 128-bit state (the oracle for the core; the golden values pin the seeding too).
func TestPCGMatchesStdlib(t *testing.T) {
	for _, st := range [][2]uint64{{1, 2}, {0, 0}, {0xdeadbeef, 1 << 63}} {
		ours := &Rand{hi: st[0], lo: st[1]}
		std := rand.NewPCG(st[0], st[1])
		for i := 0; i < 1000; i++ {
			if a, b := ours.Uint64(), std.Uint64(); a != b {
				t.Fatalf("state %v, draw %d: %#x, math/rand/v2 %#x", st, i, a, b)
			}
		}
	}
}

// TestGolden pins the generator: seeding, core and IntN. A change here changes every
// seeded result of every sampler; bump Version with it.
func TestGolden(t *testing.T) {
	r := RunRand(1, 0)
	var got []uint64
	for i := 0; i < 3; i++ {
		got = append(got, r.Uint64())
	}
	var ints []int64
	r = RunRand(1, 7)
	for _, k := range []int64{1, 2, 3, 10, 1000, 1 << 40} {
		if k > math.MaxInt {
			break // an int of 32 bits cannot hold the bound: the draws before it still count
		}
		ints = append(ints, int64(r.IntN(int(k))))
	}
	c := CalibrationRand(1, 0).Uint64()
	want := []uint64{goldenU[0], goldenU[1], goldenU[2]}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("RunRand(1,0) draw %d = %#x, want %#x", i, got[i], want[i])
		}
	}
	if len(ints) < 5 {
		t.Fatalf("%d draws compared, want at least 5", len(ints))
	}
	for i := range ints {
		if ints[i] != goldenI[i] {
			t.Errorf("RunRand(1,7) IntN draw %d = %d, want %d", i, ints[i], goldenI[i])
		}
	}
	if c != goldenC {
		t.Errorf("CalibrationRand(1,0) = %#x, want %#x", c, goldenC)
	}
}

// IntN(1) consumes nothing: the stream after it is the stream without it.
func TestIntNOneDrawsNothing(t *testing.T) {
	a, b := RunRand(3, 4), RunRand(3, 4)
	a.IntN(1)
	if a.Uint64() != b.Uint64() {
		t.Error("IntN(1) consumed the stream")
	}
}

// TestIntNUniform: every value of small bounds is drawn about equally often.
func TestIntNUniform(t *testing.T) {
	r := RunRand(9, 9)
	for _, k := range []int{2, 3, 5, 7} {
		counts := make([]int, k)
		const n = 70_000
		for i := 0; i < n; i++ {
			counts[r.IntN(k)]++
		}
		for v, c := range counts {
			exp := float64(n) / float64(k)
			if d := float64(c) - exp; d*d > 25*exp { // 5σ
				t.Errorf("IntN(%d) gave %d %d times of %d", k, v, c, n)
			}
		}
	}
}

var (
	goldenU = [3]uint64{0xdb12a4e1e285d8c1, 0x577049c9ae88d6fe, 0xdd8ce1263f4a8d0f}
	goldenI = []int64{0, 1, 2, 6, 336, 617736873493}
	goldenC = uint64(0x1fa4e8e8818179b)
)

// TestSplitMix64 checks the seeding function against the reference outputs of
// SplitMix64 from seed 0 (Vigna's splitmix64.c).
func TestSplitMix64(t *testing.T) {
	s := splitMix{0}
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := s.next(); got != want {
			t.Errorf("draw %d = %#x, want %#x", i, got, want)
		}
	}
}
