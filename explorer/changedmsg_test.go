package explorer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// syncBackup is a synchronous primary-backup register: n0 answers a write once n1 has
// the value. How n1 treats the update it receives is the test's variable.
type syncBackup struct {
	V    int
	Mode string // "pointer", "map", "slice", "timer", "copy"
}

type ptrUpdate struct {
	ID model.RequestID
	V  int
}

type mapUpdate struct {
	ID   model.RequestID
	Vals map[string]int
}

type sliceUpdate struct {
	ID   model.RequestID
	Vals []int
}

type updated struct{ ID model.RequestID }

func (s *syncBackup) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		if !m.Input.Write {
			ctx.Respond(m.ID, specs.ReadOK(s.V))
			return
		}
		s.V = m.Input.Value
		switch s.Mode {
		case "map":
			ctx.Send(1, mapUpdate{m.ID, map[string]int{"v": m.Input.Value}})
		case "slice":
			ctx.Send(1, sliceUpdate{m.ID, []int{m.Input.Value}})
		case "timer":
			ctx.SetTimer("apply", &ptrUpdate{m.ID, m.Input.Value})
		default:
			ctx.Send(1, &ptrUpdate{m.ID, m.Input.Value})
		}
	case *ptrUpdate:
		if env.Timer != "" { // n0's own timer: answer, consuming the payload
			m.V = 0
			ctx.Respond(m.ID, specs.WriteOK())
			return
		}
		s.V = m.V
		if s.Mode == "copy" {
			c := *m
			c.V = 0
			_ = c
		} else {
			m.V = 0 // consumed: changes the message every other schedule delivers
		}
		ctx.Send(0, updated{m.ID})
	case mapUpdate:
		s.V = m.Vals["v"]
		delete(m.Vals, "v")
		ctx.Send(0, updated{m.ID})
	case sliceUpdate:
		s.V = m.Vals[0]
		m.Vals[0] = 0
		ctx.Send(0, updated{m.ID})
	case updated:
		ctx.Respond(m.ID, specs.WriteOK())
	}
}

// TestHandlerMustNotChangeItsMessage: a handler that changes the message it received
// (through a pointer, a map, a slice, a timer's payload) would change it for every other
// schedule that delivers it, where the search would then find false violations (the
// probe of the thirty-second round found one on this linearizable register). Every
// search reports the change itself, naming the handler and the message's type; a
// handler that copies first is linearizable.
func TestHandlerMustNotChangeItsMessage(t *testing.T) {
	searches := []struct {
		name string
		opts explorer.Options
	}{
		{"exhaustive", explorer.Options{MaxSchedules: explorer.Unlimited}},
		{"exhaustive+caching", explorer.Options{MaxSchedules: explorer.Unlimited, StateCaching: true}},
		{"stateless", explorer.Options{MaxSchedules: explorer.Unlimited, Stateless: true}},
		{"dpor+caching", explorer.Options{Strategy: dpor.Optimal(dpor.History()), MaxSchedules: explorer.Unlimited, StateCaching: true}},
	}
	for _, mode := range []string{"pointer", "map", "slice", "timer", "copy"} {
		for _, s := range searches {
			t.Run(mode+"/"+s.name, func(t *testing.T) {
				sys := model.System{
					Name:   "sync-backup",
					Actors: []model.Actor{&syncBackup{Mode: mode}, &syncBackup{Mode: mode}},
					Harness: model.Clients(specs.Register(),
						model.Calls(0, specs.Write(1)),
						model.Calls(1, specs.Read(), specs.Read()),
					),
				}
				res, err := explorer.Run(context.Background(), sys, s.opts)
				if err != nil {
					t.Fatal(err)
				}
				if mode == "copy" {
					if res.First != nil {
						t.Fatalf("a handler that copies first: %s: %s", res.First.Kind, res.First.Message)
					}
					if !res.Complete {
						t.Errorf("the search did not complete")
					}
					return
				}
				if res.First == nil {
					t.Fatalf("no finding; want the changed message reported")
				}
				if got, want := res.First.Kind, "changed-message"; got != want {
					t.Fatalf("kind %q (%s), want %q", got, res.First.Message, want)
				}
				for _, want := range []string{"handler changed the", "Update it received", "the schedule shows it as sent"} {
					if !strings.Contains(res.First.Message, want) {
						t.Errorf("message %q does not say %q", res.First.Message, want)
					}
				}
				// The schedule shows the message as it was sent, not as the handler left
				// it (state probe, H3): n0 sent the value 1.
				last := explorer.DescribeMessage(res.First.Steps[len(res.First.Steps)-1].Msg)
				if !strings.Contains(last, "1") {
					t.Errorf("the last step shows %s; want the message as sent, with the value 1", last)
				}
			})
		}
	}
}
