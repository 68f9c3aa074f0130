package dpor

import (
	"math/rand/v2"
	"testing"
)

// TestFPTableMatchesMap checks the fingerprint table against a Go map on random and on
// adversarial keys (consecutive, and multiples of a large power of two, which share their
// low bits).
func TestFPTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		key  func(i int) uint64
	}{
		{"random", func(int) uint64 { return r.Uint64() }},
		{"consecutive", func(i int) uint64 { return uint64(i) }},
		{"high bits", func(i int) uint64 { return uint64(i) << 40 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tab fpTable
			want := map[uint64]int32{}
			for i := 0; i < 50_000; i++ {
				fp := tc.key(i)
				if _, ok := want[fp]; ok {
					continue
				}
				if got := tab.get(fp); got != -1 {
					t.Fatalf("get(%#x) before put = %d, want -1", fp, got)
				}
				want[fp] = int32(len(want))
				if got := tab.getOrPut(fp, want[fp]); got != want[fp] {
					t.Fatalf("getOrPut(%#x, %d) of a new fingerprint = %d", fp, want[fp], got)
				}
				if got := tab.getOrPut(fp, -5); got != want[fp] {
					t.Fatalf("getOrPut(%#x) of a stored fingerprint = %d, want %d", fp, got, want[fp])
				}
			}
			for fp, k := range want {
				if got := tab.get(fp); got != k {
					t.Fatalf("get(%#x) = %d, want %d", fp, got, k)
				}
			}
			if got := tab.get(^uint64(0) - 7); got != -1 {
				if _, ok := want[^uint64(0)-7]; !ok {
					t.Fatalf("get of an absent fingerprint = %d, want -1", got)
				}
			}
		})
	}
}
