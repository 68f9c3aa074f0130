package explorer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/internal/panicsite"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// twoSites is a replica of a register with two panics (probe M7, after its lazyreg
// twopanic): n1 panics at siteA on an update that comes before n0's start-up hello, n2
// at siteB on an update after it served a read. Dropping the hello from a schedule that
// ends at siteB turns it into a shorter one that ends at siteA: another bug.
type twoSites struct {
	Val     int
	Waiting bool
	Req     model.RequestID
	Served  int
	Greeted bool
}

type twoSitesUpdate struct{ Val int }
type twoSitesAck struct{}
type twoSitesHello struct{}

func (r *twoSites) Start(ctx *model.Ctx) {
	if ctx.Self() == 0 {
		ctx.Send(1, twoSitesHello{})
	}
}

func (r *twoSites) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		if m.Input.Write {
			r.Val, r.Waiting, r.Req = m.Input.Value, true, m.ID
			for _, p := range ctx.Peers() {
				ctx.Send(p, twoSitesUpdate{Val: m.Input.Value})
			}
			return
		}
		r.Served++
		ctx.Respond(m.ID, specs.ReadOK(r.Val))
	case twoSitesHello:
		r.Greeted = true
	case twoSitesUpdate:
		if ctx.Self() == 1 && !r.Greeted {
			siteA()
		}
		if ctx.Self() == 2 && r.Served > 0 {
			siteB()
		}
		r.Val = m.Val
		ctx.Send(env.From, twoSitesAck{})
	case twoSitesAck:
		if r.Waiting {
			r.Waiting = false
			ctx.Respond(r.Req, specs.WriteOK())
		}
	}
}

func siteA() { panic("site A: n1 got an update before the hello") }
func siteB() { panic("site B: n2 got an update after serving a read") }

func twoSitesSystem() model.System {
	return model.System{Name: "two-sites", Actors: []model.Actor{&twoSites{}, &twoSites{}, &twoSites{}},
		Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)), model.Calls(2, specs.Read()))}
}

// TestMinimizeKeepsThePanicSite: a panic's minimized schedule panics where the one found
// did, and the violation's message, stack and site are those of its own replay; the
// search's strategies find the siteB panic first, which a shorter schedule without the
// hello would turn into siteA's.
func TestMinimizeKeepsThePanicSite(t *testing.T) {
	for _, c := range []struct {
		name     string
		strategy dpor.Strategy
	}{
		{"exhaustive", dpor.Exhaustive()},
		{"dpor", dpor.DPOR(dpor.History())},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys := twoSitesSystem()
			found := mustFind(t, sys, explorer.Options{Strategy: c.strategy})
			foundAt := panicsite.InStack(found.Stack)
			if !strings.Contains(foundAt, "siteB") {
				t.Fatalf("the search found the panic at %q, want siteB (the test's premise)", foundAt)
			}
			v, err := explorer.Minimize(context.Background(), sys, found)
			if err != nil {
				t.Fatal(err)
			}
			if got := panicsite.InStack(v.Stack); got != foundAt {
				t.Errorf("minimized panic at %q, found at %q", got, foundAt)
			}
			ids := make([]uint64, len(v.Steps))
			for i, s := range v.Steps {
				ids[i] = s.ID
			}
			ex, err := explorer.Replay(sys, ids, false)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := "panic: "+v.Message, ex.Failure; got != want {
				t.Errorf("minimized message %q, its replay's %q", got, want)
			}
			if got, want := panicsite.InStack(v.Stack), panicsite.InStack(ex.Stack); got != want {
				t.Errorf("minimized stack at %q, its replay's at %q", got, want)
			}
		})
	}
}
