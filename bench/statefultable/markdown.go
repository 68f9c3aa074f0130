package main

import (
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/report"
)

// header is the table's head: "#S" is schedules, "again" the states dpor+c explored
// again under a smaller sleep set (not counted in its states), "CH (NL)" the canonical
// histories and, of them, the violations.
const header = "| system | harness | ex+c states | ex+c #S | ex+c CPU | dpor #S | dpor CPU | dpor+c states | again | dpor+c #S | dpor+c CPU | states ratio | CPU ratio | CH (NL) |\n" +
	"|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"

// markdown returns the row as a line of the table. Stateless dpor interrupted before it
// completed shows as "> N" schedules in "> T" of CPU, what it had run when interrupted;
// the states ratio has three decimals, since the target it is read against is a half; a
// row with a problem ends in its list.
func (r *row) markdown() string {
	dpS, dpCPU := "—", "—"
	if s := r.stateless; s != nil {
		dpS, dpCPU = report.Thousands(s.rep.Schedules), seconds(s.cpu)
		if !s.rep.Complete {
			dpS = "> " + dpS
			dpCPU = "> " + dpCPU
		}
	}
	cells := []string{
		r.sys, r.harness,
		report.Thousands(r.exc.States), report.Thousands(r.exc.Schedules), seconds(r.excCPU),
		dpS, dpCPU,
		report.Thousands(r.dporc.States), report.Thousands(r.dporc.Again), report.Thousands(r.dporc.Schedules), seconds(r.dporcCPU),
		fmt.Sprintf("%.3f", float64(r.dporc.States)/float64(max(r.exc.States, 1))),
		fmt.Sprintf("%.2f", r.ratio),
		fmt.Sprintf("%d (%d)", r.exc.Canonical, r.exc.Violations),
	}
	line := "| " + strings.Join(cells, " | ") + " |"
	if len(r.problems) > 0 {
		line += " **" + strings.Join(r.problems, "; ") + "**"
	}
	return line
}

// seconds formats CPU seconds for the table: two decimals below 10 s, one below 100,
// none above.
func seconds(s float64) string {
	switch {
	case s < 10:
		return fmt.Sprintf("%.2f s", s)
	case s < 100:
		return fmt.Sprintf("%.1f s", s)
	default:
		return fmt.Sprintf("%.0f s", s)
	}
}
