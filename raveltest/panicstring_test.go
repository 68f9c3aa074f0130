package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/internal/buggysys"
	"github.com/ravelmc/ravel/raveltest"
)

// TestPanickingStringIsShown: a message and an actor whose String methods panic do not
// crash the check: the failure reports the system's real bug, and renders the message as
// fmt renders a panicking String method.
func TestPanickingStringIsShown(t *testing.T) {
	r := &recorder{TB: t}
	raveltest.Check(r, buggysys.OffByOneSystem(), raveltest.Dir(t.TempDir()))
	if len(r.errors) != 1 {
		t.Fatalf("errors %q, want one", r.errors)
	}
	for _, want := range []string{"not linearizable", "c1  Read()", "├──┤ 2", "n0 → n1  %!v(PANIC=String method: OffByOneCopy.String)"} {
		if !strings.Contains(r.errors[0], want) {
			t.Errorf("the failure lacks %q:\n%s", want, r.errors[0])
		}
	}
}
