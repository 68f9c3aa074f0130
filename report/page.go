package report

import (
	"fmt"
	"strconv"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/wgl"
)

// Page is everything the HTML report draws: the history as operations, the schedule as
// deliveries, each tied to the other, and the actors' states after every step.
type Page struct {
	Title   string `json:"title"`   // the page's heading and <title>
	Verdict string `json:"verdict"` // the verdict line under the title, as given
	// Stats are the run's statistics, drawn as a table of label and value.
	Stats [][2]string `json:"stats"`
	// Lifelines are the clients, then the actors, by name.
	Lifelines []string `json:"lifelines"`
	// Clients is how many of Lifelines are clients (the first ones).
	Clients int `json:"clients"`
	// Ops are the history's operations (a schedule's in the order of their calls, a
	// recorded history's in its order); PageStep.Ops refers to them by index.
	Ops []PageOp `json:"ops"`
	// Steps are the schedule's steps, in order (none for a recorded history).
	Steps []PageStep `json:"steps"`
	// Initial are the actors' states before the first step (explorer.DescribeActor).
	Initial []string `json:"initial"`
	// Events is the number of events of the history.
	Events int `json:"events"`
	// Pending are the messages, requests and timers pending at the end of the schedule,
	// never delivered in it (DescribePending), in the order they were sent.
	Pending []string `json:"pending,omitempty"`
	// Why explains a violation of linearizability (ExplainViolation); "" if none.
	Why string `json:"why"`
	// Recorded marks the page of a recorded history (NewHistoryPage): no schedule, and
	// the operations placed by the order of the history's call and return times.
	Recorded bool `json:"recorded"`
	// Text is what the page draws, as text (TextMode, or a recorded history's
	// operations), for a reader without JavaScript; "" when there is nothing to draw.
	Text string `json:"-"`
}

// PageOp is one operation of the history.
type PageOp struct {
	Client int    `json:"client"` // the client's index, its lifeline
	Label  string `json:"label"`  // the input, as the specification writes it: "Write(1)"
	Output string `json:"output"` // the output, as the specification writes it; "" when open
	// Call and Return place the operation on the page's time axis: the indices of its
	// call and return events in the history for a schedule's page (NewPage), their
	// ranks among the history's call and return times for a recorded history's
	// (NewHistoryPage). Return is -1 for an open operation.
	Call, Return int `json:"-"`
	// CallAt and ReturnAt hold the same values as Call and Return: they are the fields
	// the page's script reads (JSON "call" and "ret").
	CallAt   int `json:"call"`
	ReturnAt int `json:"ret"`
	// CallStep and ReturnStep are the steps that invoked and answered it (0: the start,
	// -1: never answered).
	CallStep   int `json:"callStep"`
	ReturnStep int `json:"retStep"`
	// Lin is the operation's place in the longest linearizable prefix (from 1; 0 when it
	// is not in it); Stuck marks the operation that cannot follow that prefix, and
	// Expected is what the specification would have answered it.
	Lin      int    `json:"lin"`
	Stuck    bool   `json:"stuck"`
	Expected string `json:"expected,omitempty"`
}

// PageStep is one step of the schedule: a delivery, a timer or a fault.
type PageStep struct {
	N     int    `json:"n"`     // the step's number, from 1
	From  int    `json:"from"`  // lifeline index of the sender
	To    int    `json:"to"`    // lifeline index of the receiver
	Kind  string `json:"kind"`  // the step's kind (dpor.EventKind's String)
	Msg   string `json:"msg"`   // the message, timer or fault, described as the text schedule does
	Fault bool   `json:"fault"` // the step is a fault (a drop, a crash, …), not a delivery
	// Ops are the operations this step invoked or answered.
	Ops []int `json:"ops"`
	// States are the actors' states after the step (explorer.DescribeActor).
	States []string `json:"states"`
}

// NewPage builds the page of a schedule of sys by stepping it in an explorer.Session, so
// that the states shown are the ones the explorer's snapshots hold. reflective says the
// schedule's event identities are the reflective fingerprint's (a run with
// explorer.Options.Reflective).
func NewPage(sys *model.System, title, verdict string, stats [][2]string, steps []explorer.Delivery, reflective bool) (Page, error) {
	s, err := explorer.NewSessionMode(*sys, reflective)
	if err != nil {
		return Page{}, err
	}
	nc := sys.Harness.NumClients()
	p := Page{Title: title, Verdict: verdict, Stats: stats, Clients: nc}
	for c := range nc {
		p.Lifelines = append(p.Lifelines, sys.ActorName(model.ClientID(c)))
	}
	for i := range sys.Actors {
		p.Lifelines = append(p.Lifelines, sys.ActorName(model.ID(i)))
	}
	lifeline := func(id model.ID) int {
		if c, ok := id.Client(); ok {
			return c
		}
		return nc + int(id)
	}
	p.Initial = states(s.Actors())
	eventStep := make([]int, len(s.Events()))
	for i, d := range steps {
		if err := s.Deliver(d.ID); err != nil {
			return Page{}, fmt.Errorf("step %d: %w", i+1, err)
		}
		for len(eventStep) < len(s.Events()) {
			eventStep = append(eventStep, i+1)
		}
		st := PageStep{N: i + 1, From: lifeline(d.From), To: lifeline(d.To), Kind: d.Kind.String(),
			Msg: explorer.DescribeMessageOf(sys, d.Msg), Fault: d.Kind.IsFault(), States: states(s.Actors())}
		switch {
		case st.Fault:
			st.Msg = explorer.DescribeFault(sys, d)
		case d.Timer != "":
			// Which timer fired, as the text's schedule says: its arrow goes from the
			// actor to itself, so the label names the timer (probe Y15).
			st.Msg = "timer " + strconv.Quote(d.Timer) + " " + st.Msg
		}
		p.Steps = append(p.Steps, st)
	}
	if len(steps) > 0 {
		for _, d := range s.Pending() {
			p.Pending = append(p.Pending, DescribePending(sys, d))
		}
	}
	events := s.Events()
	p.Events = len(events)
	if len(steps) > 0 || len(events) > 0 {
		p.Text = TextMode(sys, steps, events, reflective)
	}
	spec := sys.Harness.Spec()
	hops := histories.Operations(sys.Harness, events)
	lin := map[int]int{}
	stuck, expected := -1, any(nil)
	if res := wgl.Check(spec.Spec, hops); res.Verdict == wgl.NotLinearizable {
		e := Explain(spec.Spec, hops, res)
		for i, k := range e.Prefix {
			lin[k] = i + 1
		}
		stuck, expected = e.Stuck, e.Expected
		p.Why = ExplainViolation(spec.Spec, hops, res, 10)
	}
	for k, o := range hops {
		op := PageOp{Client: o.Client, Label: spec.Input(o.Input), Call: int(o.Call), CallAt: int(o.Call), Return: -1, ReturnAt: -1, CallStep: eventStep[o.Call], ReturnStep: -1}
		if !o.Open {
			op.Output, op.Return, op.ReturnAt, op.ReturnStep = spec.Output(o.Input, o.Output), int(o.Return), int(o.Return), eventStep[o.Return]
		}
		op.Lin, op.Stuck = lin[k], k == stuck
		switch {
		case op.Stuck && o.Open:
			op.Expected, _ = describeOutput(spec.Spec, o.Input, expected)
		case op.Stuck:
			// Rendered as the explanation renders them: told apart when they look alike.
			op.Output, op.Expected, _ = describeOutputs(spec.Spec, o.Input, o.Output, expected)
		}
		p.Ops = append(p.Ops, op)
		for _, st := range []int{op.CallStep, op.ReturnStep} {
			if st > 0 && !containsInt(p.Steps[st-1].Ops, k) {
				p.Steps[st-1].Ops = append(p.Steps[st-1].Ops, k)
			}
		}
	}
	return p, nil
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func states(actors []model.Actor) []string {
	out := make([]string, len(actors))
	for i, a := range actors {
		out[i] = explorer.DescribeActor(a)
	}
	return out
}
