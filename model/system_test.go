package model_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

type quiet struct{ N int }

func (q *quiet) Receive(*model.Ctx, model.Envelope) {}

// TestValidateRefusesMissingActors: no actors, a nil actor and a nil pointer of an actor
// type (which Validate let through, to fail as a nil dereference "in the user's
// handler": API probe, N2) are each told in one line; a system of real actors passes.
func TestValidateRefusesMissingActors(t *testing.T) {
	var nilQuiet *quiet
	for _, c := range []struct {
		name   string
		actors []model.Actor
		want   string // "" for none
	}{
		{"none", nil, `system "s" has no actors`},
		{"nil", []model.Actor{&quiet{}, nil}, `system "s": actor 1 is nil`},
		{"nil pointer", []model.Actor{nilQuiet}, `system "s": actor 0 is a nil *model_test.quiet`},
		{"actors", []model.Actor{&quiet{}, &quiet{}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys := model.System{Name: "s", Actors: c.actors, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}
			err := sys.Validate()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Validate: %v, want nil", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("Validate: %v, want %q", err, c.want)
			}
		})
	}
}
