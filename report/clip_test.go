package report

import (
	"strings"
	"testing"
)

// TestClipKeepsHeadAndTail: a long input or output is cut in its middle, so that the
// operation and its key (`Put(a, "`) and the value's end both stay.
func TestClipKeepsHeadAndTail(t *testing.T) {
	in := `Put(a, "` + strings.Repeat("x", 2<<20) + `")`
	got := clip(in, 40)
	if !strings.HasPrefix(got, `Put(a, "`) || !strings.HasSuffix(got, `x")`) || len([]rune(got)) != 40 || !strings.Contains(got, "…") {
		t.Errorf("clip = %q, want 40 runes starting with Put(a, \" and ending with x\")", got)
	}
	if got := clip("short", 40); got != "short" {
		t.Errorf("clip of a short text = %q", got)
	}
}
