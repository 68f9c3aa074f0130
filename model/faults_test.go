package model_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

type idle struct{}

func (idle) Receive(*model.Ctx, model.Envelope) {}

// TestFaultsValidate: bad budgets and sides are refused with a message naming the problem.
func TestFaultsValidate(t *testing.T) {
	sys := func(n int, f model.Faults) model.System {
		actors := make([]model.Actor, n)
		for i := range actors {
			actors[i] = idle{}
		}
		return model.System{Name: "s", Actors: actors, Faults: f, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}
	}
	for _, tt := range []struct {
		name string
		sys  model.System
		want string // "" for valid
	}{
		{"no faults", sys(2, model.Faults{}), ""},
		{"all kinds", sys(3, model.Faults{Drop: 1, Duplicate: 2, Partition: 1, Crash: 1}), ""},
		{"negative drop", sys(2, model.Faults{Drop: -1}), "drop budget"},
		{"negative crash", sys(2, model.Faults{Crash: -1}), "crash budget"},
		{"partition of one actor", sys(1, model.Faults{Partition: 1}), "a partition needs at least 2 actors; this system has 1"},
		{"sides of one actor", sys(1, model.Faults{Partition: 1, Sides: [][]model.ID{{0}}}), "a partition needs at least 2 actors; this system has 1"},
		{"sides of one actor, no budget", sys(1, model.Faults{Sides: [][]model.ID{{0}}}), "a partition needs at least 2 actors; this system has 1"},
		{"every split of 13 actors", sys(13, model.Faults{Partition: 1}), "Faults.Sides"},
		{"sides of 13 actors", sys(13, model.Faults{Partition: 1, Sides: [][]model.ID{{0, 1}}}), ""},
		{"side with every actor", sys(2, model.Faults{Partition: 1, Sides: [][]model.ID{{0, 1}}}), "partition side 0 must name exactly 1 of the 2 actors, it names 2"},
		{"side with every actor of 3", sys(3, model.Faults{Partition: 1, Sides: [][]model.ID{{0, 1, 2}}}), "partition side 0 must name between 1 and 2 actors, it names 3"},
		{"side naming an unknown actor", sys(3, model.Faults{Partition: 1, Sides: [][]model.ID{{5}}}), "names actor 5"},
		{"side naming an actor twice", sys(3, model.Faults{Partition: 1, Sides: [][]model.ID{{1, 1}}}), "twice"},
		{"crashes of 65 actors", sys(65, model.Faults{Crash: 1}), "at most 64"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.sys.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate() = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}
