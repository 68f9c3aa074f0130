package dpor_test

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
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
				if !explore(t, s.sys, dpor.Exhaustive(), faultBudget).complete {
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
