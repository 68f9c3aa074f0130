package snapshot

import (
	"reflect"
	"testing"
)

// FuzzFingerprint checks the properties on values generated from fuzzed seeds: equal
// values (maps filled in different orders) have equal fingerprints, clones are equal and
// share nothing, and a mutation changes the fingerprint. The seed corpus runs in go test.
func FuzzFingerprint(f *testing.F) {
	for _, s := range []int64{0, 1, 2, 3, 42, -7, 1 << 40} {
		f.Add(s, s+1, uint16(s))
	}
	f.Fuzz(func(t *testing.T, seed, order int64, pick uint16) {
		a, b := newGen(seed, order).cworld(), newGen(seed, order+1).cworld()
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: the generator built different values", seed)
		}
		for _, mode := range []Mode{{}, {Reflective: true}} {
			if fa, fb := mode.Fingerprint(a), mode.Fingerprint(b); fa != fb {
				t.Fatalf("seed %d, %s: equal values have fingerprints %#x and %#x", seed, modeName(mode), fa, fb)
			}
			c, err := mode.Clone(&a.W)
			if err != nil {
				t.Fatalf("seed %d, %s: Clone: %v", seed, modeName(mode), err)
			}
			if where := sharedMemory(&a.W, c); where != "" {
				t.Fatalf("seed %d, %s: clone shares memory at %s", seed, modeName(mode), where)
			}
			if fa, fc := mode.Fingerprint(&a.W), mode.Fingerprint(c); fa != fc {
				t.Fatalf("seed %d, %s: clone has fingerprint %#x, original %#x", seed, modeName(mode), fc, fa)
			}
			if msg := checkMutation(mode, seed, int64(pick)); msg != "" {
				t.Fatal(msg)
			}
		}
	})
}
