package samplers

import (
	"math"
	"testing"
)

// TestCalibration: on the vectors whose racy sets docs/samplers.md, "How we know they are right" names, 16 calibration
// runs find exactly that R, and n and n̂.
func TestCalibration(t *testing.T) {
	for _, tc := range []struct {
		name     string
		s        *tsys
		racy     []string
		n, nhat  int
		declared bool
	}{
		{"fig3", build([]string{"A@1", "B@1<-A", "C@1", "D@3<-C", "E@2", "F@2<-E"}), []string{"A", "B", "C"}, 6, 3, false},
		{"002-fig1", build([]string{"y1@0", "y2@0<-y1", "y3@0<-y2", "x4@1<-y3", "chk@1"}), []string{"x4", "chk"}, 5, 2, false},
		{"fig1-declared", fig1(3, false), []string{"A", "B"}, 5, 2, true},
	} {
		cal := NewCalibrator(nil)
		for c := 0; c < 16; c++ {
			tc.s.run(cal, CalibrationRand(1, c))
		}
		res := cal.Result(tc.declared)
		if res.N != tc.n || res.NHat != tc.nhat || res.RacyCount != len(tc.racy) || res.Runs != 16 {
			t.Errorf("%s: n=%d n̂=%d |R|=%d runs=%d, want n=%d n̂=%d |R|=%d", tc.name, res.N, res.NHat, res.RacyCount, res.Runs, tc.n, tc.nhat, len(tc.racy))
		}
		for _, name := range tc.racy {
			if !res.Racy[uint64(tc.s.index(name)+1)] {
				t.Errorf("%s: %s not in R", tc.name, name)
			}
		}
	}
}

// TestWilson checks the interval against values computed by hand from the closed form.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		hits, n int64
		lo, hi  float64
	}{
		{0, 10, 0, 0.27753},
		{5, 10, 0.23659, 0.76341},
		{10, 10, 0.72247, 1},
		{200, 1000, 0.17638, 0.22592},
	} {
		lo, hi := Wilson(tc.hits, tc.n)
		if math.Abs(lo-tc.lo) > 1e-4 || math.Abs(hi-tc.hi) > 1e-4 {
			t.Errorf("Wilson(%d, %d) = [%.5f, %.5f], want [%.5f, %.5f]", tc.hits, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestFallingBound: 1/(k·n(n−1)…(n−d+2)) on the table's cases, and 0 when there are fewer
// labels than change points.
func TestFallingBound(t *testing.T) {
	for _, tc := range []struct {
		k, n, d int
		want    float64
	}{
		{3, 6, 2, 1.0 / 18}, {3, 3, 2, 1.0 / 9}, {5, 3, 2, 1.0 / 15}, {4, 7, 1, 1.0 / 4},
		{4, 6, 3, 1.0 / 120}, {2, 1, 3, 0},
	} {
		if got := FallingBound(tc.k, tc.n, tc.d); !near(got, tc.want) {
			t.Errorf("FallingBound(%d, %d, %d) = %v, want %v", tc.k, tc.n, tc.d, got, tc.want)
		}
	}
}
