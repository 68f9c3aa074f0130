package raveltest_test

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ravelmc/ravel/raveltest"
)

// siteRecorder records where each log or error line would be reported, the way package
// testing picks it: the first caller that did not call Helper.
type siteRecorder struct {
	recorder
	helpers map[string]bool
	sites   []string
}

func (r *siteRecorder) Helper() {
	pc, _, _, _ := runtime.Caller(1)
	r.helpers[runtime.FuncForPC(pc).Name()] = true
}

func (r *siteRecorder) site() {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if !r.helpers[f.Function] {
			r.sites = append(r.sites, filepath.Base(f.File))
			return
		}
		if !more {
			return
		}
	}
}

func (r *siteRecorder) Logf(format string, args ...any) {
	r.site()
	r.recorder.Logf(format, args...)
}
func (r *siteRecorder) Errorf(format string, args ...any) {
	r.site()
	r.recorder.Errorf(format, args...)
}
func (r *siteRecorder) Fatalf(format string, args ...any) {
	r.site()
	r.recorder.Fatalf(format, args...)
}

// TestLinesPointAtTheTest: every line Check logs or reports — the reflective copies, a
// violation, a saved counterexample still failing, and any other — is
// reported at the test's line, not at raveltest.go's (probe S15: the reflective-copy
// line pointed at raveltest.go:314).
func TestLinesPointAtTheTest(t *testing.T) {
	dir := t.TempDir()
	for _, sys := range []struct {
		name  string
		buggy bool
	}{{"violation", true}, {"replayed, still fails", true}, {"fixed", false}} {
		t.Run(sys.name, func(t *testing.T) {
			r := &siteRecorder{recorder: recorder{TB: t}, helpers: map[string]bool{}}
			raveltest.Check(r, cellSystem(sys.buggy), raveltest.Dir(dir))
			if len(r.sites) == 0 {
				t.Fatal("nothing logged or reported")
			}
			for i, s := range r.sites {
				if s != "helper_test.go" {
					t.Errorf("line %d reported at %s, want helper_test.go: %q", i, s, append(r.logs, r.errors...))
				}
			}
		})
	}
}
