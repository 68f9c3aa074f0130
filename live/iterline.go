package live

import (
	"fmt"
	"time"
)

// iterationLine is the line Run prints for a finished iteration: its verdict, counts,
// faults, duration and directory; replay is the replay's tally, or "".
func iterationLine(seed uint64, replay string, ir IterationReport) string {
	return fmt.Sprintf("iteration %d (seed %d):%s %s — %d ops (%d open), %d steps, messages %d intercepted %d delivered %d dropped %d cut %d held at the end, faults %+v, %s, %s\n",
		ir.Run, seed, replay, ir.Verdict, ir.Ops, ir.Open, ir.Steps, ir.Net.Intercepted, ir.Net.Delivered, ir.Net.Dropped, ir.Net.Cut, ir.Net.Held,
		ir.Faults, ir.Duration.Round(time.Millisecond), ir.Dir)
}

// Completed is the number of operations that completed, over every iteration: the
// operations that constrain a history. With none, no history could be anything but
// linearizable, and the session checked nothing.
func (r *Report) Completed() int {
	n := 0
	for _, ir := range r.Iterations {
		n += ir.Ops - ir.Open
	}
	return n
}

// iterationWarnings says what makes an iteration's verdict weaker than it reads, with
// the likely causes in the config's terms: no operation completed (the history is
// trivially linearizable), most operations open (it constrains little), or no peer
// message intercepted with several nodes (nothing was scheduled, no fault could hit a
// message).
func iterationWarnings(cfg *Config, ir IterationReport) []string {
	var out []string
	w := cfg.Workload
	switch done := ir.Ops - ir.Open; {
	case done == 0:
		out = append(out, fmt.Sprintf("no operation completed (%d open), so nothing was checked: is workload.op_timeout (%s) too short for the service, or workload.client (%s) not the API its nodes serve?",
			ir.Open, w.OpTimeout, w.Client))
	case 2*ir.Open > ir.Ops:
		out = append(out, fmt.Sprintf("%d of %d operations open (timed out or outcome unknown), more than half: the history constrains little; is workload.op_timeout (%s) too short?",
			ir.Open, ir.Ops, w.OpTimeout))
	}
	if ir.Net.Intercepted == 0 && cfg.Nodes.Count > 1 {
		out = append(out, fmt.Sprintf("no peer message was intercepted, so nothing was scheduled: is network.protocol (%s) what the nodes speak to their peers, and does nodes.command give them the interceptors' addresses ({{.ProxyURLs}}, not {{.PeerURLs}})?",
			cfg.Network.Protocol))
	}
	return out
}
