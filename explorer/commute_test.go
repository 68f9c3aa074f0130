package explorer_test

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems"
	"github.com/ravelmc/ravel/systems/register"
)

// relation is a dependence relation made of a function, for planting broken ones.
type relation struct {
	name string
	dep  func(a, b *dpor.StepInfo) bool
}

func (r relation) Name() string                       { return r.name }
func (r relation) Dependent(a, b *dpor.StepInfo) bool { return r.dep(a, b) }
func (relation) NeedsReturns() bool                   { return true }
func (relation) NeedsKeys() bool                      { return true }

func buildSystem(t *testing.T, name, harness string) model.System {
	t.Helper()
	e, err := systems.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := e.New(systems.Config{Harness: harness, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// replayOrders runs the counterexample's schedule followed by a, b and by b, a, from the
// initial state, with nothing shared with the checker.
func replayOrders(t *testing.T, sys model.System, c *explorer.Counterexample) (ab, ba *explorer.Execution) {
	t.Helper()
	var err error
	ab, err = explorer.Replay(sys, append(ids(c.Schedule), c.A.ID, c.B.ID), false)
	if err != nil {
		t.Fatalf("replaying a then b: %v", err)
	}
	ba, err = explorer.Replay(sys, append(ids(c.Schedule), c.B.ID, c.A.ID), false)
	if err != nil {
		t.Fatalf("replaying b then a: %v", err)
	}
	return ab, ba
}

// TestCommutationFindsPlantedUnsound: a relation that calls every pair independent is
// caught with a pair whose two orders, replayed from scratch, end in different states.
func TestCommutationFindsPlantedUnsound(t *testing.T) {
	never := relation{"never", func(a, b *dpor.StepInfo) bool { return false }}
	sys := buildSystem(t, "register", "")
	rep, err := explorer.CheckCommutation(context.Background(), sys, never, explorer.CommuteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.First
	if c == nil {
		t.Fatalf("no counterexample in %d states", rep.States)
	}
	if c.Kind != "state" && c.Kind != "history" {
		t.Fatalf("kind %q: %s", c.Kind, c.Message)
	}
	if c.A.To != c.B.To {
		t.Errorf("the pair goes to %d and %d: steps at different actors of the register commute", c.A.To, c.B.To)
	}
	ab, ba := replayOrders(t, sys, c)
	if ab.Fingerprint == ba.Fingerprint {
		t.Errorf("the two orders replay to the same state:\n%s", c.Describe(&sys))
	}
	if rep.Independent == 0 || rep.Pairs < rep.Independent {
		t.Errorf("pairs %d, independent %d", rep.Pairs, rep.Independent)
	}
}

// TestCommutationFindsAsymmetry: a relation that is not symmetric is caught on a pair it
// judges differently each way.
func TestCommutationFindsAsymmetry(t *testing.T) {
	lopsided := relation{"lopsided", func(a, b *dpor.StepInfo) bool { return a.Event.To <= b.Event.To }}
	sys := buildSystem(t, "register", "")
	rep, err := explorer.CheckCommutation(context.Background(), sys, lopsided, explorer.CommuteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.First == nil || rep.First.Kind != "asymmetric" {
		t.Fatalf("got %+v", rep.First)
	}
	if rep.First.A.To == rep.First.B.To {
		t.Errorf("a pair at one actor is symmetric under this relation: %+v", rep.First)
	}
}

// TestCommutationBuiltinsSound: actor, history and key keep their contract on every
// shipped system's default configuration, within a state budget; history also in the
// strict sense (the same history order either way), which actor does not keep.
func TestCommutationBuiltinsSound(t *testing.T) {
	budget := 2000
	if testing.Short() {
		budget = 200
	}
	for _, e := range systems.All() {
		sys := buildSystem(t, e.Name, "")
		for _, name := range []string{"actor", "history", "key"} {
			t.Run(e.Name+"/"+name, func(t *testing.T) {
				dep, err := dpor.DependenceByName(name)
				if err != nil {
					t.Fatal(err)
				}
				rep, err := explorer.CheckCommutation(context.Background(), sys, dep, explorer.CommuteOptions{MaxStates: budget, Strict: name == "history"})
				if err != nil {
					t.Fatal(err)
				}
				if rep.First != nil {
					t.Fatalf("%d states: %s", rep.States, rep.First.Describe(&sys))
				}
				if rep.States == 0 || rep.Pairs == 0 {
					t.Errorf("examined %d states, %d pairs", rep.States, rep.Pairs)
				}
				t.Logf("%d states (complete %v), %d pairs, %d independent, %d reorder the canonical history", rep.States, rep.Complete, rep.Pairs, rep.Independent, rep.Reordered)
				if name == "history" && rep.Reordered != 0 {
					t.Errorf("history: %d independent pairs reorder the history", rep.Reordered)
				}
			})
		}
	}
}

// TestCommutationStrictCatchesActor: actor calls a response and an invocation at two
// actors independent; their orders give different canonical histories, which Strict
// reports and a replay confirms.
func TestCommutationStrictCatchesActor(t *testing.T) {
	sys := buildSystem(t, "register-buggy", "")
	rep, err := explorer.CheckCommutation(context.Background(), sys, dpor.Actor(), explorer.CommuteOptions{Strict: true, MaxStates: explorer.Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if rep.First == nil || rep.First.Kind != "history-order" {
		t.Fatalf("got %+v", rep.First)
	}
	ab, ba := replayOrders(t, sys, rep.First)
	cab, cba := histories.CanonicalOf(ab.Events), histories.CanonicalOf(ba.Events)
	same := cab.Equal(&cba)
	if same {
		t.Errorf("the two orders replay to the same history:\n%s", rep.First.Describe(&sys))
	}
}

// TestCommutationFindsUnstableMarks: declaring two acknowledgements of one write
// independent lets the one that completes the quorum change with the order, and with it
// whether the step records a response — which a relation over history then judges
// differently against a client's request.
func TestCommutationFindsUnstableMarks(t *testing.T) {
	acks := relation{"acks", func(a, b *dpor.StepInfo) bool {
		_, x := a.Event.Msg.(register.WriteReplicaAck)
		_, y := b.Event.Msg.(register.WriteReplicaAck)
		if x && y && a.Event.To == b.Event.To {
			return false
		}
		return dpor.History().Dependent(a, b)
	}}
	sys := buildSystem(t, "register-buggy", "")
	rep, err := explorer.CheckCommutation(context.Background(), sys, acks, explorer.CommuteOptions{MaxStates: explorer.Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.First
	if c == nil || c.Kind != "unstable" {
		t.Fatalf("got %+v", c)
	}
	_, x := c.A.Msg.(register.WriteReplicaAck)
	_, y := c.B.Msg.(register.WriteReplicaAck)
	if !x || !y {
		t.Fatalf("the pair is not two acknowledgements: %s", c.Describe(&sys))
	}
	// The oracle: replayed from scratch, the same acknowledgement records a response in
	// one order and not in the other.
	ab, ba := replayOrders(t, sys, c)
	n := len(c.Events)
	if len(ab.Events) != n+1 || len(ba.Events) != n+1 {
		t.Fatalf("the orders record %d and %d events after %d", len(ab.Events), len(ba.Events), n)
	}
	abOne, err := explorer.Replay(sys, append(ids(c.Schedule), c.A.ID), false)
	if err != nil {
		t.Fatal(err)
	}
	baOne, err := explorer.Replay(sys, append(ids(c.Schedule), c.B.ID), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(abOne.Events) != n+1 || len(baOne.Events) != n+1 {
		t.Errorf("the first acknowledgement does not complete the quorum alone: %d, %d events", len(abOne.Events), len(baOne.Events))
	}
}

func ids(steps []explorer.Delivery) []uint64 {
	out := make([]uint64, len(steps))
	for i, d := range steps {
		out[i] = d.ID
	}
	return out
}

// TestCommutationBuiltinsWithFaults: with drops, duplicates, a partition and a crash
// enabled, the built-in relations (which defer fault events to dpor's own rule) keep their
// contract on the fault events too.
func TestCommutationBuiltinsWithFaults(t *testing.T) {
	for _, name := range []string{"register-volatile", "register-idempotent"} {
		sys := buildSystem(t, name, "1r1w")
		sys.Faults = model.Faults{Drop: 1, Duplicate: 1, Partition: 1, Crash: 1}
		for _, dep := range []dpor.Dependence{dpor.Actor(), dpor.History(), dpor.Key()} {
			t.Run(name+"/"+dep.Name(), func(t *testing.T) {
				rep, err := explorer.CheckCommutation(context.Background(), sys, dep, explorer.CommuteOptions{MaxStates: 600})
				if err != nil {
					t.Fatal(err)
				}
				if rep.First != nil {
					t.Fatalf("%d states: %s", rep.States, rep.First.Describe(&sys))
				}
				if rep.Independent == 0 {
					t.Errorf("no independent pair in %d states", rep.States)
				}
			})
		}
	}
}

// counter is a broadcaster that counts the notes it receives and keeps nothing of their
// order, so that any two of them commute.
type counter struct{ B broadcaster }

func (c *counter) Start(ctx *model.Ctx) { c.B.Start(ctx) }

func (c *counter) Receive(_ *model.Ctx, env model.Envelope) {
	if _, ok := env.Msg.(Note); ok {
		c.B.Seen++
	}
}

// TestCommutationCountsDependentPairsThatCommute checks CommuteOptions.Dependent against
// closed forms, with a relation that calls every pair dependent. Four notes pending at
// one actor, on an unordered network: a counter reaches one state per set of notes
// delivered, and at a state with m notes pending C(m, 2) pairs meet, Σ C(4,m)·C(m,2) = 24
// in all, every one commuting; a receiver that records the order (broadcaster) reaches
// one state per sequence, Σ P(4,j)·C(4−j, 2) = 30 pairs, none commuting. On abd 1w1r,
// under history, most pairs commute, and never more than are dependent.
func TestCommutationCountsDependentPairsThatCommute(t *testing.T) {
	all := relation{"all", func(a, b *dpor.StepInfo) bool { return true }}
	countSys := model.System{Name: "count", Actors: []model.Actor{&counter{broadcaster{K: 4}}, &counter{broadcaster{K: 4}}},
		Harness: model.Clients(specs.Register(), model.Client[specs.RegisterInput]{Target: 0})}
	for _, c := range []struct {
		name                 string
		sys                  model.System
		dependent, commuting int64
	}{
		{"4 notes counted", countSys, 24, 24},
		{"4 notes in order", burst(4, model.Unordered), 30, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := explorer.CheckCommutation(context.Background(), c.sys, all, explorer.CommuteOptions{MaxStates: explorer.Unlimited, Dependent: true})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Complete || rep.Dependent != c.dependent || rep.DependentCommuting != c.commuting {
				t.Errorf("complete %v, %d dependent pairs, %d commuting; want true, %d, %d", rep.Complete, rep.Dependent, rep.DependentCommuting, c.dependent, c.commuting)
			}
		})
	}
	t.Run("abd 1w1r, history", func(t *testing.T) {
		sys := buildSystem(t, "abd", "1w1r")
		rep, err := explorer.CheckCommutation(context.Background(), sys, dpor.History(), explorer.CommuteOptions{MaxStates: 500, Dependent: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Dependent == 0 || rep.DependentCommuting == 0 || rep.DependentCommuting > rep.Dependent {
			t.Errorf("%d dependent pairs, %d commuting; want both positive, the second at most the first", rep.Dependent, rep.DependentCommuting)
		}
		without, err := explorer.CheckCommutation(context.Background(), sys, dpor.History(), explorer.CommuteOptions{MaxStates: 500})
		if err != nil {
			t.Fatal(err)
		}
		if without.Dependent != 0 || without.Pairs != rep.Pairs || without.Independent != rep.Independent {
			t.Errorf("without Dependent: %d pairs, %d independent, %d dependent counted; with: %d, %d", without.Pairs, without.Independent, without.Dependent, rep.Pairs, rep.Independent)
		}
	})
}
