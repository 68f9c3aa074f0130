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

// valueCounter counts in a value receiver: the count is lost, and its Start, on the
// pointer, is never called.
type valueCounter struct{ N int }

func (c valueCounter) Receive(*model.Ctx, model.Envelope) { c.N++ }
func (c *valueCounter) Start(*model.Ctx)                  {}

// valueRestarter, valueCloner and valueHasher have one pointer method each that Ravel
// looks for.
type (
	valueRestarter struct{ N int }
	valueCloner    struct{ N int }
	valueHasher    struct{ N int }
)

func (valueRestarter) Receive(*model.Ctx, model.Envelope) {}
func (r *valueRestarter) Restart() model.Actor            { return &valueRestarter{} }
func (valueCloner) Receive(*model.Ctx, model.Envelope)    {}
func (c *valueCloner) Clone() model.Actor                 { return &valueCloner{N: c.N} }
func (valueHasher) Receive(*model.Ctx, model.Envelope)    {}
func (h *valueHasher) HashState(hs *model.Hasher)         { hs.Int(h.N) }

// echo is a stateless value actor with a helper on its pointer that Ravel does not look
// for; valueStarter has its Start on the value. Both are valid.
type (
	echo         struct{ Peer model.ID }
	valueStarter struct{}
)

func (e echo) Receive(*model.Ctx, model.Envelope)       {}
func (e *echo) String() string                          { return "echo" }
func (valueStarter) Receive(*model.Ctx, model.Envelope) {}
func (valueStarter) Start(*model.Ctx)                   {}

// TestValidateRefusesValueActorsMeantAsPointers: an actor given as a value whose Start,
// Restart, Clone or HashState is on its pointer type is refused, naming the method and
// saying to pass a pointer: given as a value, it loses the method, and its handlers
// change a copy (API probe, N2). Other value actors, stateless or configured, and the
// same types given as pointers, pass.
func TestValidateRefusesValueActorsMeantAsPointers(t *testing.T) {
	for _, c := range []struct {
		name  string
		actor model.Actor
		want  string // "" for none
	}{
		{"Start", valueCounter{}, `system "s": actor 0 is a model_test.valueCounter value, but its Start method is on *model_test.valueCounter, so Ravel would never call it: pass &model_test.valueCounter{…} (an actor that keeps state must be a pointer)`},
		{"Restart", valueRestarter{}, "its Restart method is on *model_test.valueRestarter"},
		{"Clone", valueCloner{}, "its Clone method is on *model_test.valueCloner"},
		{"HashState", valueHasher{}, "its HashState method is on *model_test.valueHasher"},
		{"pointer", &valueCounter{}, ""},
		{"stateless value", echo{}, ""},
		{"value with value methods", valueStarter{}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys := model.System{Name: "s", Actors: []model.Actor{c.actor}, Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}
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
