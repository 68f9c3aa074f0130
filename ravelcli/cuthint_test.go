package ravelcli

import (
	"bytes"
	"strings"
	"testing"
)

// TestMostlyCutStatusAndHint: when the schedule budget stops a search whose schedules
// all ran into the depth budget, the status line says so, and the hint does not promise
// that stateful DPOR completes (docs probe: a protocol re-sending on every firing was
// told only "stopped at the schedule budget", and pointed to a search for a finite state
// space). A search whose schedules end is told as before.
func TestMostlyCutStatusAndHint(t *testing.T) {
	for _, tc := range []struct {
		name      string
		args      []string
		want, not []string
	}{
		{"counting without bound", []string{"naggers", "--harness", "counting", "--max-schedules", "20", "--max-depth", "40"},
			[]string{"stopped at the schedule budget (--max-schedules 20); all 20 schedules were cut at the depth budget (--max-depth 40)", "hint: the schedules ran into the depth budget (--max-depth 40) instead of ending"},
			[]string{"so it completes on a finite state space"}},
		{"schedules that end", []string{"naggers", "--harness", "twice", "--max-schedules", "3"},
			[]string{"stopped at the schedule budget (--max-schedules 3)\n", "so it completes on a finite state space"},
			[]string{"were cut at the depth budget", "instead of ending"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			Run(append([]string{"check", "--quiet"}, tc.args...), &stdout, &stderr, Systems(naggers))
			out := stdout.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, stderr.String())
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("output says %q:\n%s", n, out)
				}
			}
		})
	}
}

// TestMostlyCut: the share of cut schedules from which the status line speaks of them.
func TestMostlyCut(t *testing.T) {
	report := func(schedules, budget, cut int64, interrupted bool) checkReport {
		r := checkReport{Schedules: schedules, CutSchedules: cut, Interrupted: interrupted}
		r.MaxSchedules, r.MaxDepth = budget, 1000
		return r
	}
	for _, tc := range []struct {
		name string
		r    checkReport
		want string
	}{
		{"all cut", report(2000, 2000, 2000, false), "; all 2,000 schedules were cut at the depth budget (--max-depth 1000)"},
		{"9 in 10 cut", report(2000, 2000, 1800, false), "; 1,800 of 2,000 schedules were cut at the depth budget (--max-depth 1000)"},
		{"fewer cut", report(2000, 2000, 1799, false), ""},
		{"not stopped at the budget", report(20, 2000, 20, false), ""},
		{"interrupted", report(2000, 2000, 2000, true), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mostlyCutNote(tc.r); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSamplerCutHint: a sampler whose runs all ran into the depth budget (a protocol
// that never quiesces) is told what a cut costs it and what to do, once; not the DPOR
// family's hint about orders of whole schedules, which random and pct do not reduce by
// (probe T1: --strategy random printed it, pct twice).
func TestSamplerCutHint(t *testing.T) {
	const samplerHint = "hint: all 20 runs were cut at the depth budget (--max-depth 40): the protocol does not quiesce"
	for _, strategy := range [][]string{{"random"}, {"pct", "--depth", "2"}} {
		t.Run(strategy[0], func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"check", "--quiet", "naggers", "--harness", "counting", "--max-schedules", "20", "--max-depth", "40", "--strategy"}, strategy...)
			Run(args, &stdout, &stderr, Systems(naggers))
			out := stdout.String()
			if n := strings.Count(out, samplerHint); n != 1 {
				t.Errorf("%d times %q, want once:\n%s%s", n, samplerHint, out, stderr.String())
			}
			if strings.Contains(out, "DPOR family") {
				t.Errorf("the DPOR family's hint to a sampler:\n%s", out)
			}
		})
	}
}
