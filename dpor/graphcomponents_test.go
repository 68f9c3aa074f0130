package dpor

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/model"
)

// TestGraphComponentOfAStateExploredAgain: a state's summary is the set of steps
// reachable from it, as Tarjan's algorithm over the search's walk finds them, when a
// state left before and still waiting for its component is explored again (a smaller
// sleep set, sleepcache.go) and that exploration finds an edge further up the path than
// its component's root. The walk replays what stateful.Arrive and Revisit do to the
// graph, on scripted walks; the summaries are checked against reachability computed
// from the walk's edges. Random cyclic system 1085, under the oracle that wakes every
// sleeping quiet event, made such a walk: the state's low link ignored the new edges,
// the root below it was summarized without the states the edge reaches, and the edges
// the exploration added to a state further up were dropped, leaving an index past the
// end of the graph's edges.
func TestGraphComponentOfAStateExploredAgain(t *testing.T) {
	type visit struct {
		depth int
		state string
		again bool // explored again under a smaller sleep set
		ends  bool // a revisit: the path ends there
	}
	for _, tc := range []struct {
		name string
		walk []visit
	}{
		{
			// A → R → X → R; R → Y → X (again) → A; A → Z. X waits for R's component
			// when it is explored again, and its new edge reaches A, above R.
			"pending state's new edge reaches above its root",
			[]visit{{0, "A", false, false}, {1, "R", false, false}, {2, "X", false, false}, {3, "R", false, true},
				{2, "Y", false, false}, {3, "X", true, false}, {4, "A", false, true}, {1, "Z", false, false}},
		},
		{
			// The same, with A also explored again below X: its edges from that
			// exploration are held by A, above R, and must outlive R's subtree.
			"and the state above explored again below it",
			[]visit{{0, "A", false, false}, {1, "R", false, false}, {2, "X", false, false}, {3, "R", false, true},
				{2, "Y", false, false}, {3, "X", true, false}, {4, "A", true, false}, {5, "W", false, false},
				{6, "R", false, true}, {1, "Z", false, false}},
		},
		{
			// No exploration again: an ordinary cycle and a state outside it.
			"plain cycle",
			[]visit{{0, "A", false, false}, {1, "B", false, false}, {2, "C", false, false}, {3, "A", false, true},
				{2, "D", false, false}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := StatefulDPOR(History()).(*stateful)
			g := s.g
			fp := func(name string) uint64 { return model.Mix64(uint64(name[0])) | 1 }
			type arc struct {
				from, to string
				step     int32
			}
			var arcs []arc
			names := map[int32]string{}
			for i, v := range tc.walk {
				n := v.depth
				s.leaveFrom(n)
				k, seen := g.state(fp(v.state))
				names[k] = v.state
				s.revisit = append(s.revisit[:n], false)
				s.pendAt = append(s.pendAt[:n], int32(len(g.pending)))
				s.sts = append(s.sts[:n], k)
				st := g.st(k)
				if seen && v.again {
					g.reopen(k)
				}
				if st.sum < 0 {
					o := g.opening(st)
					if !s.onPath(o.depth, k, n) {
						o.depth = int32(n)
					}
					g.discover(o)
				}
				if n > 0 {
					step := g.AddStep(StepSummary{Content: uint64(i + 1), To: model.ID(i % 3)})
					g.addEdge(s.sts[n-1], step, k)
					arcs = append(arcs, arc{names[s.sts[n-1]], v.state, step})
				}
				s.edgeAt = append(s.edgeAt[:n], int32(len(g.edges)))
				if v.ends {
					s.revisit[n] = true
				}
			}
			s.leaveFrom(0)
			for k := range g.nstates {
				st := g.st(k)
				if st.sum < 0 {
					t.Errorf("state %s not summarized after the walk", names[k])
					continue
				}
				// Brute force: the steps of every arc out of a state reachable from k.
				reach := map[string]bool{names[k]: true}
				for grew := true; grew; {
					grew = false
					for _, a := range arcs {
						if reach[a.from] && !reach[a.to] {
							reach[a.to], grew = true, true
						}
					}
				}
				var want []int
				for _, a := range arcs {
					if reach[a.from] {
						want = append(want, int(a.step))
					}
				}
				slices.Sort(want)
				want = slices.Compact(want)
				var got []int
				g.sumOf(st).Each(func(i int) { got = append(got, i) })
				if !slices.Equal(got, want) {
					t.Errorf("state %s sums up steps %v, want %v", names[k], got, want)
				}
			}
			if t.Failed() {
				t.Log(fmt.Sprint(arcs))
			}
		})
	}
}
