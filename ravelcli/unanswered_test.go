package ravelcli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/internal/buggysys"
	"github.com/ravelmc/ravel/model"
)

var deafSystem = System{Name: "deaf", Harnesses: []string{"w1r"}, Agents: 2,
	Build: func(c Config) (model.System, error) {
		return buggysys.DeafSystem(), nil
	}}

// TestCheckSaysNoOperationWasAnswered: a clean check in which no operation was ever
// answered says, in a note, that nothing was checked and which request type the actors
// were sent (probe G11: the report was a plain "no violation found").
func TestCheckSaysNoOperationWasAnswered(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"check", "deaf"}, &stdout, &stderr, Systems(deafSystem)); code != exitOK {
		t.Fatalf("exit %d; stderr %s", code, stderr.String())
	}
	for _, want := range []string{"note: no operation was answered in any of the", "nothing was checked", "model.Request[specs.RegisterInput]"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	if code := Run([]string{"check", "deaf", "--json"}, &stdout, &stderr, Systems(deafSystem)); code != exitOK {
		t.Fatalf("exit %d; stderr %s", code, stderr.String())
	}
	var r struct {
		Answered *int64   `json:"operations_answered"`
		Notes    []string `json:"notes"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Answered == nil || *r.Answered != 0 || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "no operation was answered") {
		t.Errorf("JSON operations_answered %v, notes %q", r.Answered, r.Notes)
	}
}
