package ravelcli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/samplers"
)

// listHelp is list -h.
const listHelp = `Usage: ravel list: the systems with their harnesses and default agents, the strategies
and samplers, the dependence relations, the fault budgets and the specifications
lincheck knows. It takes no arguments or flags.
`

func (c *catalog) cmdList(args []string, stdout io.Writer) (int, error) {
	if len(args) == 1 && isHelp(args[0]) {
		fmt.Fprint(stdout, c.ownCommand(listHelp))
		return exitOK, nil
	}
	if len(args) > 0 {
		return 0, usagef("list takes no arguments, got %q (see ravel list -h)", strings.Join(args, " "))
	}
	// The systems are one table; the strategies, relations, faults and specifications,
	// name and description alike, another, aligned together. (One tabwriter for all put
	// the descriptions after the systems' wide harness column, off an 80-column
	// terminal.) The blank rows are padded, so trailing spaces are trimmed on the way out.
	var buf bytes.Buffer
	w := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SYSTEM\tHARNESSES\tAGENTS\tWHAT")
	for _, e := range c.systems {
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", e.Name, strings.Join(e.Harnesses, ","), e.Agents, e.Summary)
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	w = tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\t")
	fmt.Fprintln(w, "STRATEGY\tWHAT")
	for _, s := range dpor.Strategies() {
		fmt.Fprintf(w, "%s\t%s\n", s.Name, s.Summary)
	}
	for _, name := range samplers.Names() {
		if name != "random" { // listed with the strategies above
			fmt.Fprintf(w, "%s\t%s\n", name, samplers.Summary(name))
		}
	}
	fmt.Fprintln(w, "\t")
	fmt.Fprintln(w, "DEPENDENCE\tWHAT (--dependence)")
	for _, d := range dpor.DependenceInfos() {
		fmt.Fprintf(w, "%s\t%s\n", d.Name, d.Doc)
	}
	fmt.Fprintln(w, "\t")
	fmt.Fprintln(w, "FAULT (flag)\tWHAT (a budget of check and explore, per schedule; 0, the default, injects none)")
	for _, f := range faultList {
		fmt.Fprintf(w, "%s\t%s\n", f[0], f[1])
	}
	fmt.Fprintln(w, "\t")
	fmt.Fprintln(w, "SPECIFICATION\tFORMATS (lincheck --spec, --format; the first is the default)")
	for _, sp := range c.lincheckSpecs() {
		fmt.Fprintf(w, "%s\t%s\n", sp.name, strings.Join(sp.formats, ", "))
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	for line := range strings.Lines(buf.String()) {
		if _, err := fmt.Fprintln(stdout, strings.TrimRight(line, " \n")); err != nil {
			return 0, err
		}
	}
	return exitOK, nil
}
