package explorer

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// The fewest states any search must visit: a lower bound for the half-states target of
// stateful DPOR (docs/strategies.md, "Where it falls short"). A search that finds every
// canonical history must reach, for each, a final state that has it, through states it
// visits; the states it visits therefore hold a tree rooted at the initial state that
// reaches one final state of every canonical history. The smallest such tree is a
// directed group Steiner tree in exhaustive search's graph of states, computed here
// exactly as an integer program (cbc, Debian's coinor-cbc). Searches sound under a
// relation (the DPOR family) must also reach every final state up to the order of
// commuting history events (traceKey), a stronger demand with a larger minimum.

// stateGraph is exhaustive search's graph of states, the states numbered in the order the
// search first saw them (the initial state is 0).
type stateGraph struct {
	succ [][]int32
	// steps[u][i] is the step from state u to state succ[u][i].
	steps [][]dpor.StepInfo
	// finals maps each final state (nothing enabled) to its trace key and the hash of
	// its canonical history.
	finals map[int32][2]uint64
}

// exploreGraph runs exhaustive search with caching on sys and returns its graph of
// states and the run's result.
func exploreGraph(t *testing.T, sys model.System) (*stateGraph, *Result) {
	t.Helper()
	g := &stateGraph{finals: map[int32][2]uint64{}}
	ids := map[uint64]int32{}
	edges := map[[2]int32]bool{}
	id := func(fp uint64) int32 {
		i, ok := ids[fp]
		if !ok {
			i = int32(len(g.succ))
			ids[fp] = i
			g.succ = append(g.succ, nil)
			g.steps = append(g.steps, nil)
		}
		return i
	}
	visitHook = func(e *engine, s *state) {
		v := id(s.fingerprint())
		if n := len(e.states); n >= 2 {
			if u := id(e.states[n-2].fingerprint()); !edges[[2]int32{u, v}] {
				edges[[2]int32{u, v}] = true
				g.succ[u] = append(g.succ[u], v)
				step := *e.nodes[n-2].Step()
				step.Clock, step.Before = nil, dpor.Set{}
				g.steps[u] = append(g.steps[u], step)
			}
		}
		if d := len(e.nodes) - 1; len(e.nodes[d].Enabled) == 0 {
			events := e.log[:s.events]
			c := histories.CanonicalOf(events)
			g.finals[v] = [2]uint64{traceKey(s, events), c.Hash()}
		}
	}
	defer func() { visitHook = nil }()
	res, err := Run(t.Context(), sys, Options{Strategy: dpor.Exhaustive(), StateCaching: true, MaxSchedules: Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || int64(len(g.succ)) != res.Stats.States {
		t.Fatalf("exhaustive search: complete %v, %d states in the graph, %d counted", res.Complete, len(g.succ), res.Stats.States)
	}
	return g, res
}

// groupsBy returns the final states of g grouped by the key which picks (0: trace key,
// 1: canonical history).
func (g *stateGraph) groupsBy(which int) [][]int32 {
	at := map[uint64]int{}
	var groups [][]int32
	for v := int32(0); v < int32(len(g.succ)); v++ {
		k, ok := g.finals[v]
		if !ok {
			continue
		}
		i, seen := at[k[which]]
		if !seen {
			i = len(groups)
			at[k[which]] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], v)
	}
	return groups
}

// writeSteinerLP writes, in CPLEX LP form, the integer program of the fewest states of g
// (y_v = 1: state v is visited; state 0 always is) such that for each group a unit of
// flow goes from state 0 to one of the group's states along edges whose head is visited:
// the visited states then hold a path to every group, and any set of states that does
// gives such flows.
func writeSteinerLP(w io.Writer, succ [][]int32, groups [][]int32) error {
	bw := bufio.NewWriter(w)
	n := len(succ)
	type edge struct{ u, v int32 }
	var edges []edge
	in := make([][]int, n)
	out := make([][]int, n)
	for u, vs := range succ {
		for _, v := range vs {
			if v == 0 {
				continue // a flow never needs to come back to its source
			}
			in[v] = append(in[v], len(edges))
			out[u] = append(out[u], len(edges))
			edges = append(edges, edge{int32(u), v})
		}
	}
	fmt.Fprintln(bw, "Minimize\n obj:")
	for v := range n {
		fmt.Fprintf(bw, " + y%d\n", v)
	}
	fmt.Fprintln(bw, "Subject To\n root: y0 = 1")
	for gi, group := range groups {
		member := map[int32]bool{}
		for _, v := range group {
			member[v] = true
		}
		for v := range n {
			if len(in[v]) == 0 && len(out[v]) == 0 && !member[int32(v)] {
				continue
			}
			fmt.Fprintf(bw, " c%d_%d:", gi, v)
			for _, k := range in[v] {
				fmt.Fprintf(bw, " + f%d_%d", gi, k)
			}
			for _, k := range out[v] {
				fmt.Fprintf(bw, " - f%d_%d", gi, k)
			}
			if member[int32(v)] {
				fmt.Fprintf(bw, " - s%d_%d", gi, v)
			}
			rhs := 0
			if v == 0 {
				rhs = -1
			}
			fmt.Fprintf(bw, " = %d\n", rhs)
		}
		fmt.Fprintf(bw, " k%d:", gi)
		for _, v := range group {
			fmt.Fprintf(bw, " + s%d_%d", gi, v)
		}
		fmt.Fprintln(bw, " = 1")
		for k, e := range edges {
			fmt.Fprintf(bw, " a%d_%d: f%d_%d - y%d <= 0\n", gi, k, gi, k, e.v)
		}
	}
	fmt.Fprintln(bw, "Bounds")
	for gi := range groups {
		for k := range edges {
			fmt.Fprintf(bw, " f%d_%d <= 1\n", gi, k)
		}
	}
	fmt.Fprintln(bw, "Binary")
	for v := range n {
		fmt.Fprintf(bw, " y%d\n", v)
	}
	fmt.Fprintln(bw, "End")
	return bw.Flush()
}

// needCBC returns the path of cbc, or skips the test when it is not installed.
func needCBC(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("cbc")
	if err != nil {
		t.Skip("cbc is not installed (apt-get install coinor-cbc; .ci/run installs it)")
	}
	return p
}

// minStates solves the program of writeSteinerLP with cbc and returns the fewest states
// and a set of that many that reaches every group.
func minStates(t *testing.T, cbc string, succ [][]int32, groups [][]int32) (int, []bool) {
	t.Helper()
	dir := t.TempDir()
	lp, sol := filepath.Join(dir, "min.lp"), filepath.Join(dir, "min.sol")
	f, err := os.Create(lp)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeSteinerLP(f, succ, groups); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.CommandContext(t.Context(), cbc, lp, "solve", "solu", sol).CombinedOutput(); err != nil {
		t.Fatalf("cbc: %v\n%s", err, out)
	}
	b, err := os.ReadFile(sol)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if !strings.HasPrefix(lines[0], "Optimal") {
		t.Fatalf("cbc: %s", lines[0])
	}
	chosen := make([]bool, len(succ))
	count := 0
	for _, line := range lines[1:] {
		fs := strings.Fields(line)
		if len(fs) < 3 || !strings.HasPrefix(fs[1], "y") {
			continue
		}
		v, err1 := strconv.Atoi(fs[1][1:])
		x, err2 := strconv.ParseFloat(fs[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("cbc's solution: %q", line)
		}
		if x > 0.5 {
			chosen[v] = true
			count++
		}
	}
	return count, chosen
}

// reachesGroups reports whether the chosen states, state 0 among them, hold a path from
// state 0 to a state of every group.
func reachesGroups(succ [][]int32, chosen []bool, groups [][]int32) bool {
	if !chosen[0] {
		return false
	}
	seen := make([]bool, len(succ))
	seen[0] = true
	stack := []int32{0}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range succ[u] {
			if chosen[v] && !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	for _, group := range groups {
		hit := false
		for _, v := range group {
			hit = hit || seen[v]
		}
		if !hit {
			return false
		}
	}
	return true
}

// bruteMinStates is the fewest states that reach every group, by trying every set of
// states that holds state 0 (at most 20 states).
func bruteMinStates(succ [][]int32, groups [][]int32) int {
	n := len(succ)
	best := n + 1
	chosen := make([]bool, n)
	for mask := uint32(1); mask < 1<<n; mask += 2 {
		c := bits.OnesCount32(mask)
		if c >= best {
			continue
		}
		for v := range n {
			chosen[v] = mask>>v&1 == 1
		}
		if reachesGroups(succ, chosen, groups) {
			best = c
		}
	}
	return best
}

// dreyfusWagner is the fewest states that reach every group, by the dynamic program of
// Dreyfus and Wagner (1971) for Steiner trees, directed and counting states: best[S][v]
// is the fewest states of a tree rooted at v that reaches every group of S, which either
// splits S between two trees rooted at v (sharing v) or goes on to one successor. Its
// cost grows as 3^len(groups), so it serves up to a dozen groups, as a second way to the
// integer program's answer.
func dreyfusWagner(succ [][]int32, groups [][]int32) int {
	n, k := len(succ), len(groups)
	const inf = int32(1 << 30)
	pred := make([][]int32, n)
	for u, vs := range succ {
		for _, v := range vs {
			pred[v] = append(pred[v], int32(u))
		}
	}
	best := make([][]int32, 1<<k)
	// relax lowers best[S][v] to one more than a successor's, in the order of the
	// values: a breadth-first search backwards from every state at once, each entering
	// at its own value.
	buckets := make([][]int32, n+2)
	relax := func(d []int32) {
		for v := range n {
			if d[v] <= int32(n) {
				buckets[d[v]] = append(buckets[d[v]], int32(v))
			}
		}
		for c := range buckets {
			for i := 0; i < len(buckets[c]); i++ {
				v := buckets[c][i]
				if d[v] != int32(c) {
					continue
				}
				for _, u := range pred[v] {
					if d[u] > int32(c)+1 {
						d[u] = int32(c) + 1
						buckets[c+1] = append(buckets[c+1], u)
					}
				}
			}
			buckets[c] = buckets[c][:0]
		}
	}
	for mask := 1; mask < 1<<k; mask++ {
		d := make([]int32, n)
		for v := range d {
			d[v] = inf
		}
		if mask&(mask-1) == 0 {
			for _, v := range groups[bits.TrailingZeros(uint(mask))] {
				d[v] = 1
			}
		} else {
			for sub := (mask - 1) & mask; sub > 0; sub = (sub - 1) & mask {
				if sub < mask^sub {
					continue // each split once
				}
				a, b := best[sub], best[mask^sub]
				for v := range n {
					if a[v] < inf && b[v] < inf && a[v]+b[v]-1 < d[v] {
						d[v] = a[v] + b[v] - 1
					}
				}
			}
		}
		relax(d)
		best[mask] = d
	}
	return int(best[1<<k-1][0])
}

// randomGraph is a small random graph of states reachable from state 0, with cycles when
// cyclic, and its final states (no successor) or, when it has none, a few states drawn,
// split into groups at random.
func randomGraph(r *rand.Rand, cyclic bool) ([][]int32, [][]int32) {
	n := 4 + r.IntN(13)
	succ := make([][]int32, n)
	for v := 1; v < n; v++ {
		u := r.IntN(v) // a tree first, so that every state is reachable
		succ[u] = append(succ[u], int32(v))
	}
	for range r.IntN(2 * n) {
		u, v := r.IntN(n), 1+r.IntN(n-1)
		if (cyclic || u < v) && u != v && !slices.Contains(succ[u], int32(v)) {
			succ[u] = append(succ[u], int32(v))
		}
	}
	var targets []int32
	for v := range n {
		if len(succ[v]) == 0 {
			targets = append(targets, int32(v))
		}
	}
	if len(targets) == 0 {
		for range 1 + r.IntN(3) {
			targets = append(targets, int32(1+r.IntN(n-1)))
		}
	}
	k := 1 + r.IntN(len(targets))
	groups := make([][]int32, k)
	for i, v := range targets {
		gi := i
		if i >= k {
			gi = r.IntN(k)
		}
		groups[gi] = append(groups[gi], v)
	}
	return succ, groups
}

// TestMinimumStatesMatchesBruteForce checks the integer program against trying every set
// of states, on small random graphs with and without cycles, and that cbc's set reaches
// every group.
func TestMinimumStatesMatchesBruteForce(t *testing.T) {
	cbc := needCBC(t)
	r := rand.New(rand.NewPCG(13, 0x5eed))
	for i := range 60 {
		succ, groups := randomGraph(r, i%2 == 1)
		t.Run(fmt.Sprintf("graph-%d", i), func(t *testing.T) {
			got, chosen := minStates(t, cbc, succ, groups)
			want := bruteMinStates(succ, groups)
			if got != want {
				t.Errorf("integer program: %d states; every set tried: %d (%d states, groups %v, edges %v)", got, want, len(succ), groups, succ)
			}
			if dw := dreyfusWagner(succ, groups); dw != want {
				t.Errorf("Dreyfus-Wagner: %d states; every set tried: %d (%d states, groups %v, edges %v)", dw, want, len(succ), groups, succ)
			}
			if !reachesGroups(succ, chosen, groups) {
				t.Errorf("cbc's %d states do not reach every group", got)
			}
		})
	}
}

// fewestStates is the fewest states of g that reach every group: by Dreyfus and Wagner's
// program up to a dozen groups, by the integer program (cbc) on graphs of at most
// ilpStates states, and by both, compared, where both apply.
func fewestStates(t *testing.T, g *stateGraph, groups [][]int32) int {
	t.Helper()
	const ilpStates = 5_000
	got := -1
	if len(groups) <= 12 {
		got = dreyfusWagner(g.succ, groups)
	}
	if len(g.succ) <= ilpStates {
		n, chosen := minStates(t, needCBC(t), g.succ, groups)
		if !reachesGroups(g.succ, chosen, groups) {
			t.Fatalf("cbc's %d states do not reach every group", n)
		}
		if got >= 0 && n != got {
			t.Fatalf("integer program %d states, Dreyfus-Wagner %d", n, got)
		}
		got = n
	}
	if got < 0 {
		t.Fatalf("%d states and %d groups: too many for either way", len(g.succ), len(groups))
	}
	return got
}

// TestMinimumStatesToReachEveryFinal measures, on the configurations named by
// RAVEL_MINSTATES (comma-separated SYSTEM/HARNESS), the fewest states a search must visit
// to find every canonical history, and to reach every final state up to the order of
// commuting history events, beside the states of exhaustive search and of stateful DPOR
// (which reaches every final state, so it cannot visit fewer). A measurement, not in CI:
//
//	RAVEL_MINSTATES=register-buggy/2r1w,gossip/rw,leader/1rw,leader-buggy/1rw go test -run TestMinimumStatesToReachEveryFinal -v -timeout 1h ./explorer/
func TestMinimumStatesToReachEveryFinal(t *testing.T) {
	eachConfig(t, "RAVEL_MINSTATES", func(t *testing.T, g *stateGraph, ex, dp *Result) {
		byTrace, byHistory := g.groupsBy(0), g.groupsBy(1)
		minTrace, minHist := fewestStates(t, g, byTrace), fewestStates(t, g, byHistory)
		if dp.Stats.States < int64(minTrace) {
			t.Errorf("dpor+caching visits %d states, fewer than the %d any search reaching every final state must", dp.Stats.States, minTrace)
		}
		all := float64(ex.Stats.States)
		t.Logf("exhaustive+caching %d states; dpor+caching %d (%.2f); fewest to reach every final state (%d up to commuting history events) %d (%.2f); fewest to find every canonical history (%d) %d (%.2f)",
			ex.Stats.States, dp.Stats.States, float64(dp.Stats.States)/all, len(byTrace), minTrace, float64(minTrace)/all, len(byHistory), minHist, float64(minHist)/all)
	})
}

// eachConfig runs measure on each configuration named by the environment variable env
// (comma-separated SYSTEM/HARNESS), with exhaustive search's graph of states and the
// results of exhaustive search and of stateful DPOR, both with caching; it skips the
// test when env is not set.
func eachConfig(t *testing.T, env string, measure func(t *testing.T, g *stateGraph, ex, dp *Result)) {
	t.Helper()
	list := os.Getenv(env)
	if list == "" {
		t.Skipf("a measurement: set %s=SYSTEM/HARNESS,... to run it", env)
	}
	for name := range strings.SplitSeq(list, ",") {
		t.Run(name, func(t *testing.T) {
			sys := shippedByName(t, name)
			g, ex := exploreGraph(t, sys)
			dp, err := Run(t.Context(), sys, Options{Strategy: dpor.DPOR(dpor.History()), StateCaching: true, MaxSchedules: Unlimited})
			if err != nil {
				t.Fatal(err)
			}
			measure(t, g, ex, dp)
		})
	}
}

// shippedByName is shippedWith for "SYSTEM/HARNESS", without faults.
func shippedByName(t *testing.T, name string) model.System {
	t.Helper()
	sysName, harness, _ := strings.Cut(name, "/")
	return shippedWith(t, sysName, harness, model.Faults{})
}
