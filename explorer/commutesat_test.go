package explorer

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// TestCommuteMemoChangesNothing: CommutesAt's memo answers only what its three steps
// would; stateful DPOR with and without the memo explores exactly the same search. The
// random systems deliver in FIFO order and crash an actor or split them: there a message
// lost or held in one state and not in another orders differently on its channel, so a
// key without the fault state answers wrongly (all four rows fail with it). In answers,
// two messages ask one actor, whose state never changes, to answer the same request:
// they commute once a third has answered it, and not while it is outstanding, so a key
// without the clients' progress answers wrongly. With a crash, the leader-based register
// meets a Prepare and an Accept of one term at a leader whose heartbeat timer is armed in
// one state and not in another: only the order that starts with the Prepare disarms it,
// so a key without the receiver's timers answers wrongly.
func TestCommuteMemoChangesNothing(t *testing.T) {
	fifo := func(seed uint64, f model.Faults) func(*testing.T) model.System {
		return func(*testing.T) model.System {
			sys := randsys.NewCyclic(seed)
			sys.Network, sys.Faults = model.FIFO, f
			return sys
		}
	}
	shipped := func(name string) func(*testing.T) model.System {
		return func(t *testing.T) model.System {
			sysName, harness, _ := strings.Cut(name, "/")
			return shippedWith(t, sysName, harness, model.Faults{})
		}
	}
	tests := []struct {
		name string
		sys  func(*testing.T) model.System
	}{
		{"register/2r2w", shipped("register/2r2w")},
		{"abd/1w2r-seq", shipped("abd/1w2r-seq")},
		{"leader/1rw", shipped("leader/1rw")},
		{"paxos/2r1w", shipped("paxos/2r1w")},
		{"chord/2r1w", shipped("chord/2r1w")},
		{"abd-buggy/1w2r", shipped("abd-buggy/1w2r")},
		{"leader/1rw/crash", func(t *testing.T) model.System { return shippedWith(t, "leader", "1rw", model.Faults{Crash: 1}) }},
		{"answers", func(*testing.T) model.System {
			return model.System{Name: "answers", Actors: []model.Actor{&answerer{Order: []int{1, 1, 2}}, &answerer{}, &answerer{}},
				Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read(), specs.Read()))}
		}},
		{"cyclic-97-fifo/crash-stop", fifo(97, model.Faults{Crash: 1, CrashStop: true})},
		{"cyclic-247-fifo/crash-stop", fifo(247, model.Faults{Crash: 1, CrashStop: true})},
		{"cyclic-19-fifo/crash-restart", fifo(19, model.Faults{Crash: 1})},
		{"cyclic-101-fifo/partition", fifo(101, model.Faults{Partition: 1})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys := tc.sys(t)
			run := func(memo bool) Stats {
				noCommuteMemo = !memo
				defer func() { noCommuteMemo = false }()
				res, err := Run(t.Context(), sys, Options{Strategy: dpor.StatefulDPOR(dpor.History()), StateCaching: true, MaxSchedules: Unlimited})
				if err != nil || !res.Complete {
					t.Fatalf("err %v, complete %v", err, res != nil && res.Complete)
				}
				return res.Stats
			}
			a, b := run(true), run(false)
			if a.States != b.States || a.ExploredAgain != b.ExploredAgain || a.Revisits != b.Revisits || a.Steps != b.Steps || a.Schedules != b.Schedules || a.Canonical != b.Canonical {
				t.Errorf("with the memo %d states, %d again, %d revisits, %d steps, %d schedules, %d canonical; without %d, %d, %d, %d, %d, %d",
					a.States, a.ExploredAgain, a.Revisits, a.Steps, a.Schedules, a.Canonical, b.States, b.ExploredAgain, b.Revisits, b.Steps, b.Schedules, b.Canonical)
			}
		})
	}
}

// answer asks its receiver to answer Req.
type answer struct {
	Req model.RequestID
	K   int
}

// answerer asks the actors of Order, in turn, to answer each request it receives, and
// answers each request it is asked to; its state never changes.
type answerer struct{ Order []int }

func (*answerer) Start(*model.Ctx) {}

func (a *answerer) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		for k, to := range a.Order {
			ctx.Send(model.ID(to), answer{m.ID, k})
		}
	case answer:
		ctx.Respond(m.Req, specs.RegisterOutput{})
	}
}
