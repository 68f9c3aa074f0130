package explorer_test

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Resend is what the resender's timer sends each time it fires.
type Resend struct{}

// Beat is the resender's timer.
type Beat struct{}

// resender re-arms its timer on every firing and sends its peer a copy each time,
// whether or not the last one arrived: the state space is infinite. Its peer answers
// the client's write and ignores the copies.
type resender struct{ Fired int }

func (r *resender) Start(ctx *model.Ctx) {
	if ctx.Self() == 0 {
		ctx.SetTimer("beat", Beat{})
	}
}

func (r *resender) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case Beat:
		r.Fired++
		ctx.Send(1, Resend{})
		ctx.SetTimer("beat", Beat{})
	case model.Request[specs.RegisterInput]:
		ctx.Respond(m.ID, specs.WriteOK())
	}
}

func (r *resender) Clone() model.Actor { c := *r; return &c }

// TestCrowdAtCut: where the depth budget cuts a schedule, Stats.Crowd is the largest
// group of like messages pending, over every cut schedule. The oracle counts, from each
// cut schedule's steps, the copies sent (timer firings) less those delivered.
func TestCrowdAtCut(t *testing.T) {
	sys := model.System{Name: "resender", Actors: []model.Actor{&resender{}, &resender{}},
		Harness: model.Clients(specs.Register(), model.Calls(1, specs.Write(1)))}
	for _, c := range []struct {
		name    string
		strat   dpor.Strategy
		caching bool
	}{
		{"exhaustive", dpor.Exhaustive(), false},
		{"exhaustive with caching", dpor.Exhaustive(), true},
		{"stateful dpor", dpor.Optimal(dpor.History()), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, cuts := 0, int64(0)
			opts := explorer.Options{Strategy: c.strat, StateCaching: c.caching, MaxDepth: 25, MaxSchedules: 2000,
				OnSchedule: func(end *explorer.ScheduleEnd) {
					if !end.Cut {
						return
					}
					cuts++
					copies := 0
					for _, s := range end.Steps {
						switch s.Msg.(type) {
						case Beat:
							copies++
						case Resend:
							copies--
						}
					}
					want = max(want, copies)
				}}
			res, err := explorer.Run(context.Background(), sys, opts)
			if err != nil {
				t.Fatal(err)
			}
			if cuts == 0 || res.Stats.Cut != cuts {
				t.Fatalf("%d schedules cut, OnSchedule saw %d: want some, the same", res.Stats.Cut, cuts)
			}
			got := res.Stats.Crowd
			if got.Count != want || got.Type != "explorer_test.Resend" || got.From != 0 || got.To != 1 {
				t.Errorf("crowd %+v, want %d explorer_test.Resend from n0 to n1", got, want)
			}
			if want < 5 {
				t.Errorf("the oracle's largest crowd is %d: the test wants one of 5 or more", want)
			}
		})
	}
}

// TestNoCrowdWithoutCut: a search that cuts nothing reports no crowd.
func TestNoCrowdWithoutCut(t *testing.T) {
	res, err := explorer.Run(context.Background(), fanout(3), explorer.Options{Strategy: dpor.Exhaustive()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Crowd != (explorer.Crowd{}) {
		t.Errorf("crowd %+v, want none", res.Stats.Crowd)
	}
}
