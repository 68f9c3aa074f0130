package report

import (
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/wgl"
)

// EventSteps gives, for each event of the history that the schedule steps produces on sys,
// the number of the step that caused it (from 1; 0 for the invocations made when the
// system started). It replays every prefix of the schedule from the initial state, so it
// needs only the schedule, not the explorer's bookkeeping. reflective says whose event
// identities the schedule's are: the reflective fingerprint's (a run with
// explorer.Options.Reflective) or the default's.
func EventSteps(sys *model.System, steps []explorer.Delivery, reflective bool) ([]int, error) {
	ids := make([]uint64, len(steps))
	for i, d := range steps {
		ids[i] = d.ID
	}
	var out []int
	for k := 0; k <= len(ids); k++ {
		ex, err := explorer.Replay(*sys, ids[:k], reflective)
		if err != nil {
			return nil, err
		}
		for len(out) < len(ex.Events) {
			out = append(out, k)
		}
	}
	return out, nil
}

// Text is the counterexample as one view: the timeline, every invocation and response
// with the step that caused it, and the schedule with what each step invoked or answered.
// The schedule's event identities are the default fingerprint's; TextMode takes those of
// a reflective run.
func Text(sys *model.System, steps []explorer.Delivery, events []histories.Event) string {
	return TextMode(sys, steps, events, false)
}

// TextMode is Text for a schedule whose event identities are the reflective fingerprint's
// when reflective is set (a run with explorer.Options.Reflective), the default's otherwise.
func TextMode(sys *model.System, steps []explorer.Delivery, events []histories.Event, reflective bool) string {
	var b strings.Builder
	b.WriteString("history (each operation spans its invocation … its response):\n")
	b.WriteString(histories.Timeline(sys, events))
	if why := Why(sys, events); why != "" {
		b.WriteString("\nwhy it is not linearizable:\n" + why)
	}
	at, err := EventSteps(sys, steps, reflective)
	if err != nil || len(at) < len(events) {
		// A non-deterministic handler: the schedule alone does not give the events back.
		b.WriteString("\nschedule (deliveries in order):\n")
		b.WriteString(explorer.DescribeSchedule(sys, steps))
		return b.String()
	}
	b.WriteString("\nevents, each with the step that caused it (0: the start):\n")
	caused := make([][]string, len(steps)+1)
	for i, e := range events {
		d := DescribeEvent(sys, e)
		fmt.Fprintf(&b, "  @%-3d %s\n", at[i], d)
		caused[at[i]] = append(caused[at[i]], d)
	}
	b.WriteString("\nschedule (deliveries in order), with the events each caused:\n")
	if len(caused[0]) > 0 {
		fmt.Fprintf(&b, "  start  → %s\n", strings.Join(caused[0], "; "))
	}
	for i, d := range steps {
		b.WriteString(explorer.DescribeDelivery(sys, i+1, d))
		if len(caused[i+1]) > 0 {
			b.WriteString("  → " + strings.Join(caused[i+1], "; "))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// DescribeEvent renders an invocation or response of sys's history as check's
// schedule shows what a step caused: "c0 invokes Write(1)", "c0 Write(1) returns ok".
func DescribeEvent(sys *model.System, e histories.Event) string {
	spec := sys.Harness.Spec()
	in := sys.Harness.InputOf(e.Req)
	if e.Kind == histories.Invoke {
		return sys.ActorName(e.Req.Client) + " invokes " + spec.Input(in)
	}
	return sys.ActorName(e.Req.Client) + " " + spec.Input(in) + " returns " + spec.Output(in, e.Output)
}

// Why explains why the history events of sys is not linearizable — the longest
// linearizable prefix found, then the operation that cannot follow it — or returns ""
// when it is linearizable.
func Why(sys *model.System, events []histories.Event) string {
	spec := sys.Harness.Spec().Spec
	ops := histories.Operations(sys.Harness, events)
	res := wgl.Check(spec, ops)
	if res.Verdict != wgl.NotLinearizable {
		return ""
	}
	return ExplainViolation(spec, ops, res, 10)
}
