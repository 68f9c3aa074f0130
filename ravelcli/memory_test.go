package ravelcli

import (
	"bytes"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/ravelmc/ravel/internal/procmem"
)

// TestCheckPeakAnonymousMemory runs a search whose visited set is more than ten times
// its --visited-mem in a process of its own, watches the child's RssAnon from outside
// (/proc/PID/status, every few milliseconds), and checks that the peak stays within the
// budget plus 64 MiB, and that the child's own report (peak_rss_anon_bytes) agrees with
// what was seen from outside.
func TestCheckPeakAnonymousMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("RssAnon is Linux's")
	}
	const budget = 8 << 10 // gossip-4/rw has 12,001 states: 96 KB of fingerprints
	var out bytes.Buffer
	cmd := ravelCmd(t, &out, "check", "gossip", "--agents", "4", "--harness", "rw", "--state-caching", "on",
		"--visited-mem", "8KiB", "--visited-dir", t.TempDir(), "--max-schedules", "0", "--json", "--quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var seen int64
	var err error
watch:
	for {
		if u, ok := procmem.ReadPID(cmd.Process.Pid); ok {
			seen = max(seen, u.Anon)
		}
		select {
		case err = <-done:
			break watch
		case <-time.After(2 * time.Millisecond):
		}
	}
	if err != nil && cmd.ProcessState.ExitCode() != exitViolation {
		t.Fatalf("check: %v", err)
	}
	var r checkReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.States < 10*budget/8 || r.VisitedSpilled == 0 {
		t.Fatalf("%d states, %d spilled: the visited set is not ten times the budget", r.States, r.VisitedSpilled)
	}
	if r.Memory == nil || r.Memory.PeakAnonBytes <= 0 || r.Memory.PeakFileBytes <= 0 {
		t.Fatalf("the report has no memory figures: %+v", r.Memory)
	}
	t.Logf("peak RssAnon seen from outside %.1f MiB; reported %.1f MiB anonymous, %.1f MiB file-backed",
		float64(seen)/(1<<20), float64(r.Memory.PeakAnonBytes)/(1<<20), float64(r.Memory.PeakFileBytes)/(1<<20))
	if limit := int64(budget + 64<<20); seen > limit || r.Memory.PeakAnonBytes > limit {
		t.Errorf("peak anonymous memory %d (seen) / %d (reported), over the budget plus 64 MiB (%d)", seen, r.Memory.PeakAnonBytes, limit)
	}
	// Both are samples of one quantity: the child's cannot exceed the true peak, which the
	// outside watcher may miss by a little.
	if seen > 0 && r.Memory.PeakAnonBytes > seen+16<<20 {
		t.Errorf("reported peak %d far above the %d seen from outside", r.Memory.PeakAnonBytes, seen)
	}
}
