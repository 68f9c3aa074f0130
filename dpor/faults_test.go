package dpor_test

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/register"
)

// durableNode is a random protocol's actor that restarts after a crash with its rules
// but not its value, which it kept only in memory.
type durableNode struct{ N node }

func (d *durableNode) Receive(ctx *model.Ctx, env model.Envelope) { d.N.Receive(ctx, env) }

func (d *durableNode) Restart() model.Actor { return &durableNode{N: node{Rules: d.N.Rules}} }

// faultConfigs are the budgets the fault oracle tries, one per kind and a few together.
var faultConfigs = []struct {
	name    string
	f       model.Faults
	restart bool // actors restart after a crash
	retries int  // clients time out and retry (model.Harness.Retrying)
}{
	{"drop1", model.Faults{Drop: 1}, false, 0},
	{"dup1", model.Faults{Duplicate: 1}, false, 0},
	{"crash1-stop", model.Faults{Crash: 1}, false, 0},
	{"crash1-restart", model.Faults{Crash: 1}, true, 0},
	{"partition1-lost", model.Faults{Partition: 1}, false, 0},
	{"partition1-held", model.Faults{Partition: 1, Hold: true}, false, 0},
	{"drop1-crash1", model.Faults{Drop: 1, Crash: 1}, true, 0},
	{"dup1-partition1", model.Faults{Duplicate: 1, Partition: 1}, false, 0},
	{"timeout1", model.Faults{}, false, 1},
	{"timeout1-crash1", model.Faults{Crash: 1}, false, 1},
}

// faultBudget bounds exhaustive search in the fault oracle.
const faultBudget = 8_000

// withFaults returns sys with budgets f, its actors made restartable when restart is set.
func withFaults(sys model.System, f model.Faults, restart bool, retries int) model.System {
	sys.Faults = f
	sys.Harness.Retrying(retries)
	if restart {
		actors := make([]model.Actor, len(sys.Actors))
		for i, a := range sys.Actors {
			actors[i] = &durableNode{N: *a.(*node)}
		}
		sys.Actors = actors
	}
	return sys
}

// TestDPORKeepsEveryCanonicalHistoryWithFaults is the oracle for the fault dependence:
// with faults on, DPOR with the history relation finds exactly the canonical histories
// and violations that exhaustive search finds, on random protocols under every fault
// kind and on the registers under drops, crashes and partitions.
func TestDPORKeepsEveryCanonicalHistoryWithFaults(t *testing.T) {
	type sys struct {
		name string
		sys  model.System
		long bool
	}
	var all []sys
	for seed := uint64(0); seed < 100; seed++ {
		c := faultConfigs[seed%uint64(len(faultConfigs))]
		s := withFaults(randomSystem(seed), c.f, c.restart, c.retries)
		all = append(all, sys{fmt.Sprintf("%s/%s", s.Name, c.name), s, false})
	}
	for _, c := range faultConfigs[:6] {
		s, err := register.NewBuggy(3, "2r1w")
		if err != nil {
			t.Fatal(err)
		}
		s.Faults = c.f
		all = append(all, sys{"register-buggy/2r1w/" + c.name, s, false})
	}
	var violations, compared atomic.Int64
	t.Run("each", func(t *testing.T) {
		for _, s := range all {
			t.Run(s.name, func(t *testing.T) {
				t.Parallel()
				// Faults multiply the schedules: a smaller cut than the fault-free oracle's
				// keeps the test's time in bounds.
				if !exhaustiveWithin(t, s.name, s.sys, faultBudget).complete {
					t.Skipf("more than %d schedules", faultBudget)
				}
				compareWithExhaustive(t, s.name, s.sys, s.long, &violations, &compared)
			})
		}
	})
	if violations.Load() == 0 {
		t.Errorf("no configuration had a violation: the oracle would not notice a strategy that loses them")
	}
	if compared.Load() < 45 {
		t.Errorf("only %d configurations were small enough to compare", compared.Load())
	}
	t.Logf("%d configurations compared", compared.Load())
}

// TestFaultDependenceSymmetric checks that every relation stays symmetric with faults.
func TestFaultDependenceSymmetric(t *testing.T) {
	kinds := []dpor.EventKind{dpor.Message, dpor.Request, dpor.Timer, dpor.Drop, dpor.Duplicate, dpor.Crash, dpor.Restart, dpor.Partition, dpor.Heal, dpor.Timeout}
	var evs []dpor.StepInfo
	for _, k := range kinds {
		for from := model.ID(0); from < 3; from++ {
			for to := model.ID(0); to < 3; to++ {
				for _, target := range []uint64{1, 2, 5} {
					evs = append(evs, dpor.StepInfo{Event: dpor.Event{ID: uint64(from)<<8 | uint64(to), Kind: k, From: from, To: to, Target: target}})
				}
			}
		}
	}
	for _, dep := range []dpor.Dependence{dpor.Actor(), dpor.History(), dpor.Key()} {
		for i := range evs {
			for j := range evs {
				if dep.Dependent(&evs[i], &evs[j]) != dep.Dependent(&evs[j], &evs[i]) {
					t.Fatalf("%s: not symmetric on %+v and %+v", dep.Name(), evs[i].Event, evs[j].Event)
				}
			}
		}
	}
}

// TestHeuristicsWithFaults: TransDPOR, IRed and LiViola (heuristics, not guaranteed to
// keep every history) run with faults on and find only histories exhaustive search finds.
func TestHeuristicsWithFaults(t *testing.T) {
	compared := 0
	for seed := uint64(0); seed < 20; seed++ {
		c := faultConfigs[seed%uint64(len(faultConfigs))]
		sys := withFaults(randomSystem(seed), c.f, c.restart, c.retries)
		ex := explore(t, sys, dpor.Exhaustive(), 3_000)
		if !ex.complete {
			continue
		}
		compared++
		for _, s := range []dpor.Strategy{dpor.TransDPOR(dpor.History()), dpor.IRed(dpor.History()), dpor.LiViola(dpor.Key())} {
			got := explore(t, sys, s, explorer.Unlimited)
			for _, h := range got.canonical {
				if _, ok := slices.BinarySearch(ex.canonical, h); !ok {
					t.Errorf("%s/%s with %s: a history exhaustive search does not find: %s", sys.Name, c.name, s.Name(), h)
				}
			}
		}
	}
	if compared < 6 {
		t.Errorf("only %d configurations compared", compared)
	}
}

// sharedTimeouts is a relation with the rule the fault dependence had before each client
// had a timeout budget of its own: any two timeouts dependent.
type sharedTimeouts struct{ dpor.Dependence }

func (d sharedTimeouts) Dependent(a, b *dpor.StepInfo) bool {
	if a.Event.Kind == dpor.Timeout && b.Event.Kind == dpor.Timeout {
		return true
	}
	return d.Dependence.Dependent(a, b)
}

// lazyStore is an actor of a primary-backup register that answers a write before its
// peer has it: small enough for stateless search with every client timing out.
type lazyStore struct{ Value int }

type lazyUpdate struct{ Value int }

func (s *lazyStore) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		if m.Input.Write {
			s.Value = m.Input.Value
			for _, p := range ctx.Peers() {
				ctx.Send(p, lazyUpdate{m.Input.Value})
			}
			ctx.Respond(m.ID, specs.WriteOK())
			return
		}
		ctx.Respond(m.ID, specs.ReadOK(s.Value))
	case lazyUpdate:
		s.Value = m.Value
	}
}

// TestTimeoutsOfTwoClientsCommute: each client times out within a budget of its own, so
// two clients' timeouts commute and DPOR need not explore both orders, while one client's
// successive timeouts stay ordered. With that rule DPOR finds exactly exhaustive search's
// canonical histories when clients time out, in fewer schedules than with every two
// timeouts dependent.
func TestTimeoutsOfTwoClientsCommute(t *testing.T) {
	timeout := func(c int, id uint64) *dpor.StepInfo {
		return &dpor.StepInfo{Event: dpor.Event{ID: id, Kind: dpor.Timeout, From: model.ClientID(c), To: 0}}
	}
	for _, dep := range []dpor.Dependence{dpor.Actor(), dpor.History(), dpor.Key()} {
		if dep.Dependent(timeout(0, 1), timeout(1, 2)) {
			t.Errorf("%s: the timeouts of clients 0 and 1 are dependent", dep.Name())
		}
		if !dep.Dependent(timeout(0, 1), timeout(0, 2)) {
			t.Errorf("%s: client 0's two timeouts are independent", dep.Name())
		}
	}
	for _, c := range []struct {
		name    string
		clients []model.Client[specs.RegisterInput]
		retries int
	}{
		{"w-r", []model.Client[specs.RegisterInput]{model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read())}, 1},
		{"w-r/2", []model.Client[specs.RegisterInput]{model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read())}, 2},
		{"w-r-r", []model.Client[specs.RegisterInput]{model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()), model.Calls(0, specs.Read())}, 1},
		{"wr-r", []model.Client[specs.RegisterInput]{model.Calls(0, specs.Write(1), specs.Read()), model.Calls(1, specs.Read())}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys := model.System{
				Name:    "lazy-store",
				Actors:  []model.Actor{&lazyStore{}, &lazyStore{}},
				Harness: model.Clients(specs.Register(), c.clients...).Retrying(c.retries),
			}
			ex := explore(t, sys, dpor.Exhaustive(), explorer.Unlimited)
			fine := explore(t, sys, dpor.Optimal(dpor.History()), explorer.Unlimited)
			shared := explore(t, sys, dpor.Optimal(sharedTimeouts{dpor.History()}), explorer.Unlimited)
			for _, o := range []struct {
				rule string
				got  outcome
			}{{"independent", fine}, {"dependent", shared}} {
				if !slices.Equal(o.got.canonical, ex.canonical) || !slices.Equal(o.got.violations, ex.violations) {
					t.Errorf("two clients' timeouts %s: %d canonical histories (%d violations), exhaustive search %d (%d); first missing: %s", o.rule, len(o.got.canonical), len(o.got.violations), len(ex.canonical), len(ex.violations), firstMissing(ex.canonical, o.got.canonical))
				}
			}
			if fine.schedules >= shared.schedules {
				t.Errorf("%d schedules with two clients' timeouts independent, %d with them dependent: want fewer", fine.schedules, shared.schedules)
			}
			t.Logf("exhaustive search %d schedules; dpor %d, with every two timeouts dependent %d; %d canonical histories, %d violations", ex.schedules, fine.schedules, shared.schedules, len(ex.canonical), len(ex.violations))
		})
	}
}
