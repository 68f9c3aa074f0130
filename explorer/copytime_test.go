package explorer_test

import (
	"context"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// TestCopiesAreTimed: the reflective copies of a run are timed, some of them, for the
// command's hint at a Clone method when they are slow (state probe, H5); copies made by
// a Clone method are not. Only the counts are checked: what the clock reads is not.
func TestCopiesAreTimed(t *testing.T) {
	harness := model.Clients(specs.Register(), model.Calls(0, specs.Write(1), specs.Write(2)), model.Calls(0, specs.Read(), specs.Read()))
	res, err := explorer.Run(context.Background(), model.System{Name: "reflective", Actors: []model.Actor{&deepReg{M: map[string]int{}}}, Harness: harness}, explorer.Options{Reflective: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Stats.CopiesTimed; got < 16 || got > res.Stats.Steps {
		t.Errorf("reflective: %d copies timed of %d steps; want the first 16 and some after", got, res.Stats.Steps)
	}
	res, err = explorer.Run(context.Background(), model.System{Name: "clone", Actors: []model.Actor{&deepReg{M: map[string]int{}}}, Harness: harness}, explorer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.CopiesTimed != 0 || res.Stats.CopyTime != 0 {
		t.Errorf("a Clone method: %d copies timed; want none", res.Stats.CopiesTimed)
	}
}
