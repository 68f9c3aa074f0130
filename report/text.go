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
	out, _, err := eventSteps(sys, steps, reflective)
	return out, err
}

// eventSteps is EventSteps, with the replay of the whole schedule.
func eventSteps(sys *model.System, steps []explorer.Delivery, reflective bool) ([]int, *explorer.Execution, error) {
	ids := make([]uint64, len(steps))
	for i, d := range steps {
		ids[i] = d.ID
	}
	var out []int
	var ex *explorer.Execution
	for k := 0; k <= len(ids); k++ {
		var err error
		if ex, err = explorer.Replay(*sys, ids[:k], reflective); err != nil {
			return nil, nil, err
		}
		for len(out) < len(ex.Events) {
			out = append(out, k)
		}
	}
	return out, ex, nil
}

// maxPendingShown bounds the list of what is pending at the end of a counterexample: a
// protocol that floods leaves hundreds, and the first ones say what the list says.
const maxPendingShown = 20

// PendingText lists the messages, requests and timers pending at the end of a schedule
// of sys (explorer.Execution.Pending), never delivered in it, aligned under the
// schedule's lines: the message a counterexample never delivers is often its cause
// (paxos-buggy's Accept of slot 0, for one). "" when nothing is pending.
func PendingText(sys *model.System, pending []explorer.Delivery) string {
	if len(pending) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("pending at the end (never delivered in this schedule):\n")
	for i, d := range pending {
		if i == maxPendingShown {
			fmt.Fprintf(&b, "      … and %d more\n", len(pending)-i)
			break
		}
		b.WriteString("      " + DescribePending(sys, d) + "\n")
	}
	return b.String()
}

// DescribePending renders a pending message as a schedule's line renders its delivery,
// without a step number: "n0 → n1  Accept{ballot:1 slot:0 c1.0 Get(k1)}", or for a timer
// `n0 → n0  timer "election" Tick{}`.
func DescribePending(sys *model.System, d explorer.Delivery) string {
	return strings.TrimLeft(explorer.DescribeDelivery(sys, 0, d)[4:], " ")
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
	return TextModeNote(sys, steps, events, reflective, "")
}

// StartUp is what Text says of an empty schedule with an empty history: a violation at
// start-up, in an actor's Start, before any step.
const StartUp = "at start-up, before any step: no operation invoked, nothing delivered"

// TextModeNote is TextMode with note, a line that says something of the schedule
// ("(the schedule above; minimized from 12 steps to 10)"), right under the schedule and
// before what is left pending at its end; "" for none.
func TextModeNote(sys *model.System, steps []explorer.Delivery, events []histories.Event, reflective bool, note string) string {
	if note != "" && !strings.HasSuffix(note, "\n") {
		note += "\n"
	}
	if len(steps) == 0 && len(events) == 0 {
		// A violation at start-up: one line, not three empty sections (probe M6).
		return StartUp + "\n" + note
	}
	var b strings.Builder
	b.WriteString("history (each operation spans its invocation … its response):\n")
	b.WriteString(histories.Timeline(sys, events))
	if why := Why(sys, events); why != "" {
		b.WriteString("\nwhy it is not linearizable:\n" + why)
	}
	at, ex, err := eventSteps(sys, steps, reflective)
	if err != nil || len(at) < len(events) {
		// A non-deterministic handler: the schedule alone does not give the events back,
		// nor what it leaves pending.
		b.WriteString("\nschedule (deliveries in order):\n")
		b.WriteString(explorer.DescribeSchedule(sys, steps))
		b.WriteString(note)
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
	b.WriteString(note)
	if pending := PendingText(sys, ex.Pending); pending != "" {
		b.WriteString("\n" + pending)
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
