// Package workloads generates harnesses from a specification's operations: every workload
// of up to K operations over up to C clients on a small alphabet of inputs (exhaustive,
// with duplicates under client symmetry removed), or N random ones from a seed. A
// hand-written harness tests what its author thought of; generated ones test the rest.
package workloads

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
)

// Workload is what the clients do: client c invokes, one after another, the inputs of
// the alphabet numbered Ops[c], on actor c mod the number of actors.
type Workload struct {
	// Name identifies the workload within its generator: "all:ops=3,clients=2#17".
	Name string
	// Ops[c] are client c's operations, as indices into the alphabet.
	Ops [][]int
}

// Generator says which workloads to generate.
type Generator struct {
	// Random generates N random workloads from Seed; false enumerates every one.
	Random bool
	N      int
	Seed   int64
	// Clients bounds the number of clients, Ops the total number of operations.
	Clients, Ops int
	// Actors is the number of actors the clients are spread over (client c targets actor
	// c mod Actors); clients of one actor are interchangeable, which the enumeration uses
	// to drop duplicates. 0 counts as 1. Over and For set it from a system.
	Actors int
	// Alphabet is the number of distinct inputs, at least 1: Validate refuses 0, of which
	// no workload is made. Over and For set it from a system's harness; a Generator
	// literal given to Generate, Count or CheckSize must set it.
	Alphabet int
}

// String is the generator in Parse's syntax.
func (g Generator) String() string {
	if g.Random {
		return fmt.Sprintf("random:n=%d,ops=%d,clients=%d,seed=%d", g.N, g.Ops, g.Clients, g.Seed)
	}
	return fmt.Sprintf("all:ops=%d,clients=%d", g.Ops, g.Clients)
}

// Syntax documents Parse's input, for --help.
const Syntax = `all:ops=K,clients=C (every workload of up to K operations over up to C clients) or random:n=N,ops=K,clients=C,seed=S (N random ones); the operations are the harness's distinct inputs`

// Parse reads "all:ops=3,clients=2" or "random:n=200,ops=4,clients=3,seed=1"; Actors and
// Alphabet are left for the caller. Missing keys default to ops=3, clients=2, n=100,
// seed=1.
func Parse(s string) (Generator, error) {
	kind, rest, _ := strings.Cut(s, ":")
	g := Generator{Ops: 3, Clients: 2, N: 100, Seed: 1}
	switch kind {
	case "all":
	case "random":
		g.Random = true
	default:
		return g, fmt.Errorf("workloads %q: want all:… or random:… (%s)", s, Syntax)
	}
	if rest != "" {
		seen := map[string]bool{}
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			n, err := strconv.ParseInt(v, 10, 64)
			if !ok || err != nil {
				return g, fmt.Errorf("workloads %q: %q is not key=integer", s, kv)
			}
			counts := k == "ops" || k == "clients" || k == "n" && g.Random
			switch {
			case seen[k]:
				// The last would win without a word, and the user may have meant either.
				return g, fmt.Errorf("workloads %q: %s given twice", s, k)
			case counts && n < 1:
				return g, fmt.Errorf("workloads %q: %w", s, atLeastOne(k, n))
			}
			seen[k] = true
			switch {
			case k == "ops" && n >= 1:
				g.Ops = int(n)
			case k == "clients" && n >= 1:
				g.Clients = int(n)
			case k == "n" && g.Random && n >= 1:
				g.N = int(n)
			case k == "seed" && g.Random:
				g.Seed = n
			default:
				return g, fmt.Errorf("workloads %q: bad key or value %q (%s)", s, kv, Syntax)
			}
		}
	}
	return g, nil
}

// Validate refuses a generator that makes no workload: Ops or Clients below 1, or, for
// a random one, N below 1 (a Generator's zero fields are not Parse's defaults), or
// Alphabet below 1 (a Generator Over or For has not filled in, or a harness without
// inputs). Its
// error names the generator and the field with Parse's words: "workloads
// random:n=0,ops=3,clients=2,seed=0: n must be at least 1, got 0". GenerateContext,
// ForContext and Lookup call it.
func (g Generator) Validate() error {
	var err error
	switch {
	case g.Ops < 1:
		err = atLeastOne("ops", int64(g.Ops))
	case g.Clients < 1:
		err = atLeastOne("clients", int64(g.Clients))
	case g.Random && g.N < 1:
		err = atLeastOne("n", int64(g.N))
	case g.Alphabet < 1:
		err = fmt.Errorf("%w (the number of distinct inputs: Over and For take it from a system's harness)", atLeastOne("alphabet", int64(g.Alphabet)))
	default:
		return nil
	}
	return fmt.Errorf("workloads %s: %w", g, err)
}

// atLeastOne is the refusal of a count below 1, for Parse and Validate alike.
func atLeastOne(key string, n int64) error {
	return fmt.Errorf("%s must be at least 1, got %d", key, n)
}

// Generate lists the workloads, in a fixed order; none when g is not valid (Validate).
// It holds them all in memory and has no size limit: for a generator read from input,
// call CheckSize first, or use GenerateContext, which does.
func (g Generator) Generate() []Workload {
	ws, _ := g.generate(context.Background()) // a background context never ends
	return ws
}

// GenerateContext is Generate for a generator that may come from input: it returns
// Validate's error for a generator that makes no workload, a *SizeError, before
// generating anything, when g makes more than MaxWorkloads workloads or MaxOperations
// operations, and ctx's error when ctx ends first.
func (g Generator) GenerateContext(ctx context.Context) ([]Workload, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if err := g.CheckSize(); err != nil {
		return nil, err
	}
	return g.generate(ctx)
}

// generate is Generate, stopping with ctx's error when ctx ends.
func (g Generator) generate(ctx context.Context) ([]Workload, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if g.Actors < 1 {
		g.Actors = 1
	}
	if g.Random {
		var out []Workload
		r := rand.New(rand.NewPCG(uint64(g.Seed), 0x7261766c))
		for i := range g.N {
			if i%1024 == 1023 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			c := 1 + r.IntN(min(g.Clients, g.Ops))
			m := c + r.IntN(g.Ops-c+1)
			ops := make([][]int, c)
			for k := range m {
				cl := k // every client gets one operation, the rest go anywhere
				if k >= c {
					cl = r.IntN(c)
				}
				ops[cl] = append(ops[cl], r.IntN(g.Alphabet))
			}
			out = append(out, Workload{Name: g.name(i), Ops: ops})
		}
		return out, nil
	}
	e := &enumeration{g: g, ctx: ctx}
	if e.clients(g.Ops); e.err != nil {
		return nil, e.err
	}
	return e.out, nil
}

func (g Generator) name(i int) string { return g.String() + "#" + strconv.Itoa(i) }

// enumeration lists the workloads of an exhaustive generator: the clients' words, each
// nonempty and in the order of a depth-first walk (a word before its extensions), the
// whole within the budget of operations. Only canonical workloads are visited: a client
// whose word would sort before that of the previous client of its actor is skipped with
// everything after it, since no extension of a workload that is not canonical is.
type enumeration struct {
	g      Generator
	ctx    context.Context
	cur    [][]int // the clients' words so far
	out    []Workload
	err    error
	visits int
}

// clients emits the current workload, then extends it by one more client's word within
// budget operations; false means stop (ctx ended).
func (e *enumeration) clients(budget int) bool {
	if len(e.cur) > 0 {
		ops := make([][]int, len(e.cur))
		for i, l := range e.cur {
			ops[i] = slices.Clone(l)
		}
		e.out = append(e.out, Workload{Name: e.g.name(len(e.out)), Ops: ops})
	}
	if len(e.cur) >= e.g.Clients || budget < 1 {
		return true
	}
	var prev []int // the previous client of the new client's actor
	if i := len(e.cur); i >= e.g.Actors {
		prev = e.cur[i-e.g.Actors]
		if len(prev) > budget {
			return true // every word within budget sorts before prev
		}
	}
	e.cur = append(e.cur, nil)
	ok := e.words(make([]int, 0, budget), budget, prev)
	e.cur = e.cur[:len(e.cur)-1]
	return ok
}

// words walks the extensions of w of at most budget letters, depth first, giving each
// that does not sort before prev to the last client.
func (e *enumeration) words(w []int, budget int, prev []int) bool {
	for x := range e.g.Alphabet {
		if e.visits++; e.visits%4096 == 0 && e.ctx.Err() != nil {
			e.err = e.ctx.Err()
			return false
		}
		w := append(w, x)
		if prev == nil || compare(prev, w) <= 0 {
			e.cur[len(e.cur)-1] = w
			if !e.clients(budget - len(w)) {
				return false
			}
		}
		if len(w) < budget && !e.words(w, budget, prev) {
			return false
		}
	}
	return true
}

func compare(a, b []int) int {
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c
	}
	return slices.Compare(a, b)
}

// Apply returns sys with its harness replaced by w's, over the alphabet.
func (w Workload) Apply(sys model.System, alphabet []any) (model.System, error) {
	targets := make([]model.ID, len(w.Ops))
	ops := make([][]any, len(w.Ops))
	for c, l := range w.Ops {
		targets[c] = model.ID(c % len(sys.Actors))
		for _, x := range l {
			if x < 0 || x >= len(alphabet) {
				return sys, fmt.Errorf("workload %s: operation %d is outside the alphabet of %d", w.Name, x, len(alphabet))
			}
			ops[c] = append(ops[c], alphabet[x])
		}
	}
	h, err := sys.Harness.WithClients(targets, ops)
	if err != nil {
		return sys, err
	}
	sys.Harness = h
	return sys, nil
}

// Describe writes w's operations: "c0 → n0: Write(1) Read(); c1 → n1: Read()". The
// alphabet must be the one w was generated over (the original harness's, as in For and
// Check), not that of the system w.Apply returns, which lists only the inputs w uses.
// Describe panics on an operation outside the alphabet, which Apply refuses with an
// error.
func (w Workload) Describe(sys *model.System, alphabet []any) string {
	spec := sys.Harness.Spec()
	parts := make([]string, len(w.Ops))
	for c, l := range w.Ops {
		in := make([]string, len(l))
		for k, x := range l {
			in[k] = spec.Input(alphabet[x])
		}
		parts[c] = fmt.Sprintf("%s → %s: %s", sys.ActorName(model.ClientID(c)), sys.ActorName(model.ID(c%len(sys.Actors))), strings.Join(in, " "))
	}
	return strings.Join(parts, "; ")
}

// Outcome is the result of checking a system on generated workloads.
type Outcome struct {
	// Checked is the number of workloads explored; Complete how many of them completely.
	Checked, Complete int
	// Schedules sums the schedules of every run, Answered their operations answered
	// (explorer.Stats.Answered): 0 means no workload's actors ever answered a request.
	Schedules, Answered int64
	// Failing is the first workload with a violation, System the system under it, and
	// Result its run; nil when none failed.
	Failing *Workload
	System  model.System
	Result  *explorer.Result
}

// Check explores sys under each workload in turn with opts, over the alphabet (nil: the
// harness's own), and stops at the first violation. It refuses an empty ws: a check of
// no workload would pass having checked nothing.
func Check(ctx context.Context, sys model.System, ws []Workload, alphabet []any, opts explorer.Options) (*Outcome, error) {
	if len(ws) == 0 {
		return nil, errors.New("no workload to check: the generator made none")
	}
	if alphabet == nil {
		alphabet = sys.Harness.Alphabet()
	}
	out := &Outcome{}
	for i := range ws {
		s, err := ws[i].Apply(sys, alphabet)
		if err != nil {
			return nil, err
		}
		res, err := explorer.Run(ctx, s, opts)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", ws[i].Name, err)
		}
		out.Checked++
		out.Schedules += res.Stats.Schedules
		out.Answered += res.Stats.Answered
		if res.Complete {
			out.Complete++
		}
		if res.First != nil || res.Stats.Interrupted {
			out.System, out.Result = s, res
			if res.First != nil {
				out.Failing = &ws[i]
			}
			return out, nil
		}
	}
	return out, nil
}

// Lookup rebuilds the workload called name ("all:ops=3,clients=2#17", as in
// Workload.Name) over sys's actors and its harness's alphabet, and returns sys under it.
func Lookup(sys model.System, name string) (model.System, Workload, error) {
	gen, idx, ok := strings.Cut(name, "#")
	i, err := strconv.Atoi(idx)
	if !ok || err != nil || i < 0 {
		return sys, Workload{}, fmt.Errorf("workload %q: want GENERATOR#INDEX", name)
	}
	g, err := Parse(gen)
	if err != nil {
		return sys, Workload{}, err
	}
	alphabet := sys.Harness.Alphabet()
	g.Actors, g.Alphabet = len(sys.Actors), len(alphabet)
	ws, err := g.GenerateContext(context.Background())
	if err != nil {
		return sys, Workload{}, fmt.Errorf("workload %q: %w", name, err)
	}
	if i >= len(ws) {
		return sys, Workload{}, fmt.Errorf("workload %q: %s generates only %d workloads", name, gen, len(ws))
	}
	s, err := ws[i].Apply(sys, alphabet)
	return s, ws[i], err
}

// For returns the generator's workloads for sys: its actors and its harness's alphabet.
// Like Generate, it has no size limit; ForContext has.
func (g Generator) For(sys *model.System) []Workload {
	return g.Over(sys).Generate()
}

// Over returns g with sys's actors and its harness's alphabet: the generator whose
// CheckSize and Count are those of For(sys).
func (g Generator) Over(sys *model.System) Generator {
	g.Actors, g.Alphabet = len(sys.Actors), len(sys.Harness.Alphabet())
	return g
}

// ForContext is For with GenerateContext's checks and cancellation: Validate's error for
// a generator that makes no workload (one over a harness without inputs among them), a
// *SizeError before any workload is made when there would be too many, ctx's error when
// it ends.
func (g Generator) ForContext(ctx context.Context, sys *model.System) ([]Workload, error) {
	return g.Over(sys).GenerateContext(ctx)
}
