// Package procmem measures the memory of the running process the way that says whether
// a run fits its budget: anonymous memory (heap, stacks, mapped anonymous arrays — what
// the process itself holds) apart from file-backed memory (mapped files such as badger's
// tables, page cache the kernel reclaims under pressure). Linux reports both in
// /proc/self/status (RssAnon, RssFile); elsewhere nothing is measured.
//
// The kernel keeps the peak of the total RSS (VmHWM) but not of its anonymous part, so a
// Sampler reads /proc/self/status on a timer and keeps the largest values it saw: a
// spike shorter than the interval can be missed.
package procmem

import (
	"sync"
	"time"
)

// Usage is a reading of the process's memory, in bytes.
type Usage struct {
	Anon int64 // RssAnon: anonymous resident memory
	File int64 // RssFile: resident pages of mapped files
	HWM  int64 // VmHWM: the kernel's peak of the total resident memory (anon + file + shmem)
}

// Peak is what a Sampler saw.
type Peak struct {
	// Anon and File are the largest RssAnon and RssFile sampled (each its own maximum).
	Anon, File int64
	// HWM is the kernel's peak of the total RSS at the last sample.
	HWM int64
	// Every is the sampling interval; Samples how many readings were taken.
	Every   time.Duration
	Samples int
}

// DefaultEvery is the sampling interval of Start when given 0: reading
// /proc/self/status takes some tens of microseconds, so this costs well under 1 % of a
// core.
const DefaultEvery = 10 * time.Millisecond

// Sampler samples the process's memory until stopped.
type Sampler struct {
	mu   sync.Mutex
	peak Peak
	stop chan struct{}
	done chan struct{}
}

// Start begins sampling every interval (0: DefaultEvery). It returns nil where memory
// cannot be read (not Linux, or no /proc); a nil Sampler's Stop reports nothing.
func Start(every time.Duration) *Sampler {
	if every <= 0 {
		every = DefaultEvery
	}
	if _, ok := Read(); !ok {
		return nil
	}
	s := &Sampler{peak: Peak{Every: every}, stop: make(chan struct{}), done: make(chan struct{})}
	s.sample()
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.sample()
			}
		}
	}()
	return s
}

func (s *Sampler) sample() {
	u, ok := Read()
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.peak.Anon = max(s.peak.Anon, u.Anon)
	s.peak.File = max(s.peak.File, u.File)
	s.peak.HWM = max(s.peak.HWM, u.HWM)
	s.peak.Samples++
}

// Stop takes a last sample, ends sampling and returns the peaks; ok is false for a nil
// Sampler (nothing measured). Calling Stop twice is not allowed.
func (s *Sampler) Stop() (p Peak, ok bool) {
	if s == nil {
		return Peak{}, false
	}
	close(s.stop)
	<-s.done
	s.sample()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak, true
}
