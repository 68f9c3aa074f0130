package ravelcli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
)

// bareCell is one key of a key-value map, held by one actor, with no Clone method:
// Ravel copies it by reflection.
type bareCell struct{ V string }

func (c *bareCell) Receive(ctx *model.Ctx, env model.Envelope) {
	r := env.Msg.(model.Request[specs.KVInput])
	if r.Input.Op == specs.KVPut {
		c.V = r.Input.Value
		ctx.Respond(r.ID, specs.KVOutput{})
		return
	}
	ctx.Respond(r.ID, specs.KVOutput{Value: c.V})
}

// clonedCell is a bareCell with a Clone method.
type clonedCell struct{ Cell bareCell }

func (c *clonedCell) Receive(ctx *model.Ctx, env model.Envelope) { c.Cell.Receive(ctx, env) }

func (c *clonedCell) Clone() model.Actor { d := *c; return &d }

// cellSystem is two cells, one of each kind, each under a client that writes its key
// and reads it back.
var cellSystem = System{Name: "cells", Harnesses: []string{"wr"}, Agents: 2, Build: func(Config) (model.System, error) {
	return model.System{Name: "cells", Actors: []model.Actor{&bareCell{}, &clonedCell{}},
		Harness: model.Clients(specs.KV(),
			model.Calls(0, specs.Put("a", "1"), specs.Get("a")), model.Calls(1, specs.Put("b", "2"), specs.Get("b")))}, nil
}}

// TestCopyHint: check names the actor types it copied by reflection (`reflective_copies`
// in --json: those without a Clone method, or all with --reflective), and once a search
// is long enough to feel it, suggests the method; not when the user asked for
// --reflective, and not below the threshold.
func TestCopyHint(t *testing.T) {
	for _, c := range []struct {
		name      string
		args      []string
		threshold int64
		copies    []string
		hint      bool
	}{
		{"long search", nil, 1, []string{"*ravelcli.bareCell"}, true},
		{"short search", nil, 1 << 40, []string{"*ravelcli.bareCell"}, false},
		{"reflective asked for", []string{"--reflective"}, 1, []string{"*ravelcli.bareCell", "*ravelcli.clonedCell"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := copyHintSteps
			copyHintSteps = c.threshold
			t.Cleanup(func() { copyHintSteps = old })
			args := append([]string{"check", "cells", "--max-schedules", "0"}, c.args...)
			var stdout, stderr bytes.Buffer
			if code := Run(append(args, "--json"), &stdout, &stderr, Systems(cellSystem)); code != exitOK {
				t.Fatalf("exit %d: %s%s", code, stderr.String(), stdout.String())
			}
			var r struct {
				Steps  int64    `json:"steps"`
				Copies []string `json:"reflective_copies"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(r.Copies, " "), strings.Join(c.copies, " "); got != want {
				t.Errorf("reflective_copies %q, want %q", got, want)
			}
			stdout.Reset()
			if code := Run(args, &stdout, &stderr, Systems(cellSystem)); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			want := "hint: *ravelcli.bareCell has no Clone() model.Actor method, so each of the " + report.Thousands(r.Steps) + " steps copied it by reflection"
			if got := strings.Contains(stdout.String(), "no Clone() model.Actor method"); got != c.hint {
				t.Errorf("a hint printed: %v, want %v\n%s", got, c.hint, stdout.String())
			}
			if c.hint && !strings.Contains(stdout.String(), want) {
				t.Errorf("no line %q in\n%s", want, stdout.String())
			}
		})
	}
}

// TestCopyHintWording: one type has no method and is copied as "it"; several have none.
func TestCopyHintWording(t *testing.T) {
	r := checkReport{Steps: 60_000, ReflectiveCopies: []string{"*a.X", "*b.Y"}}
	if got, want := copyHint(r), "hint: *a.X, *b.Y have no Clone() model.Actor method, so each of the 60,000 steps copied them by reflection"; !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want it to start %q", got, want)
	}
	if got := copyHint(checkReport{Steps: 60_000}); got != "" {
		t.Errorf("every actor with Clone: got %q, want none", got)
	}
}

// TestCopyHintWhenCopiesAreSlow: a short search whose reflective copies are slow (a
// megabyte []byte: 0.6 s each) got no hint, keyed on 50,000 steps only (state probe,
// H5). The copy's time is measured by the search and given here.
func TestCopyHintWhenCopiesAreSlow(t *testing.T) {
	r := checkReport{Steps: 8, ReflectiveCopies: []string{"*odd.Big"}, copyEach: 600 * time.Millisecond}
	if got, want := copyHint(r), "hint: *odd.Big has no Clone() model.Actor method, so each of the 8 steps copied it by reflection (copystructure, about 600ms a copy)"; !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want it to start %q", got, want)
	}
	r.copyEach = 20 * time.Microsecond
	if got := copyHint(r); got != "" {
		t.Errorf("fast copies in a short search: got %q, want none", got)
	}
}
