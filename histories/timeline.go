package histories

import (
	"strings"

	"github.com/ravelmc/ravel/model"
)

// Timeline draws the history of events as one row per operation, in the order of the
// invocations, with the operation's span between its invocation and its response:
//
//	c0  Write(1)  ├──────┤ ok
//	c1  Read()       ├─────────┤ 0
//	c2  Read()             ├──────  (no response)
//
// Two operations overlap exactly when their spans share a column, so whether the history
// is linearizable can be read off the picture. sys must be the system whose harness the
// events are of: Timeline panics on a nil sys, or on an event for a client or operation
// its harness does not have.
func Timeline(sys *model.System, events []Event) string {
	ops := Operations(sys.Harness, events)
	spec := sys.Harness.Spec()
	// The clients' names are padded to one width, so that the operations start in one
	// column when c3 and c12 both appear.
	names := make([]string, len(ops))
	nameWidth := 0
	for i, o := range ops {
		names[i] = sys.ActorName(model.ClientID(o.Client))
		nameWidth = max(nameWidth, len([]rune(names[i])))
	}
	labels := make([]string, len(ops))
	width := 0
	for i, o := range ops {
		labels[i] = names[i] + strings.Repeat(" ", nameWidth-len([]rune(names[i]))+2) + spec.Input(o.Input)
		width = max(width, len([]rune(labels[i])))
	}
	const col = 3 // characters per event
	end := len(events) * col
	var b strings.Builder
	for i, o := range ops {
		b.WriteString("  ")
		b.WriteString(labels[i])
		b.WriteString(strings.Repeat(" ", width-len([]rune(labels[i]))+2))
		start := int(o.Call) * col
		b.WriteString(strings.Repeat(" ", start))
		b.WriteString("├")
		if o.Open {
			b.WriteString(strings.Repeat("─", end-start))
			b.WriteString("  (no response)")
		} else {
			b.WriteString(strings.Repeat("─", int(o.Return)*col-start-1))
			b.WriteString("┤ ")
			b.WriteString(spec.Output(o.Input, o.Output))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Sequence writes the history as its events in order, the way the DS2 paper prints
// them: "inv c0 Write(1); ret c0 ok; …". It panics, like Timeline, on a nil sys or an
// event its harness does not have.
func Sequence(sys *model.System, events []Event) string {
	spec := sys.Harness.Spec()
	var b strings.Builder
	for i, e := range events {
		if i > 0 {
			b.WriteString("; ")
		}
		in := sys.Harness.InputOf(e.Req)
		if e.Kind == Invoke {
			b.WriteString("inv " + sys.ActorName(e.Req.Client) + " " + spec.Input(in))
		} else {
			b.WriteString("ret " + sys.ActorName(e.Req.Client) + " " + spec.Output(in, e.Output))
		}
	}
	return b.String()
}
