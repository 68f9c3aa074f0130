package procmem

import (
	"syscall"
	"testing"
	"time"
)

// TestSamplerSeesAnonymousMemory: touching 64 MiB of anonymous memory raises the sampled
// anonymous peak by about that much, and not the file-backed one.
func TestSamplerSeesAnonymousMemory(t *testing.T) {
	before, ok := Read()
	if !ok {
		t.Skip("no RssAnon in /proc/self/status")
	}
	s := Start(time.Millisecond)
	const size = 64 << 20
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < size; i += 4096 {
		b[i] = 1
	}
	p, ok := s.Stop()
	if err := syscall.Munmap(b); err != nil {
		t.Fatal(err)
	}
	if !ok || p.Samples < 2 {
		t.Fatalf("Stop = %+v, %v", p, ok)
	}
	if p.Anon < before.Anon+size*9/10 {
		t.Errorf("peak anon %d, want at least %d + 90%% of %d", p.Anon, before.Anon, size)
	}
	if p.File > before.File+size/2 {
		t.Errorf("peak file-backed %d grew by more than half of the anonymous mapping (before %d)", p.File, before.File)
	}
	if p.HWM < p.Anon {
		t.Errorf("VmHWM %d below the anonymous peak %d", p.HWM, p.Anon)
	}
}
