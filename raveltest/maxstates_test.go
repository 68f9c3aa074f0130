package raveltest_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/systems/register"
)

// TestMaxStates: MaxStates bounds a cached search's states, alone, as MaxDepth bounds
// its depth; a MaxStates that finds caching off, though StateCaching(true) was given
// before an Options that turned it off, says so (probe T3: the error said only "MaxStates
// needs StateCaching", with StateCaching(true) right there).
func TestMaxStates(t *testing.T) {
	sys, err := register.New(2, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("bounds the states", func(t *testing.T) {
		r := &recorder{TB: t}
		res := raveltest.Check(r, sys, raveltest.StateCaching(true), raveltest.MaxStates(5), raveltest.Dir(t.TempDir()))
		if len(r.errors) > 0 || res == nil {
			t.Fatalf("errors %q", r.errors)
		}
		if res.Complete || res.Stats.States < 5 {
			t.Errorf("complete %v, %d states; want stopped at the state budget, 5", res.Complete, res.Stats.States)
		}
	})
	const order = "an option after it turned it off: raveltest.Options(…) sets every explorer option"
	for _, c := range []struct {
		name  string
		opts  []raveltest.Option
		order bool
	}{
		{"Options after StateCaching", []raveltest.Option{raveltest.StateCaching(true), raveltest.Options(explorer.Options{MaxStates: 200})}, true},
		{"no StateCaching", []raveltest.Option{raveltest.MaxStates(200)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{TB: t}
			raveltest.Check(r, sys, append(c.opts, raveltest.Dir(t.TempDir()))...)
			if !r.fatal || len(r.errors) != 1 || !strings.Contains(r.errors[0], "MaxStates needs StateCaching") {
				t.Fatalf("errors %q, want MaxStates's", r.errors)
			}
			if got := strings.Contains(r.errors[0], order); got != c.order {
				t.Errorf("the order named: %v, want %v:\n%s", got, c.order, r.errors[0])
			}
		})
	}
}
