package ravelcli

import (
	"cmp"
	"strings"
	"testing"
	"time"

	"github.com/ravelmc/ravel/explorer"
)

func TestProgressLine(t *testing.T) {
	s := explorer.Stats{Schedules: 1234, Steps: 5_678_901, Unique: 7, NonlinearizableCan: 1, Panics: 1, States: 2_322_978, Total: 65 * time.Second}
	spilled := s
	spilled.Visited.Spilled = 1_000_000
	again := s
	again.ExploredAgain = 1_091_291
	tests := []struct {
		name    string
		s       explorer.Stats
		caching bool
		anon    int64
		want    string
		prog    string // the command's name; "" is ravel
	}{
		{"stateless", s, false, -1, "ravel: 1,234 schedules, 5,678,901 steps, 7 unique histories, 2 violations so far, 65s", ""},
		{"caching", s, true, -1, "ravel: 1,234 schedules, 5,678,901 steps, 2,322,978 states, 7 unique histories, 2 violations so far, 65s", ""},
		{"spilling", spilled, true, -1, "ravel: 1,234 schedules, 5,678,901 steps, 2,322,978 states, 1,000,000 spilled, 7 unique histories, 2 violations so far, 65s", ""},
		{"stateful dpor", again, true, -1, "ravel: 1,234 schedules, 5,678,901 steps, 2,322,978 states, 1,091,291 explored again, 7 unique histories, 2 violations so far, 65s", ""},
		{"memory known", s, true, 1536 << 20, "ravel: 1,234 schedules, 5,678,901 steps, 2,322,978 states, 7 unique histories, 2 violations so far, 65s, 1536.0 MiB resident", ""},
		{"memory known, stateless", s, false, 0, "ravel: 1,234 schedules, 5,678,901 steps, 7 unique histories, 2 violations so far, 65s, 0.0 MiB resident", ""},
		{"a user's own command", s, false, -1, "qrep: 1,234 schedules, 5,678,901 steps, 7 unique histories, 2 violations so far, 65s", "qrep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A line at the same time as the one before has no interval to give a rate over.
			if got := progressLine(cmp.Or(tt.prog, "ravel"), tt.s, explorer.Stats{Total: tt.s.Total}, tt.caching, tt.anon); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestProgressRate: the line says how fast the search went since the line before: states
// per second with state caching, schedules per second without.
func TestProgressRate(t *testing.T) {
	prev := explorer.Stats{Schedules: 1000, States: 2_000_000, Total: 60 * time.Second}
	s := explorer.Stats{Schedules: 1500, States: 2_300_000, Total: 65 * time.Second}
	if got, want := progressLine("ravel", s, prev, true, -1), "0 violations so far, 65s, 60,000 states/s"; !strings.HasSuffix(got, want) {
		t.Errorf("caching: got %q, want it to end with %q", got, want)
	}
	if got, want := progressLine("ravel", s, prev, false, 1<<20), "65s, 100 schedules/s, 1.0 MiB resident"; !strings.HasSuffix(got, want) {
		t.Errorf("stateless: got %q, want it to end with %q", got, want)
	}
}

// TestProgressShowsSpilled: the progress lines of a search whose visited states spill
// say how many did, from the running search's own figures (they were filled only at its
// end, so no line of a real run said it).
func TestProgressShowsSpilled(t *testing.T) {
	defer func(old time.Duration) { progressEvery = old }(progressEvery)
	progressEvery = time.Nanosecond
	code, _, stderr := runRavel("check", "gossip", "--agents", "3", "--state-caching", "on", "--max-schedules", "0",
		"--visited-mem", "4KiB", "--visited-dir", t.TempDir(), "--json")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, " spilled, ") || !strings.Contains(stderr, " states/s") {
		t.Errorf("no progress line says what spilled, and how fast:\n%s", stderr)
	}
}

// TestTextReportFalsePositives: the text report has the filter's false positives beside
// the disk reads, as docs/visited-states.md says (it was in --json only).
func TestTextReportFalsePositives(t *testing.T) {
	code, stdout, stderr := runRavel("check", "gossip", "--agents", "3", "--state-caching", "on", "--max-schedules", "0",
		"--visited-mem", "4KiB", "--visited-dir", t.TempDir(), "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	reads := strings.Index(stdout, "disk reads ")
	fp := strings.Index(stdout, "disk reads in vain (filter false positives)")
	if reads < 0 || fp < reads {
		t.Errorf("no false-positives row after the disk reads:\n%s", stdout)
	}
}
