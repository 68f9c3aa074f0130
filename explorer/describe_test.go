package explorer

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// queueIn is an input type as a user writes one: no String method.
type queueIn struct{ Op, V int }

type describePing struct{ N int }

type describeSink struct{}

func (*describeSink) Receive(*model.Ctx, model.Envelope) {}

func TestDescribeMessageOfRendersRequestsWithTheSpec(t *testing.T) {
	spec := specs.Spec[int, queueIn, bool]{
		Name:  "queue",
		Init:  func() int { return 0 },
		Apply: func(s int, in queueIn) (int, bool) { return s + in.V, true },
		DescribeInput: func(in queueIn) string {
			return "Enq(" + strconv.Itoa(in.V) + ")"
		},
	}
	sys := &model.System{
		Name:    "describe",
		Actors:  []model.Actor{&describeSink{}, &describeSink{}},
		Harness: model.Clients(spec, model.Calls(0, queueIn{V: 1})),
	}
	id := model.RequestID{Client: model.ClientID(0), Seq: 0}
	tests := []struct {
		name string
		sys  *model.System
		msg  any
		want string
	}{
		{"a client's request", sys, model.Request[queueIn]{ID: id, Input: queueIn{V: 1}}, "Request{c0.0 Enq(1)}"},
		{"no system", nil, model.Request[queueIn]{ID: id, Input: queueIn{V: 1}}, "Request{c0.0 {0 1}}"},
		{"a request of another input type", sys, model.Request[int]{ID: id, Input: 7}, "Request{c0.0 7}"},
		{"a message", sys, describePing{N: 1}, "describePing{N:1}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DescribeMessageOf(tt.sys, tt.msg); got != tt.want {
				t.Errorf("DescribeMessageOf = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("a forwarded request in a schedule", func(t *testing.T) {
		d := Delivery{From: 1, To: 0, Msg: model.Request[queueIn]{ID: id, Input: queueIn{V: 1}}}
		if got, want := DescribeDelivery(sys, 3, d), "   3  n1 → n0  Request{c0.0 Enq(1)}"; got != want {
			t.Errorf("DescribeDelivery = %q, want %q", got, want)
		}
	})
}

type describedActor struct{ N int }

func (*describedActor) Receive(*model.Ctx, model.Envelope) {}

type namedActor struct{ describedActor }

func (a *namedActor) String() string { return "n=" + strconv.Itoa(a.N) }

func TestDescribeActor(t *testing.T) {
	for _, tt := range []struct {
		name string
		a    model.Actor
		want string
	}{
		{"fields, without the pointer's &", &describedActor{N: 1}, "{N:1}"},
		{"its String method", &namedActor{describedActor{N: 2}}, "n=2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := DescribeActor(tt.a); got != tt.want {
				t.Errorf("DescribeActor = %q, want %q", got, tt.want)
			}
		})
	}
}

// boomMsg and boomActor have String methods that panic: a bug in the user's code, which
// a report must show and survive.
type boomMsg struct{ N int }

func (boomMsg) String() string { panic("boomMsg.String") }

type boomPtrMsg struct{ N int }

func (m *boomPtrMsg) String() string { return strconv.Itoa(m.N) } // panics on a nil m

type boomActor struct{ describedActor }

func (*boomActor) String() string { panic("boomActor.String") }

// A String method that panics is rendered as fmt's %v renders it.
func TestDescribePanickingString(t *testing.T) {
	for _, tt := range []struct {
		name     string
		describe func() string
		want     string
	}{
		{"a message", func() string { return DescribeMessage(boomMsg{N: 1}) }, "%!v(PANIC=String method: boomMsg.String)"},
		{"a nil pointer message", func() string { return DescribeMessage((*boomPtrMsg)(nil)) }, "<nil>"},
		{"an actor", func() string { return DescribeActor(&boomActor{}) }, "%!v(PANIC=String method: boomActor.String)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.describe(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	// The oracle: fmt itself.
	if got, want := DescribeMessage(boomMsg{}), fmt.Sprintf("%v", boomMsg{}); got != want {
		t.Errorf("DescribeMessage = %q, fmt's %%v = %q", got, want)
	}
	if got, want := DescribeMessage((*boomPtrMsg)(nil)), fmt.Sprintf("%v", (*boomPtrMsg)(nil)); got != want {
		t.Errorf("DescribeMessage = %q, fmt's %%v = %q", got, want)
	}
}
