package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/systems/register"
)

// TestCorpusReplaysReflective: a counterexample saved by a check with the reflective
// fingerprint (explorer.Options.Reflective), whose event identities are that
// fingerprint's, is replayed in the same mode on the next run, and still fails there; it
// is not set aside as no longer applying.
func TestCorpusReplaysReflective(t *testing.T) {
	for _, reflective := range []bool{false, true} {
		name := map[bool]string{true: "reflective", false: "default"}[reflective]
		t.Run(name, func(t *testing.T) {
			sys, err := register.NewBuggy(3, "2r1w")
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			opt := raveltest.Options(explorer.Options{Reflective: reflective})
			r1 := &recorder{TB: t}
			if res := raveltest.Check(r1, sys, raveltest.Dir(dir), opt); res == nil || res.First == nil {
				t.Fatalf("first check found no violation: errors %q", r1.errors)
			}
			r2 := &recorder{TB: t}
			if res := raveltest.Check(r2, sys, raveltest.Dir(dir), opt); res != nil {
				t.Errorf("explored although the saved counterexample should have failed; logs %q", r2.logs)
			}
			if len(r2.errors) != 1 || !strings.Contains(r2.errors[0], "still fails") {
				t.Errorf("second run's failures: %q, want one saying the saved counterexample still fails", r2.errors)
			}
		})
	}
}
