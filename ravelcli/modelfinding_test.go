package ravelcli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/internal/buggysys"
	"github.com/ravelmc/ravel/model"
)

// TestStateUncopyableLaterIsNotAViolation: a state a step leaves that Ravel cannot copy
// was "VIOLATION: a handler panicked", exit 1, though no handler panicked (state probe,
// H4). It is reported as what it is, with the exit status of a system refused before
// the search.
func TestStateUncopyableLaterIsNotAViolation(t *testing.T) {
	sys := System{Name: "keeps-error", Harnesses: []string{"read"}, Agents: 1, Build: func(Config) (model.System, error) {
		return buggysys.KeepsErrorSystem(), nil
	}}
	var stdout, stderr bytes.Buffer
	code := Run([]string{"check", "keeps-error"}, &stdout, &stderr, Systems(sys))
	out := stdout.String()
	if code != exitUsage || strings.Contains(out, "VIOLATION") || strings.Contains(out, "panicked") ||
		!strings.Contains(out, "NOT CHECKED: Ravel could not go on after step 2 of schedule 1: Ravel cannot copy n0's state") {
		t.Errorf("exit %d, want %d and no violation; stdout:\n%s\nstderr:\n%s", code, exitUsage, out, stderr.String())
	}
}
