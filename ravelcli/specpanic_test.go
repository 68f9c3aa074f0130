package ravelcli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/register"
)

// brokenSpecSystem is DS2's correct register on one agent, checked against a register
// specification that panics on Write(2), which every history holds.
var brokenSpecSystem = System{Name: "broken-spec", Harnesses: []string{"w2"}, Agents: 1,
	Build: func(Config) (model.System, error) {
		spec := specs.Register()
		apply := spec.Apply
		spec.Apply = func(s int, in specs.RegisterInput) (int, specs.RegisterOutput) {
			if in.Write && in.Value == 2 {
				panic(fmt.Sprintf("no room for %d", in.Value))
			}
			return apply(s, in)
		}
		sys, err := register.New(1, "2r1w")
		sys.Harness = model.Clients(spec, model.Calls(0, specs.Write(1), specs.Read()), model.Calls(0, specs.Write(2)))
		return sys, err
	}}

// A user's specification that panics is reported as what it is — a bug in the
// specification, where, and on which history — with exit 2; no search claims a verdict,
// and no sampler counts a hit.
func TestCheckSpecificationPanics(t *testing.T) {
	for _, strategy := range []string{"exhaustive", "dpor", "pct"} {
		t.Run(strategy, func(t *testing.T) {
			hist := filepath.Join(t.TempDir(), "h.jsonl")
			var stdout, stderr bytes.Buffer
			code := Run([]string{"check", "broken-spec", "--strategy", strategy, "--histories", hist}, &stdout, &stderr, Systems(brokenSpecSystem))
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			for _, want := range []string{"search: stopped — the specification panicked", "no verdict: the specification panicked"} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
			for _, bad := range []string{"hit", "no violation found", "hint:"} {
				if strings.Contains(stdout.String(), bad) {
					t.Errorf("stdout says %q:\n%s", bad, stdout.String())
				}
			}
			for _, want := range []string{`specification "register" panicked: no room for 2`, "specpanic_test.go:", "a bug in the specification, not in the system", "Write(2)"} {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
			lines, err := os.ReadFile(hist)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(lines), `"verdict":"unknown"`) || strings.Contains(string(lines), "not-linearizable") {
				t.Errorf("--histories holds no unknown verdict, or a made-up violation:\n%s", lines)
			}
		})
	}
	var stdout bytes.Buffer
	Run([]string{"check", "broken-spec", "--json", "--strategy", "pct"}, &stdout, new(bytes.Buffer), Systems(brokenSpecSystem))
	var r struct {
		Unjudged int64 `json:"histories_without_verdict"`
		Complete bool  `json:"complete"`
		Sampling struct {
			Runs, Hits int64
		} `json:"sampling"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || r.Unjudged == 0 || r.Complete || r.Sampling.Runs == 0 || r.Sampling.Hits != 0 {
		t.Errorf("--json: %v; histories_without_verdict %d, complete %v, %d hits of %d runs: want some, false, and none of some",
			err, r.Unjudged, r.Complete, r.Sampling.Hits, r.Sampling.Runs)
	}
}

// The user's other code that Ravel calls outside a step: a Build that panics is exit 2
// naming the system and where it panicked; a DescribeInput that panics leaves its mark
// in the text and the search goes on to its verdict.
func TestUserCodePanics(t *testing.T) {
	build := System{Name: "panicky-build", Harnesses: []string{"h"}, Agents: 1, Build: func(Config) (model.System, error) {
		var agents map[string]int
		agents["n0"] = 1 // assignment to entry in nil map
		return model.System{}, nil
	}}
	describe := System{Name: "panicky-describe", Harnesses: []string{"2r1w"}, Agents: 3, Build: func(c Config) (model.System, error) {
		sys, err := register.NewBuggy(c.Agents, c.Harness)
		spec := specs.Register()
		spec.DescribeInput = func(specs.RegisterInput) string { panic("no words") }
		sys.Harness = model.Clients(spec, model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read()))
		return sys, err
	}}
	handler := System{Name: "panicky-handler", Harnesses: []string{"read"}, Agents: 1, Build: func(Config) (model.System, error) {
		return model.System{Name: "panicky-handler", Actors: []model.Actor{&emptyLog{}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}, nil
	}}
	noHarness := System{Name: "no-harness", Harnesses: []string{"h"}, Agents: 1, Build: func(Config) (model.System, error) {
		return model.System{Name: "no-harness", Actors: []model.Actor{&emptyLog{}}}, nil
	}}
	strayHandler := System{Name: "stray-send", Harnesses: []string{"read"}, Agents: 1, Build: func(Config) (model.System, error) {
		return model.System{Name: "stray-send", Actors: []model.Actor{&straySender{}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}, nil
	}}
	nilClone := System{Name: "nil-clone", Harnesses: []string{"read"}, Agents: 1, Build: func(Config) (model.System, error) {
		return model.System{Name: "nil-clone", Actors: []model.Actor{&unwrittenClone{}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}, nil
	}}
	for _, tc := range []struct {
		system         string
		code           int
		stdout, stderr string
	}{
		{"no-harness", exitUsage, "", "check no-harness: model: the system has no harness"},
		{"stray-send", exitViolation, "VIOLATION: a handler panicked in schedule 1: model: Send to unknown actor 9 (the system has 1) (at specpanic_test.go:", ""},
		{"nil-clone", exitUsage, "", "check nil-clone: actor n0: snapshot: (*ravelcli.unwrittenClone).Clone returned nil"},
		{"panicky-handler", exitViolation, "VIOLATION: a handler panicked in schedule 1: runtime error: index out of range [-1] (at specpanic_test.go:", ""},
		{"panicky-build", exitUsage, "", `system "panicky-build": Build panicked: assignment to entry in nil map (at specpanic_test.go:`},
		{"panicky-describe", exitViolation, "Write(1)(PANIC=DescribeInput: no words)", ""},
	} {
		t.Run(tc.system, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run([]string{"check", tc.system}, &stdout, &stderr, Systems(build, describe, handler, noHarness, strayHandler, nilClone))
			if code != tc.code || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("exit %d, want %d with %q on stdout and %q on stderr; stdout:\n%s\nstderr:\n%s", code, tc.code, tc.stdout, tc.stderr, stdout.String(), stderr.String())
			}
		})
	}
	// The saved file's replay, and both pages, say where too.
	dir := t.TempDir()
	out, page, again := filepath.Join(dir, "v.json"), filepath.Join(dir, "check.html"), filepath.Join(dir, "replay.html")
	cat := Systems(handler)
	Run([]string{"check", "panicky-handler", "--out", out, "--html", page}, new(bytes.Buffer), new(bytes.Buffer), cat)
	var stdout bytes.Buffer
	Run([]string{"replay", out, "--html", again}, &stdout, new(bytes.Buffer), cat)
	const at = "(at specpanic_test.go:"
	if !strings.Contains(stdout.String(), "VIOLATION: panic: runtime error: index out of range [-1] "+at) {
		t.Errorf("replay does not say where the handler panicked:\n%s", stdout.String())
	}
	for _, p := range []string{page, again} {
		if b, err := os.ReadFile(p); err != nil || !strings.Contains(string(b), at) {
			t.Errorf("%s: %v; the page does not say where the handler panicked", filepath.Base(p), err)
		}
	}
}

// emptyLog answers a read with the last entry of its log, which is empty.
type emptyLog struct{ Entries []int }

func (l *emptyLog) Receive(ctx *model.Ctx, env model.Envelope) {
	r := env.Msg.(model.Request[specs.RegisterInput])
	ctx.Respond(r.ID, specs.ReadOK(l.Entries[len(l.Entries)-1]))
}

// straySender sends to an actor the system does not have.
type straySender struct{}

func (straySender) Receive(ctx *model.Ctx, env model.Envelope) { ctx.Send(9, "hello") }

// unwrittenClone's Clone is not written yet.
type unwrittenClone struct{ emptyLog }

func (*unwrittenClone) Clone() model.Actor { return nil }
