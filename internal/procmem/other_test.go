//go:build !linux

package procmem

import "testing"

// TestNothingMeasuredOutsideLinux: without /proc the sampler is not started, so reports
// omit the memory lines rather than print zeros.
func TestNothingMeasuredOutsideLinux(t *testing.T) {
	if s := Start(0); s != nil {
		t.Fatal("Start measured memory outside Linux")
	}
	if _, ok := Read(); ok {
		t.Fatal("Read measured memory outside Linux")
	}
}
