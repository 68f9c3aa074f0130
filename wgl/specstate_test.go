package wgl

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/wgl/internal/userspec"
)

// A specification's panic names the full path of its file, which says where the
// specification is even when the function's name does not (a closure of an inlined
// function is named after the function it was inlined into).
func TestSpecPanicNamesTheFile(t *testing.T) {
	var ops []histories.Operation[int, int]
	for i := range 3 {
		ops = append(ops, done(0, i+1, 0, int64(2*i), int64(2*i+1)))
	}
	res := Check(userspec.Stack(), ops)
	var p *SpecPanicError
	if !errors.As(res.Err, &p) {
		t.Fatalf("Err = %v, want a *SpecPanicError", res.Err)
	}
	want := filepath.Join("wgl", "internal", "userspec", "userspec.go")
	if !strings.HasSuffix(p.File, want) || !filepath.IsAbs(p.File) {
		t.Errorf("File = %q, want the full path of %s", p.File, want)
	}
	if msg := p.Error(); !strings.Contains(msg, "(at userspec.go:") || !strings.Contains(msg, ", file "+p.File+")") {
		t.Errorf("error %q, want (at userspec.go:LINE in FUNC, file %s)", msg, p.File)
	}
}
