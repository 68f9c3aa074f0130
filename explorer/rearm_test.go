package explorer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// RearmPoke is the re-arming system's message; RearmTick and RearmTock its timers'
// payloads.
type (
	RearmPoke struct{}
	RearmTick struct{}
	RearmTock struct{}
)

// rearmer is the smallest system of probe C1 (a violation stateless and stateful DPOR
// missed): n0 records a write and answers it on the second firing of its timer, then
// pokes n1 once; n1 records a read, pokes n0, and answers the read with its own value,
// never updated (the stale read), when a poke has armed its timer. A poke that reaches
// n0 between the two firings re-arms n0's armed timer: with the same payload, or with
// another (Other) or, with Cancel, disarms it and arms it again at once.
type rearmer struct {
	Other, Cancel bool
	S, Val        int
	Sent          bool
	Pend          []model.RequestID
}

func (a *rearmer) Start(ctx *model.Ctx) {
	if ctx.Self() == 0 {
		ctx.SetTimer("t", RearmTick{})
	}
}

func (a *rearmer) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		a.Pend = append(a.Pend, m.ID)
		if ctx.Self() == 0 {
			a.Val, a.S = m.Input.Value, 1
			return
		}
		if !a.Sent {
			a.Sent = true
			ctx.Send(0, RearmPoke{})
		}
	case RearmPoke:
		switch {
		case ctx.Self() == 1:
			ctx.SetTimer("t", RearmTick{})
		case a.S == 2 && a.Cancel:
			ctx.CancelTimer("t")
			ctx.SetTimer("t", RearmTick{})
		case a.S == 2 && a.Other:
			ctx.SetTimer("t", RearmTock{})
		case a.S == 2:
			ctx.SetTimer("t", RearmTick{})
		}
	case RearmTick, RearmTock:
		if ctx.Self() == 1 {
			for _, id := range a.Pend {
				ctx.Respond(id, specs.ReadOK(a.Val))
			}
			a.Pend = nil
			return
		}
		switch a.S {
		case 1:
			a.S = 2
			ctx.SetTimer("t", RearmTick{})
		case 2:
			a.S = 3
			if !a.Sent {
				a.Sent = true
				ctx.Send(1, RearmPoke{})
			}
			for _, id := range a.Pend {
				ctx.Respond(id, specs.WriteOK())
			}
			a.Pend = nil
		}
	}
}

func (a *rearmer) Clone() model.Actor {
	c := *a
	c.Pend = slices.Clone(a.Pend)
	return &c
}

func rearmSystem(other, cancel bool) model.System {
	return model.System{Name: fmt.Sprintf("rearm-other-%v-cancel-%v", other, cancel),
		Actors: []model.Actor{&rearmer{Other: other, Cancel: cancel}, &rearmer{Other: other, Cancel: cancel}},
		Harness: model.Clients(specs.Register(),
			model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()))}
}

// rearmDiamondSystem is rearmSystem with a third actor, n2, whose read pokes n0 too and
// is never answered: its request's delivery commutes with most of n0's and n1's steps,
// so a search with caching reaches the states where n0's timer is re-armed by more than
// one path, and takes the disarming steps below revisited states.
func rearmDiamondSystem(other, cancel bool) model.System {
	sys := rearmSystem(other, cancel)
	sys.Name = fmt.Sprintf("rearm-diamond-other-%v-cancel-%v", other, cancel)
	sys.Actors = append(sys.Actors, &rearmer{Other: other, Cancel: cancel})
	sys.Harness = model.Clients(specs.Register(),
		model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()), model.Calls(2, specs.Read()))
	return sys
}

// TestRearmingAnArmedTimer: a step that re-arms a timer that is armed already must not
// hide the orders in which the timer fires first. Every strategy that keeps every
// canonical history, with and without state caching, finds the stale read, and finds
// exhaustive search's canonical histories of final states.
func TestRearmingAnArmedTimer(t *testing.T) {
	var systems []model.System
	for _, v := range []struct{ other, cancel bool }{{false, false}, {true, false}, {false, true}} {
		systems = append(systems, rearmSystem(v.other, v.cancel), rearmDiamondSystem(v.other, v.cancel))
	}
	for _, sys := range systems {
		want := finalCanonical(t, sys, dpor.Exhaustive(), true)
		if len(want) == 0 {
			t.Fatalf("%s: exhaustive search found no final history", sys.Name)
		}
		for _, c := range []struct {
			name    string
			strat   func() dpor.Strategy
			caching bool
		}{
			{"dpor", func() dpor.Strategy { return dpor.Optimal(dpor.History()) }, false},
			{"dpor-source", func() dpor.Strategy { return dpor.DPOR(dpor.History()) }, false},
			{"dpor+caching", func() dpor.Strategy { return dpor.Optimal(dpor.History()) }, true},
			{"dpor-source+caching", func() dpor.Strategy { return dpor.DPOR(dpor.History()) }, true},
		} {
			t.Run(sys.Name+"/"+c.name, func(t *testing.T) {
				if got := finalCanonical(t, sys, c.strat(), c.caching); !slices.Equal(got, want) {
					t.Errorf("%d canonical histories of final states (%d not linearizable), exhaustive search %d (%d)",
						len(got), nonlin(got), len(want), nonlin(want))
				}
			})
		}
	}
}

// finalCanonical returns the sorted canonical histories of final states strat finds, as
// "L " (linearizable) or "N " followed by the history.
func finalCanonical(t *testing.T, sys model.System, strat dpor.Strategy, caching bool) []string {
	t.Helper()
	res, err := explorer.Run(context.Background(), sys, explorer.Options{Strategy: strat, StateCaching: caching, MaxSchedules: explorer.Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete {
		t.Fatalf("%s: not complete", strat.Name())
	}
	var out []string
	for _, c := range res.Canonical {
		if !c.Final {
			continue
		}
		v := "L "
		if !c.Linearizable {
			v = "N "
		}
		b, err := json.Marshal(c.History.JSON(sys.Harness))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v+string(b))
	}
	slices.Sort(out)
	return out
}

func nonlin(hs []string) int {
	n := 0
	for _, h := range hs {
		if h[0] == 'N' {
			n++
		}
	}
	return n
}
