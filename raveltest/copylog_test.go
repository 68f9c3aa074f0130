package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
)

// clonedCell is a cell with a Clone method.
type clonedCell struct{ cell }

func (c *clonedCell) Clone() model.Actor { d := *c; return &d }

// TestLogsReflectiveCopies: Check logs (seen with -v, or when the test fails) the actor
// types each step copied by reflection; not when every actor has a Clone method, nor
// when the test asked for the reflective copy.
func TestLogsReflectiveCopies(t *testing.T) {
	cloned := cellSystem(false)
	cloned.Actors = []model.Actor{&clonedCell{}}
	for _, c := range []struct {
		name string
		sys  model.System
		opts []raveltest.Option
		want string
	}{
		{"no Clone method", cellSystem(false), nil, "raveltest: cell: *raveltest_test.cell copied by reflection at each of the "},
		{"a Clone method", cloned, nil, ""},
		{"reflective asked for", cellSystem(false), []raveltest.Option{raveltest.Options(explorer.Options{Reflective: true})}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{TB: t}
			res := raveltest.Check(r, c.sys, append(c.opts, raveltest.Dir(t.TempDir()))...)
			if r.Failed() || res == nil || res.Stats.Steps == 0 {
				t.Fatalf("errors %q, result %+v", r.errors, res)
			}
			got := ""
			for _, l := range r.logs {
				if strings.Contains(l, "copied by reflection") {
					got = l
				}
			}
			if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
				t.Errorf("log %q, want one starting %q", got, c.want)
			}
		})
	}
}
