package main

import (
	"fmt"
	"math"
	"strings"
)

// halfStatesAgents is the number of agents of the systems issue 13's states target is
// read on: dpor+c visits at most half of ex+c's states "on the 3-actor systems".
const halfStatesAgents = 3

// summary returns the lines printed under the table: the ranges and the exceptions that
// docs/strategies.md quotes, computed from the rows so that nobody counts them by hand.
// A run is small when its ex+c CPU, as the table shows it (two decimals), is under
// smallCPU: there the process's start-up is most of what is measured.
func summary(rows []*row) string {
	if len(rows) == 0 {
		return "No configurations.\n"
	}
	var b strings.Builder
	var states, large, small span
	var three, half int
	var notHalf, above []string
	for _, r := range rows {
		name := r.sys + "/" + r.harness
		sr := float64(r.dporc.States) / float64(max(r.exc.States, 1))
		states.add(sr, name)
		if r.exc.Agents == halfStatesAgents {
			three++
			if sr <= 0.5 {
				half++
			} else {
				notHalf = append(notHalf, fmt.Sprintf("%s %.3f", name, sr))
			}
		}
		if math.Round(r.excCPU*100)/100 >= smallCPU {
			large.add(r.ratio, name)
			continue
		}
		small.add(r.ratio, name)
		if math.Round(r.ratio*100)/100 > 1 { // as the table shows it: 1.004 is 1.00
			above = append(above, fmt.Sprintf("%s %.2f", name, r.ratio))
		}
	}
	fmt.Fprintf(&b, "- States: %.3f–%.3f of ex+c's (highest: %s)", states.lo, states.hi, states.hiName)
	if three > 0 {
		fmt.Fprintf(&b, "; at most half on %d of the %d configurations with %d agents", half, three, halfStatesAgents)
		if len(notHalf) > 0 {
			fmt.Fprintf(&b, " (not on %s)", strings.Join(notHalf, ", "))
		}
	}
	b.WriteString(".\n")
	for _, g := range []struct {
		s    *span
		what string
	}{
		{&large, fmt.Sprintf("whose ex+c run takes %.1f s of CPU or more", smallCPU)},
		{&small, fmt.Sprintf("whose ex+c run takes under %.1f s", smallCPU)},
	} {
		if g.s.n == 0 {
			fmt.Fprintf(&b, "- CPU: no runs %s.\n", g.what)
			continue
		}
		runs := "runs"
		if g.s.n == 1 {
			runs = "run"
		}
		fmt.Fprintf(&b, "- CPU: %.2f–%.2f of ex+c's on the %d %s %s (highest: %s)", g.s.lo, g.s.hi, g.s.n, runs, g.what, g.s.hiName)
		if g.s == &small {
			if len(above) == 0 {
				b.WriteString("; none above 1")
			} else {
				fmt.Fprintf(&b, "; above 1: %s", strings.Join(above, ", "))
			}
		}
		b.WriteString(".\n")
	}
	return b.String()
}

// span is the range of a column's values over some rows.
type span struct {
	lo, hi float64
	hiName string
	n      int
}

func (s *span) add(x float64, name string) {
	if s.n == 0 || x < s.lo {
		s.lo = x
	}
	if s.n == 0 || x > s.hi {
		s.hi, s.hiName = x, name
	}
	s.n++
}
