package microbench_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems/microbench"
	"github.com/ravelmc/ravel/systems/systemstest"
)

// words lists every interleaving of the chains A, B, C of length L at N: "ABCABC…".
func words(L int) []string {
	var out []string
	var rec func(w []byte, left [3]int)
	rec = func(w []byte, left [3]int) {
		if left == [3]int{} {
			out = append(out, string(w))
			return
		}
		for c := 0; c < 3; c++ {
			if left[c] > 0 {
				left[c]--
				rec(append(w, byte('A'+c)), left)
				left[c]++
			}
		}
	}
	rec(nil, [3]int{L, L, L})
	return out
}

// at returns the position of the i-th (from 1) occurrence of chain c in w.
func at(w string, c byte, i int) int {
	for k := range w {
		if w[k] == c {
			if i--; i == 0 {
				return k
			}
		}
	}
	return -1
}

// failingPrefixes is the oracle: from the bug's definition over whole interleavings,
// the distinct schedule prefixes that end where N asserts (C_1 for bug 1, B_L for bug 2).
func failingPrefixes(L, bug int) int {
	seen := map[string]bool{}
	h := (L + 1) / 2
	for _, w := range words(L) {
		aL, b1, bL, c1, ch := at(w, 'A', L), at(w, 'B', 1), at(w, 'B', L), at(w, 'C', 1), at(w, 'C', h)
		switch {
		case bug == 1 && aL < b1 && bL < c1:
			seen[w[:c1+1]] = true
		case bug == 2 && aL < b1 && b1 < ch && ch < bL:
			seen[w[:bL+1]] = true
		}
	}
	return len(seen)
}

// TestAssertionsMatchTheDefinition: exhaustive search of microbench(L, 0, bug), where
// every delivery is at N, fails in exactly the schedules the bug's definition gives.
func TestAssertionsMatchTheDefinition(t *testing.T) {
	for _, tc := range []struct{ L, bug int }{{1, 1}, {2, 1}, {3, 1}, {2, 2}, {3, 2}, {4, 2}} {
		sys, err := microbench.New(tc.L, 0, tc.bug)
		if err != nil {
			t.Fatal(err)
		}
		res, err := explorer.Run(context.Background(), sys, explorer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := failingPrefixes(tc.L, tc.bug)
		if want == 0 || res.Stats.Panics != int64(want) || !res.Complete {
			t.Errorf("L=%d bug %d: %d failing schedules (complete %v), definition gives %d", tc.L, tc.bug, res.Stats.Panics, res.Complete, want)
		}
		if res.First == nil || res.First.Kind != "assertion" || !strings.Contains(res.First.Message, "bug") {
			t.Errorf("L=%d bug %d: first violation %+v", tc.L, tc.bug, res.First)
		}
	}
}

func TestBadParameters(t *testing.T) {
	for _, p := range [][3]int{{0, 1, 1}, {2, -1, 1}, {2, 1, 3}, {1, 1, 2}} {
		if _, err := microbench.New(p[0], p[1], p[2]); err == nil {
			t.Errorf("New(%v) accepted", p)
		}
	}
	for _, h := range []string{"bug3-L2", "bug1", "bug1-Lx", ""} {
		if _, _, err := microbench.ParseHarness(h); err == nil {
			t.Errorf("ParseHarness(%q) accepted", h)
		}
	}
}

func TestDeterministicAndIsolated(t *testing.T) {
	sys, err := microbench.New(2, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	systemstest.Deterministic(t, sys, explorer.Options{MaxSchedules: 2000})
	systemstest.SnapshotIsolation(t, sys)
	systemstest.FastPathsAgree(t, sys)
}
