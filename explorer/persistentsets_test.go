package explorer

import (
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
)

// What a selective search could visit if it knew the whole graph of states: at each
// state, the enabled events of one actor when they form a persistent set (Godefroid
// 1996: nothing reachable without them is dependent on them, under `history`), the
// fewest such, else every event; a state whose chosen successors include one on the
// search's stack is expanded fully (the stack proviso, for cycles). It is no algorithm
// Ravel could run — persistence is judged on exhaustive search's graph — but it says how
// far the relation lets a search that chooses well go, where stateful DPOR is above half
// of exhaustive search's states (docs/strategies.md, "Where it falls short of issue
// 13's targets").

// persistentSearch returns the states the search above visits on g, and how many of g's
// final states it reaches.
func persistentSearch(g *stateGraph) (states, finals int) {
	dep := dpor.History()
	n := len(g.succ)
	mark := make([]int32, n)
	epoch := int32(0)
	// persistent reports whether the events of P, enabled at state s and taken from
	// g.steps[s], form a persistent set: no step on a path from s that takes none of
	// them is dependent on one of them, as it was at s or as it is where the path is.
	persistent := func(s int32, P []int) bool {
		in := func(u int32, i int) bool {
			for _, j := range P {
				if g.steps[u][i].Event.Content == g.steps[s][j].Event.Content {
					return true
				}
			}
			return false
		}
		epoch++
		mark[s] = epoch
		stack := []int32{s}
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for i, v := range g.succ[u] {
				if in(u, i) {
					continue
				}
				x := &g.steps[u][i]
				for _, j := range P {
					if dep.Dependent(x, &g.steps[s][j]) {
						return false
					}
				}
				for j := range g.succ[u] {
					if in(u, j) && dep.Dependent(x, &g.steps[u][j]) {
						return false
					}
				}
				if mark[v] != epoch {
					mark[v] = epoch
					stack = append(stack, v)
				}
			}
		}
		return true
	}
	visited := make([]bool, n)
	onStack := make([]bool, n)
	var dfs func(s int32)
	dfs = func(s int32) {
		visited[s], onStack[s] = true, true
		states++
		if _, ok := g.finals[s]; ok {
			finals++
		}
		byActor := map[model.ID][]int{}
		for i := range g.succ[s] {
			a := g.steps[s][i].Event.To
			byActor[a] = append(byActor[a], i)
		}
		var chosen []int
		for a := range model.ID(64) {
			if P := byActor[a]; P != nil && (chosen == nil || len(P) < len(chosen)) && persistent(s, P) {
				chosen = P
			}
		}
		for _, i := range chosen {
			if onStack[g.succ[s][i]] {
				chosen = nil
				break
			}
		}
		if chosen == nil {
			for i := range g.succ[s] {
				chosen = append(chosen, i)
			}
		}
		for _, i := range chosen {
			if v := g.succ[s][i]; !visited[v] {
				dfs(v)
			}
		}
		onStack[s] = false
	}
	dfs(0)
	return states, finals
}

// TestPersistentSetSearchStates measures the search above on the configurations named by
// RAVEL_PERSISTENT (comma-separated SYSTEM/HARNESS), beside exhaustive search and
// stateful DPOR, and checks that it reaches every final state. A measurement, not in CI:
//
//	RAVEL_PERSISTENT=gossip/rw,register-buggy/2r1w,leader/1rw,leader-buggy/1rw go test -run TestPersistentSetSearchStates -v ./explorer/
func TestPersistentSetSearchStates(t *testing.T) {
	eachConfig(t, "RAVEL_PERSISTENT", func(t *testing.T, g *stateGraph, ex, dp *Result) {
		states, finals := persistentSearch(g)
		if finals != len(g.finals) {
			t.Errorf("the persistent-set search reached %d of the %d final states", finals, len(g.finals))
		}
		all := float64(ex.Stats.States)
		t.Logf("exhaustive+caching %d states; dpor+caching %d (%.2f); persistent sets chosen on the whole graph %d (%.2f)",
			ex.Stats.States, dp.Stats.States, float64(dp.Stats.States)/all, states, float64(states)/all)
	})
}
