package ravelcli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"strconv"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/systems"
)

// listHelp is list -h.
const listHelp = `Usage: ravel list [SYSTEM]

Without an argument: the systems with their harnesses, default agents and whether their
actors restart after a crash, the strategies and samplers, the dependence relations, the
fault budgets and the specifications lincheck knows. With a system's name: that system,
the numbers of agents it accepts, which of its actors restart after a crash, and each
harness's clients and operations. It takes no flags.
`

func (c *catalog) cmdList(args []string, stdout io.Writer) (int, error) {
	if len(args) == 1 && isHelp(args[0]) {
		fmt.Fprint(stdout, c.ownCommand(listHelp))
		return exitOK, nil
	}
	if len(args) == 1 && !strings.HasPrefix(args[0], "-") {
		e, err := c.lookup(args[0])
		if err != nil {
			return 0, usagef("list: %v", err)
		}
		return exitOK, listSystem(e, stdout)
	}
	if len(args) > 0 {
		return 0, usagef("list takes at most one argument, a system's name, got %q (see ravel list -h)", strings.Join(args, " "))
	}
	// The systems are one table; the strategies, relations, faults and specifications,
	// name and description alike, another, aligned together. (One tabwriter for all put
	// the descriptions after the systems' wide harness column, off an 80-column
	// terminal.) The blank rows are padded, so trailing spaces are trimmed on the way out.
	var buf bytes.Buffer
	w := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SYSTEM\tHARNESSES\tAGENTS\tRESTARTS\tWHAT")
	for _, e := range c.systems {
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\n", e.Name, strings.Join(e.Harnesses, ","), e.Agents, restartsColumn(e), e.Summary)
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	fmt.Fprintln(&buf, "(RESTARTS: whether a crashed actor comes back; where none does, a crash is crash-stop)")
	fmt.Fprintln(&buf, "(ravel list SYSTEM: the agents it accepts, and what each harness runs)")
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

// harnessNaming explains the harness names once, for the detail view.
const harnessNaming = `A harness's name counts its operations: 2r1w is two reads and a write, 1w2r one write
and two reads (register, adr, paxos and chord name the reads first, after the DS2
paper; abd and leader the writes). The clients run concurrently, each its operations in
order, sent to the agent shown (a timeout retries at the next one).`

// listSystem is ravel list SYSTEM: e's summary, the numbers of agents its Build accepts,
// which of its actors restart after a crash, and each harness's clients, all read from e itself (its Build is run for each number
// of agents up to the actors a system may have, and for each harness with the default
// agents), so that nothing here can disagree with what check runs.
func listSystem(e System, stdout io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", e.Name, e.Summary)
	if e.AgentsAre != "" {
		fmt.Fprintf(&b, "%s (--agents): %d by default; accepted: %s\n", e.AgentsAre, e.Agents, agentRanges(e))
	} else {
		fmt.Fprintf(&b, "agents: %d by default; accepted: %s\n", e.Agents, agentRanges(e))
	}
	if sys, err := e.New(systems.Config{Harness: e.Harnesses[0], Agents: e.Agents, Retries: -1}); err == nil {
		fmt.Fprintln(&b, restartsLine(&sys))
	}
	if e.AgentsAre != "" {
		fmt.Fprintf(&b, "harnesses (the first is the default), with %s %d:\n", e.AgentsAre, e.Agents)
	} else {
		fmt.Fprintf(&b, "harnesses (the first is the default), with %s:\n", plural(e.Agents, "agent"))
	}
	for _, h := range e.Harnesses {
		sys, err := e.New(systems.Config{Harness: h, Agents: e.Agents, Retries: -1})
		if err != nil {
			fmt.Fprintf(&b, "  %s\tcannot be built with the default agents: %v\n", h, err)
			continue
		}
		hs := sys.Harness
		var clients []string
		for c := 0; c < hs.NumClients(); c++ {
			ops := make([]string, hs.Ops(c))
			for k := range ops {
				ops[k] = fmt.Sprint(hs.Input(c, k))
			}
			clients = append(clients, fmt.Sprintf("c%d %s at %v", c, strings.Join(ops, " then "), hs.Target(c)))
		}
		fmt.Fprintf(&b, "  %s\t%s\n", h, strings.Join(clients, "; "))
	}
	var buf bytes.Buffer
	w := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	fmt.Fprint(w, b.String())
	if err := w.Flush(); err != nil {
		return err
	}
	buf.WriteString(harnessNaming + "\n")
	_, err := stdout.Write(buf.Bytes())
	return err
}

// agentRanges is the numbers of agents, 1 (0 with ZeroAgents) to explorer.MaxActors,
// that e builds with, as ranges ("3", "1–48", "1–20, 22–30").
func agentRanges(e System) string {
	var parts []string
	start := -1
	flush := func(end int) {
		switch {
		case start < 0:
		case start == end:
			parts = append(parts, strconv.Itoa(start))
		default:
			parts = append(parts, fmt.Sprintf("%d–%d", start, end))
		}
		start = -1
	}
	from := 1
	if e.ZeroAgents {
		from = 0
	}
	for n := from; n <= explorer.MaxActors; n++ {
		if _, err := e.New(systems.Config{Agents: configAgents(e, n), Retries: -1}); err != nil {
			flush(n - 1)
		} else if start < 0 {
			start = n
		}
	}
	flush(explorer.MaxActors)
	if len(parts) == 0 {
		return fmt.Sprintf("none from %d to %d", from, explorer.MaxActors)
	}
	return strings.Join(parts, ", ")
}
