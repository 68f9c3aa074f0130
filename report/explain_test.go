package report_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
)

// casCell is a one-actor compare-and-set register whose reads answer 7, or with NoOK
// the value without OK.
type casCell struct {
	Value int
	NoOK  bool
}

func (c *casCell) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.CASInput])
	if m.Input.Op == specs.CASWrite {
		c.Value = m.Input.A
		ctx.Respond(m.ID, specs.CASOutput{OK: true})
		return
	}
	if c.NoOK {
		ctx.Respond(m.ID, specs.CASOutput{Value: c.Value})
		return
	}
	ctx.Respond(m.ID, specs.CASOutput{OK: true, Value: 7})
}

// The explanation of a violation, and the page's stuck operation, show the output and
// the specification's answer told apart: described when they describe differently, with
// %+v when they describe alike, and with %+v, the panic told once, when DescribeOutput
// panics.
func TestExplanationTellsOutputsApart(t *testing.T) {
	speechless := specs.CASRegister()
	speechless.DescribeOutput = func(specs.CASInput, specs.CASOutput) string { panic("no words") }
	for _, tc := range []struct {
		name           string
		spec           specs.Spec[specs.CASState, specs.CASInput, specs.CASOutput]
		noOK           bool
		line           string // the stuck operation's line ends with it
		output, expect string // the page's stuck operation
		panics         int    // how many times the explanation tells a panic
	}{
		{"outputs described differently", specs.CASRegister(), false,
			"├──┤ 7   but the specification answers 1 here", "7", "1", 0},
		{"outputs described alike: a read without OK", specs.CASRegister(), true,
			"├──┤ {OK:false Absent:false Value:1}   but the specification answers {OK:true Absent:false Value:1} here",
			"{OK:false Absent:false Value:1}", "{OK:true Absent:false Value:1}", 0},
		{"DescribeOutput panics", speechless, false,
			"├──┤ {OK:true Absent:false Value:7}   but the specification answers {OK:true Absent:false Value:1} here",
			"{OK:true Absent:false Value:7}", "{OK:true Absent:false Value:1}", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := model.System{Name: "cas-cell", Actors: []model.Actor{&casCell{NoOK: tc.noOK}},
				Harness: model.Clients(tc.spec, model.Calls(0, specs.CASInput{Op: specs.CASWrite, A: 1}, specs.CASInput{Op: specs.CASRead}))}
			res, err := explorer.Run(context.Background(), sys, explorer.Options{})
			if err != nil || res.First == nil {
				t.Fatalf("no violation: %v", err)
			}
			p, err := report.NewPage(&sys, "cas-cell", "VIOLATION", nil, res.First.Steps, false)
			if err != nil {
				t.Fatal(err)
			}
			var stuck []string
			for _, l := range strings.Split(p.Why, "\n") {
				if strings.Contains(l, "✗") {
					stuck = append(stuck, l)
				}
			}
			if len(stuck) != 1 || !strings.HasSuffix(stuck[0], tc.line) {
				t.Errorf("stuck lines %q, want one ending %q; explanation:\n%s", stuck, tc.line, p.Why)
			}
			if got := strings.Count(p.Why, "PANIC=DescribeOutput: no words"); got != tc.panics {
				t.Errorf("the explanation tells the panic %d times, want %d:\n%s", got, tc.panics, p.Why)
			}
			for _, op := range p.Ops {
				if op.Stuck && (op.Output != tc.output || op.Expected != tc.expect) {
					t.Errorf("page: stuck operation's output %q, expected %q; want %q, %q", op.Output, op.Expected, tc.output, tc.expect)
				}
			}
		})
	}
}
