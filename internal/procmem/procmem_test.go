package procmem

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

func TestParseStatus(t *testing.T) {
	const status = "Name:\travel\nVmHWM:\t  20480 kB\nVmRSS:\t   10240 kB\nRssAnon:\t    6144 kB\nRssFile:\t    4096 kB\nRssShmem:\t       0 kB\n"
	u, ok := parseStatus([]byte(status))
	if !ok || u != (Usage{Anon: 6144 << 10, File: 4096 << 10, HWM: 20480 << 10}) {
		t.Errorf("parseStatus = %+v, %v", u, ok)
	}
	for _, bad := range []string{"", "VmHWM:\t1 kB\n", "RssAnon:\t1 MB\nRssFile:\t1 kB\n", "RssAnon:\tx kB\nRssFile:\t1 kB\n"} {
		if u, ok := parseStatus([]byte(bad)); ok {
			t.Errorf("parseStatus(%q) = %+v, true; want not ok", bad, u)
		}
	}
}

// TestSamplerSeesAnonymousMemory: touching 64 MiB of anonymous memory raises the sampled
// anonymous peak by about that much, and not the file-backed one.
func TestSamplerSeesAnonymousMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		if s := Start(0); s != nil {
			t.Fatal("Start measured memory outside Linux")
		}
		t.Skip("Linux only")
	}
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
