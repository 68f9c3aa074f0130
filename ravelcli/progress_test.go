package ravelcli

import (
	"testing"
	"time"

	"github.com/ravelmc/ravel/explorer"
)

func TestProgressLine(t *testing.T) {
	s := explorer.Stats{Schedules: 1234, Steps: 5_678_901, Unique: 7, NonlinearizableCan: 1, Panics: 1, States: 2_322_978, Total: 65 * time.Second}
	spilled := s
	spilled.Visited.Spilled = 1_000_000
	tests := []struct {
		name    string
		s       explorer.Stats
		caching bool
		want    string
	}{
		{"stateless", s, false, "ravel: 1,234 schedules, 5,678,901 steps, 7 unique histories, 2 violations so far, 65s"},
		{"caching", s, true, "ravel: 1,234 schedules, 5,678,901 steps, 2,322,978 states, 7 unique histories, 2 violations so far, 65s"},
		{"spilling", spilled, true, "ravel: 1,234 schedules, 5,678,901 steps, 2,322,978 states, 1,000,000 spilled, 7 unique histories, 2 violations so far, 65s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := progressLine(tt.s, tt.caching); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
