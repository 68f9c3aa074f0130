package ravelcli

import (
	"cmp"
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
			if got := progressLine(cmp.Or(tt.prog, "ravel"), tt.s, tt.caching, tt.anon); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
