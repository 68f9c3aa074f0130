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
