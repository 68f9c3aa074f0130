package depbench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ravelmc/ravel/report"
)

// columns are the table's columns, left to right.
var columns = []string{"strategy", "dependence", "#S", "steps", "TS", "#CH", "covered", "#NL", "NL missed", "#S÷EX"}

// cells renders r's row; ex is the baseline.
func (t *Table) cells(r *Row) []string {
	cut := func(n int64, complete bool) string {
		switch {
		case r.Interrupted:
			return report.Thousands(n) + "†"
		case !complete:
			return report.Thousands(n) + "*"
		}
		return report.Thousands(n)
	}
	ratio := "-"
	if t.Exhaustive.Schedules > 0 && !t.CachedBaseline {
		ratio = fmt.Sprintf("%.3f", float64(r.Schedules)/float64(t.Exhaustive.Schedules))
	}
	return []string{
		r.Strategy, r.Dependence,
		cut(r.Schedules, r.Complete), report.Thousands(r.Steps), fmt.Sprintf("%.3fs", r.Seconds),
		report.Thousands(int64(r.Canonical)),
		fmt.Sprintf("%.1f%% (%d/%d)", r.Coverage, r.Covered, t.Exhaustive.Canonical),
		report.Thousands(int64(r.Violations)), report.Thousands(int64(r.ViolationsMissed)), ratio,
	}
}

func (t *Table) title() string {
	budget := "no cutoff"
	if t.MaxSchedules > 0 {
		budget = "cutoff " + report.Count(t.MaxSchedules, "schedule")
	}
	if t.CachedBaseline {
		budget += ", exhaustive search with state caching"
	}
	return fmt.Sprintf("%s, harness %s, %s, %s", t.System, t.Harness, report.Count(int64(t.Agents), "agent"), budget)
}

// Print writes the tables as text, or as Markdown with markdown set: per table, the
// exhaustive baseline, one row per strategy and relation, each relation's commutation
// verdict when it was checked, and the first canonical history each row missed.
func Print(w io.Writer, tables []*Table, markdown bool) error {
	for _, t := range tables {
		ex := Row{Run: t.Exhaustive, Covered: t.Exhaustive.Canonical, Coverage: 100}
		rows := [][]string{t.cells(&ex)}
		for i := range t.Rows {
			rows = append(rows, t.cells(&t.Rows[i]))
		}
		if markdown {
			fmt.Fprintf(w, "\n**%s**\n\n|%s|\n|%s\n", t.title(), strings.Join(columns, "|"), "---|---|"+strings.Repeat("---:|", len(columns)-2))
			for _, r := range rows {
				fmt.Fprintf(w, "|%s|\n", strings.Join(r, "|"))
			}
		} else {
			fmt.Fprintf(w, "\n%s\n", t.title())
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "%s\t\n", strings.Join(columns, "\t"))
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t\n", strings.Join(r, "\t"))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		rowCut, interrupted := false, t.Exhaustive.Interrupted
		for i := range t.Rows {
			rowCut = rowCut || !t.Rows[i].Complete && !t.Rows[i].Interrupted
			interrupted = interrupted || t.Rows[i].Interrupted
		}
		if markdown && (!t.Exhaustive.Complete || rowCut || interrupted) {
			fmt.Fprintln(w) // the footnotes are not the table's rows
		}
		if !t.Exhaustive.Complete && !t.Exhaustive.Interrupted {
			fmt.Fprintln(w, "* stopped at a budget: coverage is of the canonical histories exhaustive search found within it")
		}
		if rowCut {
			fmt.Fprintln(w, "* on a row: it stopped at a budget (--max-schedules, --max-depth), so coverage below 100% on such a row says nothing about the relation")
		}
		if interrupted {
			fmt.Fprintln(w, "† interrupted: the figures cover the run until then; the runs after it were not started")
		}
		printCommutation(w, t, markdown)
		for i := range t.Rows {
			r := &t.Rows[i]
			if r.FirstMissed == nil {
				continue
			}
			verdict := "linearizable"
			if !r.FirstMissed.Linearizable {
				verdict = "NOT linearizable"
			}
			fmt.Fprintf(w, "\nfirst canonical history %s with %s missed (%s):\n", r.Strategy, r.Dependence, verdict)
			if markdown {
				fmt.Fprintf(w, "\n```\n%s```\n", r.FirstMissed.Timeline)
			} else {
				fmt.Fprint(w, r.FirstMissed.Timeline)
			}
		}
	}
	return nil
}

func printCommutation(w io.Writer, t *Table, markdown bool) {
	if len(t.Commutation) == 0 {
		return
	}
	fmt.Fprintln(w, "\ncommutation (explorer.CheckCommutation):")
	for _, c := range t.Commutation {
		scope := fmt.Sprintf("all %s states", report.Thousands(int64(c.States)))
		if !c.Complete {
			scope = fmt.Sprintf("the first %s states", report.Thousands(int64(c.States)))
		}
		verdict := fmt.Sprintf("commutes on %s: %s independent pairs, %s of them reorder the canonical history", scope, report.Thousands(c.Independent), report.Thousands(c.Reordered))
		if c.Dependent > 0 {
			verdict += fmt.Sprintf("; of its %s dependent pairs, %s (%.0f%%) commute at their state", report.Thousands(c.Dependent), report.Thousands(c.DependentCommuting), 100*float64(c.DependentCommuting)/float64(c.Dependent))
		}
		if !c.Sound() {
			verdict = "DOES NOT COMMUTE — " + c.Counterexample
			if markdown {
				verdict = "DOES NOT COMMUTE:\n\n```\n" + c.Counterexample + "```\n"
			}
		}
		if markdown {
			fmt.Fprintf(w, "- %s: %s\n", c.Dependence, verdict)
		} else {
			fmt.Fprintf(w, "  %s: %s", c.Dependence, strings.ReplaceAll(verdict, "\n", "\n    "))
			fmt.Fprintln(w)
		}
	}
}
