package ravelcli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems"
)

// Nudge is what a nagger sends on every firing of its timer; Again is the timer.
type (
	Nudge struct{}
	Again struct{}
)

// nagger is n0 re-sending a Nudge to n1 on a timer re-armed on every firing, up to
// Limit times (no limit when Limit is 0; when Limit is negative it sends nothing and
// only counts the firings, without bound); n1 answers the client's write.
type nagger struct{ Limit, Sent int }

func (n *nagger) Start(ctx *model.Ctx) {
	if ctx.Self() == 0 {
		ctx.SetTimer("again", Again{})
	}
}

func (n *nagger) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case Again:
		if n.Limit < 0 { // counting: a counter bumped on every firing, nothing sent
			n.Sent++
			ctx.SetTimer("again", Again{})
			return
		}
		if n.Limit == 0 || n.Sent < n.Limit {
			n.Sent++
			ctx.Send(1, Nudge{})
			ctx.SetTimer("again", Again{})
		}
	case model.Request[specs.RegisterInput]:
		ctx.Respond(m.ID, specs.WriteOK())
	}
}

func (n *nagger) Clone() model.Actor { c := *n; return &c }

// naggers is the nagger system: harness "forever" re-sends without bound, "twice" at
// most twice, and "counting" counts its timer's firings without bound.
var naggers = System{Name: "naggers", Harnesses: []string{"forever", "twice", "counting"}, Agents: 2, Build: func(c Config) (model.System, error) {
	limit := map[string]int{"forever": 0, "twice": 2, "counting": -1}[c.Harness]
	return model.System{Name: "naggers", Actors: []model.Actor{&nagger{Limit: limit}, &nagger{Limit: limit}},
		Harness: model.Clients(specs.Register(), model.Calls(1, specs.Write(1)))}, nil
}}

// TestCrowdHint: a search whose cut schedules end with many like messages pending
// names them (`cut_crowd` in --json) and says the protocol sends without bound; a
// protocol that bounds its re-sends completes, with no crowd and no hint.
func TestCrowdHint(t *testing.T) {
	for _, c := range []struct {
		harness, strategy, caching string
		hint                       bool
	}{
		{"forever", "exhaustive", "on", true},
		{"forever", "dpor", "on", true},
		{"twice", "exhaustive", "on", false},
		{"twice", "dpor", "on", false},
	} {
		t.Run(c.harness+"/"+c.strategy+"/caching-"+c.caching, func(t *testing.T) {
			args := []string{"check", "naggers", "--harness", c.harness, "--strategy", c.strategy, "--state-caching", c.caching, "--max-schedules", "0", "--max-depth", "40"}
			var stdout, stderr bytes.Buffer
			Run(append(args, "--json"), &stdout, &stderr, Systems(naggers))
			var r struct {
				Complete bool       `json:"complete"`
				Crowd    *crowdJSON `json:"cut_crowd"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
				t.Fatalf("%v: %s", err, stderr.String())
			}
			if c.hint != (r.Crowd != nil && r.Crowd.Count >= crowdHintCount) || c.hint == r.Complete {
				t.Fatalf("complete %v, crowd %+v; want a crowd of %d or more: %v", r.Complete, r.Crowd, crowdHintCount, c.hint)
			}
			stdout.Reset()
			Run(args, &stdout, &stderr, Systems(naggers))
			want := "ravelcli.Nudge from n0 to n1 pending"
			if got := strings.Contains(stdout.String(), want); got != c.hint {
				t.Errorf("%q printed: %v, want %v\n%s", want, got, c.hint, stdout.String())
			}
			if c.hint && strings.Contains(stdout.String(), "hint: --strategy") {
				t.Errorf("the hint to a search that completes beside the crowd's:\n%s", stdout.String())
			}
		})
	}
}

// TestShippedSystemsDoNotCrowd: cut short (--max-depth 12), with duplicates and
// timeouts, no shipped system's cut schedules hold as many like messages as make check
// say a protocol sends without bound.
func TestShippedSystemsDoNotCrowd(t *testing.T) {
	for _, name := range systems.Names() {
		cut := false
		for _, faults := range [][]string{nil, {"--duplicate", "2"}, {"--timeouts", "2"}} {
			args := append([]string{"check", name, "--max-depth", "12", "--max-schedules", "3000", "--json"}, faults...)
			var stdout, stderr bytes.Buffer
			Run(args, &stdout, &stderr, Builtins())
			var r struct {
				Cut   int64      `json:"cut_schedules"`
				Crowd *crowdJSON `json:"cut_crowd"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
				t.Fatalf("%v: %v: %s", args, err, stderr.String())
			}
			if r.Crowd != nil && r.Crowd.Count >= crowdHintCount {
				t.Errorf("%v: %+v", args, *r.Crowd)
			}
			if r.Cut > 0 && r.Crowd == nil {
				t.Errorf("%v: %d schedules cut, no crowd", args, r.Cut)
			}
			cut = cut || r.Cut > 0
		}
		if !cut {
			t.Errorf("%s: no schedule cut at depth 12: the test checks nothing there", name)
		}
	}
}
