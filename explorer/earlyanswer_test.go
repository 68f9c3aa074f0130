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

// miscounter answers each write with the sequence number of its own count of requests
// instead of the request's: the second request it gets, c1.0, it answers as c1.1, which
// c1 has not sent (a wrong entry in a table of pending requests).
type miscounter struct{ Count int }

func (s *miscounter) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(regReq)
	ctx.Respond(model.RequestID{Client: m.ID.Client, Seq: s.Count}, specs.WriteOK())
	s.Count++
}

// eager answers client c0's first request in its start-up action, before it is sent.
type eager struct{}

func (eager) Start(ctx *model.Ctx) {
	ctx.Respond(model.RequestID{Client: model.ClientID(0)}, specs.WriteOK())
}
func (eager) Receive(ctx *model.Ctx, env model.Envelope) {}

// stutter answers every read twice, with its value and then with 5: the client takes the
// first answer, so the history is linearizable (5 is never written).
type stutter struct{ V int }

func (s *stutter) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(regReq)
	if m.Input.Write {
		s.V = m.Input.Value
		ctx.Respond(m.ID, specs.WriteOK())
		ctx.Respond(m.ID, specs.WriteOK())
		return
	}
	ctx.Respond(m.ID, specs.ReadOK(s.V))
	ctx.Respond(m.ID, specs.ReadOK(5))
}

// TestAnswerBeforeArrival: an answer to a request that has not reached any actor yet is a
// finding with its schedule, the handler's stack and a message naming the request, under
// every strategy, and it replays. Such an answer was ignored, so a wrong ID in a system's
// table of pending requests went unreported (API probe, N3). A second answer to a request
// is still ignored, as Ctx.Respond documents.
func TestAnswerBeforeArrival(t *testing.T) {
	strategies := []struct {
		name    string
		strat   dpor.Strategy
		caching bool
	}{
		{"exhaustive", dpor.Exhaustive(), false},
		{"dpor", dpor.DPOR(dpor.History()), false},
		{"optimal", dpor.Optimal(dpor.History()), false},
		{"stateful dpor", dpor.DPOR(dpor.History()), true},
	}
	miscount := model.System{Name: "miscount", Actors: []model.Actor{&miscounter{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(0, specs.Write(2)))}
	for _, st := range strategies {
		t.Run("a later request of the client: "+st.name, func(t *testing.T) {
			v := mustFind(t, miscount, explorer.Options{Strategy: st.strat, StateCaching: st.caching})
			// Whichever client goes first, the second request is answered as its
			// client's Seq 1.
			if v.Kind != "panic" || !strings.Contains(v.Message, "a request that has not reached any actor yet") ||
				!strings.Contains(v.Message, "'s latest request to arrive is c") {
				t.Errorf("finding %s %q, want a panic naming the request not yet arrived", v.Kind, v.Message)
			}
			if !strings.Contains(v.Stack, "miscounter") {
				t.Errorf("stack %q does not name the handler", v.Stack)
			}
			if len(v.Steps) != 2 || len(v.Events) != 3 || !v.Replayed {
				t.Errorf("%d steps, %d events, replayed %v; want the failure at the second step, after 3 events, replayed", len(v.Steps), len(v.Events), v.Replayed)
			}
			ids := []uint64{v.Steps[0].ID, v.Steps[1].ID}
			ex, err := explorer.Replay(miscount, ids, false)
			if err != nil || ex.Failure != v.Kind+": "+v.Message {
				t.Errorf("replay: %v, failure %q; want %q", err, ex.Failure, v.Kind+": "+v.Message)
			}
		})
	}
	t.Run("exact message", func(t *testing.T) {
		// c0's request first: c1.0 is answered as c1.1.
		sys := model.System{Name: "miscount", Actors: []model.Actor{&miscounter{}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(0, specs.Write(2)))}
		v := mustRun(t, sys, explorer.Options{}).First
		want := "model: Respond to c1.1, a request that has not reached any actor yet (c1's latest request to arrive is c1.0)"
		if v == nil || v.Message != want {
			t.Errorf("finding %+v, want the message %q", v, want)
		}
	})
	t.Run("in a start-up action", func(t *testing.T) {
		sys := model.System{Name: "eager", Actors: []model.Actor{eager{}}, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)))}
		v := mustRun(t, sys, explorer.Options{}).First
		want := "start-up of n0: model: Respond to c0.0, a request that has not reached any actor yet (no request of c0 has arrived yet)"
		if v == nil || v.Kind != "panic" || v.Message != want {
			t.Errorf("finding %+v, want a panic %q", v, want)
		}
	})
	t.Run("a second answer is ignored", func(t *testing.T) {
		sys := model.System{Name: "stutter", Actors: []model.Actor{&stutter{}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1), specs.Read()), model.Calls(0, specs.Read()))}
		for _, st := range strategies {
			res, err := explorer.Run(context.Background(), sys, explorer.Options{Strategy: st.strat, StateCaching: st.caching})
			if err != nil {
				t.Fatal(err)
			}
			if res.First != nil {
				t.Errorf("%s: finding %s %q, want none (the first answer counts)", st.name, res.First.Kind, res.First.Message)
			}
		}
	})
}
