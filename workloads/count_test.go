package workloads_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/workloads"
)

// TestCountMatchesGenerate is the count's oracle: on every small generator, Count says
// exactly how many workloads Generate makes.
func TestCountMatchesGenerate(t *testing.T) {
	for a := 1; a <= 3; a++ {
		for actors := 1; actors <= 3; actors++ {
			for clients := 1; clients <= 5; clients++ {
				for ops := 1; ops <= 7-a; ops++ {
					g := workloads.Generator{Clients: clients, Ops: ops, Actors: actors, Alphabet: a}
					t.Run(g.String()+fmt.Sprintf("-a%d-n%d", a, actors), func(t *testing.T) {
						n, exact := g.Count()
						if want := len(g.Generate()); n != uint64(want) || !exact {
							t.Errorf("Count() = %d, %v; Generate made %d", n, exact, want)
						}
					})
				}
			}
		}
	}
}

// generateBefore is the enumeration as it was before it pruned: every tuple of words in
// depth-first order, the canonical ones kept. Workload names index this order, so the
// files that name a workload depend on it not changing.
func generateBefore(g workloads.Generator) [][][]int {
	words := func(a, n int) [][]int {
		var out [][]int
		var cur []int
		var rec func()
		rec = func() {
			if len(cur) > 0 {
				out = append(out, slices.Clone(cur))
			}
			if len(cur) == n {
				return
			}
			for x := range a {
				cur = append(cur, x)
				rec()
				cur = cur[:len(cur)-1]
			}
		}
		rec()
		return out
	}
	less := func(a, b []int) bool {
		return len(a) < len(b) || len(a) == len(b) && slices.Compare(a, b) < 0
	}
	canonical := func(ops [][]int) bool {
		for i := g.Actors; i < len(ops); i++ {
			if less(ops[i], ops[i-g.Actors]) {
				return false
			}
		}
		return true
	}
	var out [][][]int
	var cur [][]int
	var rec func(budget int)
	rec = func(budget int) {
		if len(cur) > 0 && canonical(cur) {
			out = append(out, slices.Clone(cur))
		}
		if len(cur) == g.Clients {
			return
		}
		for _, w := range words(g.Alphabet, budget) {
			cur = append(cur, w)
			rec(budget - len(w))
			cur = cur[:len(cur)-1]
		}
	}
	rec(g.Ops)
	return out
}

func TestGenerateKeepsItsOrder(t *testing.T) {
	for _, g := range []workloads.Generator{
		{Clients: 2, Ops: 3, Actors: 3, Alphabet: 3},
		{Clients: 3, Ops: 4, Actors: 1, Alphabet: 2},
		{Clients: 4, Ops: 5, Actors: 2, Alphabet: 2},
		{Clients: 5, Ops: 6, Actors: 2, Alphabet: 1},
	} {
		t.Run(fmt.Sprintf("%s-a%d-n%d", g, g.Alphabet, g.Actors), func(t *testing.T) {
			want := generateBefore(g)
			got := g.Generate()
			if len(got) != len(want) {
				t.Fatalf("%d workloads, want %d", len(got), len(want))
			}
			for i, w := range got {
				if fmt.Sprint(w.Ops) != fmt.Sprint(want[i]) || w.Name != fmt.Sprintf("%s#%d", g, i) {
					t.Fatalf("workload %d is %s %v, want %v", i, w.Name, w.Ops, want[i])
				}
			}
		})
	}
}

// TestSizeLimit: a generator above the limits is refused before anything is generated,
// with its count in the message; the probe's all:ops=1000,clients=1000 ran a machine out
// of memory.
func TestSizeLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    workloads.Generator
		want string // "" means accepted
	}{
		{"documented", workloads.Generator{Clients: 2, Ops: 3, Actors: 3, Alphabet: 3}, ""},
		{"near the limit", workloads.Generator{Clients: 4, Ops: 9, Actors: 3, Alphabet: 2}, ""},
		{"probe", workloads.Generator{Clients: 1000, Ops: 1000, Actors: 3, Alphabet: 3},
			"all:ops=1000,clients=1000 makes more than 10^477 workloads over 3 inputs and 3 actors; the limit is 100,000: lower ops or clients"},
		{"exact count above", workloads.Generator{Clients: 2, Ops: 11, Actors: 3, Alphabet: 3},
			"all:ops=11,clients=2 makes 2,790,066 workloads over 3 inputs and 3 actors; the limit is 100,000: lower ops or clients"},
		{"one letter, long words", workloads.Generator{Clients: 1, Ops: 1_000_000_000, Actors: 3, Alphabet: 1},
			"makes more than 10^5 workloads over 1 inputs and 3 actors"},
		{"too many operations", workloads.Generator{Clients: 1, Ops: 50_000, Actors: 3, Alphabet: 1},
			"makes 50,000 workloads over 1 inputs and 3 actors of up to 50,000 operations, up to 2,500,000,000 operations in all; the limit is 10,000,000: lower ops or clients"},
		{"random", workloads.Generator{Random: true, N: 200_000, Clients: 2, Ops: 3, Actors: 3, Alphabet: 3},
			"random:n=200000,ops=3,clients=2,seed=0 makes 200,000 workloads; the limit is 100,000: lower n"},
		{"random, long", workloads.Generator{Random: true, N: 100, Clients: 2, Ops: 1_000_000, Actors: 3, Alphabet: 3},
			"the limit is 10,000,000: lower n or ops"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, err := tc.g.GenerateContext(context.Background())
			if tc.want == "" {
				if err != nil || len(ws) == 0 {
					t.Errorf("%d workloads, error %v; want some and no error", len(ws), err)
				}
				return
			}
			var se *workloads.SizeError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a SizeError containing %q", err, tc.want)
			}
			if ws != nil {
				t.Errorf("%d workloads generated, want none", len(ws))
			}
		})
	}
}

// endsLater is a context whose Err is nil the first time it is asked, and
// context.Canceled after: it ends in the middle of a generation.
type endsLater struct {
	context.Context
	asked int
}

func (c *endsLater) Err() error {
	if c.asked++; c.asked > 1 {
		return context.Canceled
	}
	return nil
}

func TestGenerateStopsWhenCancelled(t *testing.T) {
	for _, g := range []workloads.Generator{
		{Clients: 4, Ops: 9, Actors: 3, Alphabet: 2},
		{Random: true, N: 5000, Clients: 2, Ops: 3, Actors: 3, Alphabet: 3},
	} {
		t.Run(g.String(), func(t *testing.T) {
			ctx := &endsLater{Context: context.Background()}
			if ws, err := g.GenerateContext(ctx); !errors.Is(err, context.Canceled) || ws != nil {
				t.Errorf("%d workloads, error %v; want none and context.Canceled", len(ws), err)
			}
		})
	}
}
