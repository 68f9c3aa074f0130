package main

import (
	"strings"
	"testing"
)

// summaryRow is a row of configuration name (SYSTEM/HARNESS) with the figures the
// summary reads.
func summaryRow(name string, agents int, exStates, dpStates int64, exCPU, ratio float64) *row {
	sys, harness, _ := strings.Cut(name, "/")
	return &row{
		config: config{sys, harness},
		exc:    checkReport{States: exStates, Agents: agents},
		dporc:  checkReport{States: dpStates},
		excCPU: exCPU,
		ratio:  ratio,
	}
}

func TestSummary(t *testing.T) {
	rows := []*row{
		summaryRow("register/2r2w", 2, 1000, 379, 0.15, 0.57),
		summaryRow("abd/1w2r", 3, 1000, 134, 6.4, 0.13),
		summaryRow("leader/1w1r", 3, 1000, 213, 0.096, 0.31), // shown as 0.10 s: not small
		summaryRow("register-buggy/2r1w", 3, 232, 166, 0.01, 1.03),
		summaryRow("chord-fixed/2r1w", 2, 705, 514, 0.01, 1.09),
		summaryRow("gossip/rw", 3, 1000, 500, 0.01, 1.004),  // shown as 1.00: not above 1
		summaryRow("paxos/2r1w", 2, 1000, 480, 0.094, 0.92), // shown as 0.09 s: small
	}
	got := summary(rows)
	for _, want := range []string{
		"- States: 0.134–0.729 of ex+c's (highest: chord-fixed/2r1w); at most half on 3 of the 4 configurations with 3 agents (not on register-buggy/2r1w 0.716).\n",
		"- CPU: 0.13–0.57 of ex+c's on the 3 runs whose ex+c run takes 0.1 s of CPU or more (highest: register/2r2w).\n",
		"- CPU: 0.92–1.09 of ex+c's on the 4 runs whose ex+c run takes under 0.1 s (highest: chord-fixed/2r1w); above 1: register-buggy/2r1w 1.03, chord-fixed/2r1w 1.09.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary\n%s\ndoes not hold\n%s", got, want)
		}
	}
	t.Run("none above 1", func(t *testing.T) {
		got := summary(rows[:2])
		for _, want := range []string{
			"- CPU: 0.13–0.57 of ex+c's on the 2 runs whose",
			"- CPU: no runs whose ex+c run takes under 0.1 s.\n",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("summary\n%s\ndoes not hold\n%s", got, want)
			}
		}
		got = summary(append(rows[:2:2], rows[6]))
		if want := "on the 1 run whose ex+c run takes under 0.1 s (highest: paxos/2r1w); none above 1.\n"; !strings.Contains(got, want) {
			t.Errorf("summary\n%s\ndoes not hold\n%s", got, want)
		}
	})
}

// TestSummaryUnderTheTable: the command prints the summary after the rows.
func TestSummaryUnderTheTable(t *testing.T) {
	_, out, _ := runFake(t, "agree", "-n", "1", "-configs", "abd/1w1r")
	i, j := strings.Index(out, "| abd | 1w1r |"), strings.Index(out, "\n- States: 0.400–0.400 of ex+c's (highest: abd/1w1r)")
	if i < 0 || j < i {
		t.Errorf("output %q: want the row, then the summary", out)
	}
}
