package live

import (
	"fmt"
	"strings"
	"time"

	"github.com/ravelmc/ravel/report"
)

// iterationLine is the line Run prints for a finished iteration: its verdict, counts,
// faults, duration and directory; replay is the replay's tally, or "". Counts are
// written with thousands separators and faults in words, as check's report has them.
// An iteration the iteration_timeout cut says so: its history is a prefix of the
// workload. Operations left out of the history (a read that failed, an operation the
// service refused: no effect) are counted after the open ones, and the cut counts
// them among those issued.
func iterationLine(cfg *Config, seed uint64, replay string, ir IterationReport) string {
	n := func(v int) string { return report.Thousands(int64(v)) }
	cut := ""
	if ir.TimedOut {
		cut = fmt.Sprintf(", cut by workload.iteration_timeout (%s) after %s of %s operations", cfg.Workload.Iteration, n(ir.Ops+ir.LeftOut), n(ir.Planned))
	}
	leftOut := ""
	if ir.LeftOut > 0 {
		leftOut = fmt.Sprintf("; %s failed, left out", n(ir.LeftOut))
	}
	verdict := ir.Verdict.String()
	if len(ir.AlsoFailing) > 0 {
		verdict += fmt.Sprintf(" (key %s, and %s)", ir.Result.Partition, strings.Join(ir.AlsoFailing, ", "))
	}
	if len(ir.Exits) > 0 {
		verdict += ", but " + strings.Join(ir.Exits, ", ") + " exited on its own"
	}
	return fmt.Sprintf("iteration %d (seed %d):%s %s — %s ops (%s open%s)%s, %s steps; messages %s intercepted, %s delivered, %s dropped, %s cut, %s refused, %s held at the end; %s; %s, %s\n",
		ir.Run, seed, replay, verdict, n(ir.Ops), n(ir.Open), leftOut, cut, n(ir.Steps),
		n(ir.Net.Intercepted), n(ir.Net.Delivered), n(ir.Net.Dropped), n(ir.Net.Cut), n(ir.Net.Refused), n(ir.Net.Held),
		ir.Faults.Describe(), ir.Duration.Round(time.Millisecond), ir.Dir)
}

// Describe says which faults were injected, "faults: drop 2, crash 1, restart 1", or
// "no faults".
func (f FaultCounts) Describe() string {
	var parts []string
	for _, c := range []struct {
		name string
		n    int
	}{{"drop", f.Drop}, {"crash", f.Crash}, {"restart", f.Restart}, {"partition", f.Partition}, {"heal", f.Heal}} {
		if c.n > 0 {
			parts = append(parts, c.name+" "+report.Thousands(int64(c.n)))
		}
	}
	if len(parts) == 0 {
		return "no faults"
	}
	return "faults: " + strings.Join(parts, ", ")
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
// message), or so few that most peer traffic went by unscheduled; and faults
// configured of which none was injected. With most operations open after crashes or
// partitions, the fault rate is named as a cause beside op_timeout.
func iterationWarnings(cfg *Config, ir IterationReport) []string {
	var out []string
	w := cfg.Workload
	switch done := ir.Ops - ir.Open; {
	case done == 0 && ir.TimedOut:
		out = append(out, fmt.Sprintf("no operation completed (%d open) before workload.iteration_timeout (%s) cut the workload, so nothing was checked: is it too short for the cluster?",
			ir.Open, w.Iteration))
	case done == 0:
		out = append(out, fmt.Sprintf("no operation completed (%d open), so nothing was checked: is workload.op_timeout (%s) too short for the service, or workload.client (%s) not the API its nodes serve?",
			ir.Open, w.OpTimeout, w.Client))
	case 2*ir.Open > ir.Ops:
		cause := fmt.Sprintf("is workload.op_timeout (%s) too short?", w.OpTimeout)
		if f := ir.Faults; f.Crash+f.Partition > 0 || f.Drop > 0 && cfg.Faults.Probability >= 0.1 {
			cause = fmt.Sprintf("is workload.op_timeout (%s) too short, or are the faults too frequent (faults.probability %v; this iteration's %s): crashes and partitions may have left no majority up",
				w.OpTimeout, cfg.Faults.Probability, strings.TrimPrefix(f.Describe(), "faults: "))
		}
		out = append(out, fmt.Sprintf("%d of %d operations open (timed out or outcome unknown), more than half: the history constrains little; %s",
			ir.Open, ir.Ops, cause))
	}
	for _, e := range ir.Exits {
		out = append(out, fmt.Sprintf("node %s exited on its own during the iteration — not a crash Ravel injected: a failure of the system under test (see its log, and events.txt)", e))
	}
	if ir.Net.Intercepted == 0 && cfg.Nodes.Count > 1 {
		out = append(out, fmt.Sprintf("no peer message was intercepted, so nothing was scheduled: is network.protocol (%s) what the nodes speak to their peers, and does nodes.command give them the interceptors' addresses ({{.ProxyURLs}}, not {{.PeerURLs}})?",
			cfg.Network.Protocol))
	} else if done := ir.Ops - ir.Open; cfg.Nodes.Count > 1 && 2*ir.Net.Intercepted < done {
		out = append(out, fmt.Sprintf("only %d peer messages intercepted for %d completed operations, while a replicated service exchanges several per write: the rest went by unscheduled; is network.protocol (%s) what the nodes speak to their peers (etcd's long-lived raft streams need protocol etcd)?",
			ir.Net.Intercepted, done, cfg.Network.Protocol))
	}
	if p := cfg.Faults.Probability; noFaultInjected(cfg, ir.Faults) && float64(ir.Steps)*p < 1 {
		// Not by chance: too few decisions for a fault to be likely.
		out = append(out, fmt.Sprintf("no fault was injected: a fault is drawn only at a scheduling decision, with faults.probability %v, and there were only %d steps (%.1f faults expected); are most peer messages intercepted (network.protocol %s)?",
			p, ir.Steps, float64(ir.Steps)*p, cfg.Network.Protocol))
	}
	return out
}

// noFaultInjected says whether faults were configured (and drawn: not in a replay) and
// none was injected.
func noFaultInjected(cfg *Config, f FaultCounts) bool {
	return cfg.Faults.Probability > 0 && cfg.Replay == nil && f == FaultCounts{}
}

// NoFaultWarning is the session's warning when faults were configured and no iteration
// of done injected one, or "".
func NoFaultWarning(cfg *Config, done []IterationReport) string {
	if len(done) == 0 {
		return ""
	}
	for _, ir := range done {
		if !noFaultInjected(cfg, ir.Faults) {
			return ""
		}
	}
	return fmt.Sprintf("warning: faults.probability is %v with budgets set, but no fault was injected in any iteration: too few scheduling decisions (see the steps on each iteration line); is network.protocol (%s) right for the nodes' peer traffic?",
		cfg.Faults.Probability, cfg.Network.Protocol)
}
