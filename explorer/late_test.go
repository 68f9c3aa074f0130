package explorer

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/register"
)

// flakyPanics counts the panics of flaky across runs: only the first one panics.
var flakyPanics int

// flaky panics on the first request it ever sees, in any run, and never again: a panic
// that does not recur when its schedule is replayed.
type flaky struct{}

func (flaky) Receive(ctx *model.Ctx, env model.Envelope) {
	r := env.Msg.(model.Request[specs.RegisterInput])
	if flakyPanics == 0 {
		flakyPanics++
		panic("only once")
	}
	ctx.Respond(r.ID, specs.WriteOK())
}

// TestPanicReplayedForReal: a panic is verified by replaying its schedule, like a
// non-linearizable history: one that recurs is Replayed, one that does not is not.
func TestPanicReplayedForReal(t *testing.T) {
	sys := func(a model.Actor) model.System {
		return model.System{Name: "t", Actors: []model.Actor{a}, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)))}
	}
	flakyPanics = 0
	res, err := Run(t.Context(), sys(flaky{}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.First; v == nil || v.Kind != "panic" || v.Replayed {
		t.Errorf("a panic that does not recur: first = %+v, want a panic not Replayed", v)
	}
	res, err = Run(t.Context(), sys(alwaysPanics{}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.First; v == nil || v.Kind != "panic" || !v.Replayed {
		t.Errorf("a panic that recurs: first = %+v, want a panic Replayed", v)
	}
}

type alwaysPanics struct{}

func (alwaysPanics) Receive(*model.Ctx, model.Envelope) { panic("always") }

// failingSet is a visited set whose disk fails at the n-th insertion.
type failingSet struct{ n, adds int }

func (f *failingSet) Add(uint64) (bool, error) {
	f.adds++
	if f.adds >= f.n {
		return false, errors.New("disk on fire")
	}
	return true, nil
}
func (f *failingSet) Stats() VisitedStats { return VisitedStats{} }
func (f *failingSet) Close() error        { return nil }

// TestLateStoreFailureKeepsTheViolation: when the visited set's disk fails after a
// violation was found, Run returns the error and the result so far, violation included.
func TestLateStoreFailureKeepsTheViolation(t *testing.T) {
	defer func(old func(Options) (visitedSet, error)) { openVisitedSet = old }(openVisitedSet)
	openVisitedSet = func(Options) (visitedSet, error) { return &failingSet{n: 300}, nil }
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), sys, Options{StateCaching: true, MaxSchedules: Unlimited})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("error = %v, want the store's", err)
	}
	if strings.Count(err.Error(), "visited set") > 1 {
		t.Errorf("doubled prefix: %v", err)
	}
	if res == nil || res.First == nil || res.Stats.Schedules == 0 {
		t.Fatalf("result = %+v, want the violation found before the failure", res)
	}
}

// TestTooManyActors: a system beyond MaxActors is refused, saying the limit.
func TestTooManyActors(t *testing.T) {
	actors := make([]model.Actor, MaxActors+1)
	for i := range actors {
		actors[i] = alwaysPanics{}
	}
	sys := model.System{Name: "big", Actors: actors, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}
	_, err := Run(t.Context(), sys, Options{})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprint(MaxActors)) {
		t.Errorf("error = %v, want one naming the limit", err)
	}
	if _, err := Replay(sys, nil, false); err == nil {
		t.Errorf("Replay accepted %d actors", len(actors))
	}
}
