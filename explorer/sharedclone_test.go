package explorer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// shallowReg is a register whose Clone shares its map with the original: a handler
// running on the copy changes the state the search goes on from.
type shallowReg struct{ M map[string]int }

func (a *shallowReg) Clone() model.Actor { return &shallowReg{M: a.M} }

func (a *shallowReg) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.RegisterInput])
	if m.Input.Write {
		a.M["v"] = m.Input.Value
		ctx.Respond(m.ID, specs.WriteOK())
		return
	}
	ctx.Respond(m.ID, specs.ReadOK(a.M["v"]))
}

// deepReg is the same register with a Clone that copies the map, and a slice of peers
// that every copy shares and no handler changes: sharing that is harmless.
type deepReg struct {
	M     map[string]int
	Peers []int
}

func (a *deepReg) Clone() model.Actor {
	m := make(map[string]int, len(a.M))
	for k, v := range a.M {
		m[k] = v
	}
	return &deepReg{M: m, Peers: a.Peers}
}

func (a *deepReg) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.RegisterInput])
	if m.Input.Write {
		a.M["v"] = m.Input.Value + len(a.Peers) - 2
		ctx.Respond(m.ID, specs.WriteOK())
		return
	}
	ctx.Respond(m.ID, specs.ReadOK(a.M["v"]))
}

// TestSharedCloneIsNamed: a Clone that shares a map with the original gave a false
// violation blamed on a handler that is not deterministic (state probe, H2). The change
// of the original is now found at the step that makes it, named as the Clone's, with the
// field shared; a Clone that shares only data no handler changes is no finding.
func TestSharedCloneIsNamed(t *testing.T) {
	harness := model.Clients(specs.Register(), model.Calls(0, specs.Write(1), specs.Write(2)), model.Calls(0, specs.Read(), specs.Read()))
	sys := model.System{Name: "shallow", Actors: []model.Actor{&shallowReg{M: map[string]int{}}}, Harness: harness}
	res, err := explorer.Run(context.Background(), sys, explorer.Options{})
	if err != nil || res.First == nil {
		t.Fatalf("Run: %v, %+v; want a finding", err, res)
	}
	if res.Complete {
		t.Error("the search says it is complete; Ravel could not check the system")
	}
	v := res.First
	if v.Kind != explorer.KindSharedClone || !v.OfModel() {
		t.Fatalf("finding %s %q; want %s", v.Kind, v.Message, explorer.KindSharedClone)
	}
	for _, want := range []string{"the Clone method of *explorer_test.shallowReg shares memory with the original", "share explorer_test.shallowReg.M", "--reflective"} {
		if !strings.Contains(v.Message, want) {
			t.Errorf("finding %q lacks %q", v.Message, want)
		}
	}
	// The initial state is a Clone of the system's actor too, which the first step
	// changed: a replay from it cannot be trusted, and is not asked for.
	if len(v.Steps) != 1 {
		t.Errorf("%d steps; want the first step", len(v.Steps))
	}
	res, err = explorer.Run(context.Background(), model.System{Name: "shallow", Actors: []model.Actor{&shallowReg{M: map[string]int{}}}, Harness: harness}, explorer.Options{Reflective: true})
	if err != nil || res.First != nil {
		t.Errorf("reflective: %v, %+v; want no finding", err, res.First)
	}
	res, err = explorer.Run(context.Background(), model.System{Name: "deep", Actors: []model.Actor{&deepReg{M: map[string]int{}, Peers: []int{1, 2}}}, Harness: harness}, explorer.Options{})
	if err != nil || res.First != nil {
		t.Errorf("deep: %v, %+v; want no finding", err, res.First)
	}
}
