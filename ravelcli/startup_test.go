package ravelcli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
)

// startRefuser is an actor whose n1 fails an assertion ("fail") or panics ("panic") in
// Start, before any step (probe M6, after its lazyreg startfail and startpanic).
type startRefuser struct{ How string }

func (s *startRefuser) Start(ctx *model.Ctx) {
	if ctx.Self() != 1 {
		return
	}
	if s.How == "panic" {
		panic("n1 cannot start")
	}
	ctx.Fail("n1 refuses to start")
}

func (s *startRefuser) Receive(ctx *model.Ctx, env model.Envelope) {
	if m, ok := env.Msg.(model.Request[specs.RegisterInput]); ok {
		ctx.Respond(m.ID, specs.WriteOK())
	}
}

var startRefusers = System{
	Name:      "start-refuser",
	Summary:   "n1 fails or panics in Start",
	Harnesses: []string{"fail", "panic"},
	Agents:    2,
	Build: func(c Config) (model.System, error) {
		if c.Harness != "fail" && c.Harness != "panic" {
			return model.System{}, fmt.Errorf("start-refuser: harness %q: want fail or panic", c.Harness)
		}
		return model.System{Name: "start-refuser", Actors: []model.Actor{&startRefuser{How: c.Harness}, &startRefuser{How: c.Harness}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Write(1)))}, nil
	},
}

// TestStartUpViolation: a violation at start-up is told as such, "at start-up, before any
// step", not as schedule 1 with an empty history, events and schedule under three
// headings, by check and by replay of its file.
func TestStartUpViolation(t *testing.T) {
	for _, c := range []struct{ harness, verdict string }{
		{"fail", "VIOLATION: at start-up, before any step: n1 failed an assertion: n1 refuses to start"},
		{"panic", "VIOLATION: a handler panicked at start-up, before any step: "},
	} {
		t.Run(c.harness, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "v.json")
			catalog := []Option{Systems(startRefusers)}
			code, checkOut, stderr := runWith(catalog, "check", "start-refuser", "--harness", c.harness, "--quiet", "--out", out)
			if code != exitViolation {
				t.Fatalf("check: exit %d\n%s\n%s", code, checkOut, stderr)
			}
			code, replayOut, stderr := runWith(catalog, "replay", out)
			if code != exitViolation {
				t.Fatalf("replay: exit %d\n%s\n%s", code, replayOut, stderr)
			}
			for _, o := range []struct{ name, text, verdict string }{
				{"check", checkOut, c.verdict},
				{"replay", replayOut, "VIOLATION: "},
			} {
				if !strings.Contains(o.text, o.verdict) || !strings.Contains(o.text, report.StartUp) || strings.Contains(o.text, "history (each operation") {
					t.Errorf("%s: want %q and %q, and no empty history section:\n%s", o.name, o.verdict, report.StartUp, o.text)
				}
			}
		})
	}
}
