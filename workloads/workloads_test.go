package workloads_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems/register"
	"github.com/ravelmc/ravel/workloads"
)

func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

func pow(a, m int) int {
	r := 1
	for range m {
		r *= a
	}
	return r
}

// distinctTargets is the count when no two clients share an actor: c nonempty words of
// total length m over a letters number C(m-1, c-1)·a^m.
func distinctTargets(a, clients, ops int) int {
	n := 0
	for c := 1; c <= clients; c++ {
		for m := c; m <= ops; m++ {
			n += binom(m-1, c-1) * pow(a, m)
		}
	}
	return n
}

// twoSymmetric is the count for two clients on one actor: one word, or an unordered pair
// of words ((ordered pairs + equal pairs) / 2).
func twoSymmetric(a, ops int) int {
	one, ordered, equal := 0, 0, 0
	for m := 1; m <= ops; m++ {
		one += pow(a, m)
		ordered += (m - 1) * pow(a, m)
	}
	for l := 1; 2*l <= ops; l++ {
		equal += pow(a, l)
	}
	return one + (ordered+equal)/2
}

func TestEnumerationCountsMatchClosedForms(t *testing.T) {
	for _, tc := range []struct {
		a, clients, ops, actors int
		want                    int
	}{
		{1, 1, 1, 1, 1},
		{2, 1, 3, 1, 2 + 4 + 8},
		{3, 2, 3, 2, distinctTargets(3, 2, 3)},
		{2, 3, 4, 3, distinctTargets(2, 3, 4)},
		{2, 3, 4, 5, distinctTargets(2, 3, 4)},
		{2, 2, 4, 1, twoSymmetric(2, 4)},
		{3, 2, 3, 1, twoSymmetric(3, 3)},
	} {
		t.Run(fmt.Sprintf("a%d-c%d-k%d-n%d", tc.a, tc.clients, tc.ops, tc.actors), func(t *testing.T) {
			g := workloads.Generator{Clients: tc.clients, Ops: tc.ops, Actors: tc.actors, Alphabet: tc.a}
			if got := len(g.Generate()); got != tc.want {
				t.Errorf("got %d workloads, want %d", got, tc.want)
			}
		})
	}
}

// key is a workload up to permutations of the clients of one actor: the brute-force
// oracle of the symmetry reduction.
func key(ops [][]int, actors int) string {
	classes := make([][]string, actors)
	for c, l := range ops {
		classes[c%actors] = append(classes[c%actors], fmt.Sprint(l))
	}
	for _, cl := range classes {
		slices.Sort(cl)
	}
	return fmt.Sprint(len(ops), classes)
}

func TestEnumerationIsOnePerSymmetryClass(t *testing.T) {
	// Brute force: every tuple of words, grouped by symmetry class, against the
	// enumeration with actors=clients (no symmetry, so every tuple) and with fewer.
	for _, actors := range []int{1, 2} {
		all := workloads.Generator{Clients: 3, Ops: 4, Actors: 3, Alphabet: 2}.Generate()
		classes := map[string]bool{}
		for _, w := range all {
			classes[key(w.Ops, actors)] = true
		}
		got := workloads.Generator{Clients: 3, Ops: 4, Actors: actors, Alphabet: 2}.Generate()
		seen := map[string]bool{}
		for _, w := range got {
			k := key(w.Ops, actors)
			if seen[k] {
				t.Errorf("actors %d: two workloads in class %s", actors, k)
			}
			seen[k] = true
		}
		if len(seen) != len(classes) {
			t.Errorf("actors %d: %d classes enumerated, want %d", actors, len(seen), len(classes))
		}
	}
}

func TestRandomIsSeededAndBounded(t *testing.T) {
	g := workloads.Generator{Random: true, N: 50, Seed: 7, Clients: 3, Ops: 4, Actors: 2, Alphabet: 3}
	a, b := g.Generate(), g.Generate()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("same seed, different workloads")
	}
	g.Seed = 8
	if fmt.Sprint(a) == fmt.Sprint(g.Generate()) {
		t.Errorf("different seeds, same workloads")
	}
	for _, w := range a {
		n := 0
		for _, l := range w.Ops {
			if len(l) == 0 {
				t.Errorf("%s: a client without operations", w.Name)
			}
			n += len(l)
		}
		if len(w.Ops) > 3 || n > 4 {
			t.Errorf("%s: %d clients, %d operations; want at most 3 and 4", w.Name, len(w.Ops), n)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"all:ops=3,clients=2", "all:ops=3,clients=2", ""},
		{"all", "all:ops=3,clients=2", ""},
		{"random:n=20,ops=4,clients=3,seed=9", "random:n=20,ops=4,clients=3,seed=9", ""},
		{"some", "", "want all:"},
		{"all:ops=0", "", "ops must be at least 1"},
		{"all:ops=2,clients=2,ops=3", "", "ops given twice"},
		{"all:n=3", "", "bad key"},
		{"all:ops=x", "", "not key=integer"},
	} {
		g, err := workloads.Parse(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Parse(%q): error %v, want one containing %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || g.String() != tc.want):
			t.Errorf("Parse(%q) = %s, %v; want %s", tc.in, g, err, tc.want)
		}
	}
}

func TestRegisterBuggyFailsOnAGeneratedWorkload(t *testing.T) {
	for _, tc := range []struct {
		name  string
		buggy bool
	}{{"register", false}, {"register-buggy", true}} {
		t.Run(tc.name, func(t *testing.T) {
			build := register.New
			agents := 2
			if tc.buggy {
				build, agents = register.NewBuggy, 3
			}
			sys, err := build(agents, "2r2w")
			if err != nil {
				t.Fatal(err)
			}
			alphabet := sys.Harness.Alphabet()
			ws := workloads.Generator{Clients: 2, Ops: 3, Actors: agents, Alphabet: len(alphabet)}.Generate()
			// The correct register is explored completely under every workload; the buggy
			// one needs only enough schedules to fail.
			opts := explorer.Options{MaxSchedules: explorer.Unlimited}
			if tc.buggy {
				opts.MaxSchedules = 500
			}
			out, err := workloads.Check(context.Background(), sys, ws, alphabet, opts)
			if err != nil {
				t.Fatal(err)
			}
			if tc.buggy {
				if out.Failing == nil {
					t.Fatalf("no failing workload among %d", out.Checked)
				}
				t.Logf("fails on %s: %s", out.Failing.Name, out.Failing.Describe(&out.System, alphabet))
				// The oracle: the failing schedule replayed statelessly on the system
				// under that workload gives the same history.
				ids := make([]uint64, len(out.Result.First.Steps))
				for i, d := range out.Result.First.Steps {
					ids[i] = d.ID
				}
				ex, err := explorer.Replay(out.System, ids, false)
				if err != nil || len(ex.Events) != len(out.Result.First.Events) {
					t.Errorf("replay: %v", err)
				}
				return
			}
			if out.Failing != nil || out.Checked != len(ws) || out.Complete != len(ws) {
				t.Errorf("register: failing %v, checked %d, complete %d of %d", out.Failing, out.Checked, out.Complete, len(ws))
			}
		})
	}
}

// TestValidate: a Generator whose counts make no workload — a zero or negative Ops or
// Clients, a random one without N — is refused by GenerateContext, ForContext and
// Lookup with Parse's words, and Check refuses an empty list of workloads (probe: each
// such Generator made no workload, and raveltest.Workloads passed a buggy system having
// checked nothing).
func TestValidate(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		g    workloads.Generator
		want string
	}{
		{workloads.Generator{Clients: 0, Ops: 3}, "workloads all:ops=3,clients=0: clients must be at least 1, got 0"},
		{workloads.Generator{Clients: 2, Ops: 0}, "workloads all:ops=0,clients=2: ops must be at least 1, got 0"},
		{workloads.Generator{}, "workloads all:ops=0,clients=0: ops must be at least 1, got 0"},
		{workloads.Generator{Clients: -1, Ops: -1}, "workloads all:ops=-1,clients=-1: ops must be at least 1, got -1"},
		{workloads.Generator{Random: true, Clients: 2, Ops: 3}, "workloads random:n=0,ops=3,clients=2,seed=0: n must be at least 1, got 0"},
		{workloads.Generator{Random: true, N: -5, Clients: 2, Ops: 3}, "n must be at least 1, got -5"},
		{workloads.Generator{Random: true, N: 5, Clients: 2, Ops: 0}, "ops must be at least 1, got 0"},
	} {
		t.Run(tc.g.String(), func(t *testing.T) {
			if err := tc.g.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate: %v, want %q", err, tc.want)
			}
			ws, err := tc.g.ForContext(context.Background(), &sys)
			if err == nil || !strings.Contains(err.Error(), tc.want) || ws != nil {
				t.Errorf("ForContext: %d workloads, %v; want none and %q", len(ws), err, tc.want)
			}
			if ws := tc.g.For(&sys); len(ws) != 0 {
				t.Errorf("For made %d workloads", len(ws))
			}
		})
	}
	// The command line's words are the same.
	if _, err := workloads.Parse("all:ops=0"); err == nil || !strings.HasSuffix(err.Error(), ": ops must be at least 1, got 0") {
		t.Errorf("Parse: %v", err)
	}
	if _, _, err := workloads.Lookup(sys, "random:n=0#0"); err == nil || !strings.Contains(err.Error(), "n must be at least 1, got 0") {
		t.Errorf("Lookup: %v", err)
	}
	if out, err := workloads.Check(context.Background(), sys, nil, nil, explorer.Options{}); err == nil || !strings.Contains(err.Error(), "no workload to check") {
		t.Errorf("Check of no workload: %+v, %v; want an error", out, err)
	}
}

// TestValidateAlphabet: a Generator literal without Alphabet — the README's, used without
// Over — makes no workload, and Validate says so instead of nil (probe G3); Over fills it.
func TestValidateAlphabet(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []workloads.Generator{{Clients: 2, Ops: 2}, {Random: true, N: 3, Clients: 2, Ops: 2}} {
		if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "alphabet must be at least 1, got 0") {
			t.Errorf("%s: Validate = %v, want the missing alphabet", g, err)
		}
		if _, err := g.GenerateContext(context.Background()); err == nil {
			t.Errorf("%s: GenerateContext made no workload without an error", g)
		}
		if err := g.Over(&sys).Validate(); err != nil {
			t.Errorf("%s: Over(sys).Validate = %v", g, err)
		}
	}
}
