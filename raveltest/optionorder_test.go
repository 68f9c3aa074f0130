package raveltest_test

import (
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/raveltest"
)

// TestOptionsApplyInOrder: of Budget and Options, the later wins, as for every other
// option (probe G12: a Budget given before Options still bounded the search).
func TestOptionsApplyInOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []raveltest.Option
		want int64
	}{
		{"budget then options", []raveltest.Option{raveltest.Budget(1), raveltest.Options(explorer.Options{})}, 3},
		{"options then budget", []raveltest.Option{raveltest.Options(explorer.Options{}), raveltest.Budget(1)}, 1},
		{"options' own budget", []raveltest.Option{raveltest.Budget(3), raveltest.Options(explorer.Options{MaxSchedules: 2})}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			res := raveltest.Check(r, cellSystem(false), append(tc.opts, raveltest.Dir(t.TempDir()))...)
			if res == nil || res.Stats.Schedules != tc.want {
				t.Fatalf("result %+v, errors %q: want %d schedules", res, r.errors, tc.want)
			}
		})
	}
}

// TestNilOptionSetsNothing: a nil Option is skipped, not a nil dereference (probe G5).
func TestNilOptionSetsNothing(t *testing.T) {
	r := &recorder{TB: t}
	if res := raveltest.Check(r, cellSystem(false), nil, raveltest.Dir(t.TempDir())); res == nil || res.Stats.Schedules != 3 {
		t.Fatalf("result %+v, errors %q", res, r.errors)
	}
}
