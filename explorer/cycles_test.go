package explorer

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// A system that never quiesces: DESIGN.md's "caching must never lose a violation" on a
// state space where every path ends in a cycle (probe H1: a heartbeat timer re-armed on
// every firing made a search with state caching "complete" with no schedule and no
// history judged, on a system with a stale read).

// HeartbeatUpdate carries a write from the primary to its backup; HeartbeatAck
// acknowledges it; Beat is the primary's timer, re-armed on every firing.
type (
	HeartbeatUpdate struct{ Value int }
	HeartbeatAck    struct{}
	HeartbeatBeat   struct{}
	HeartbeatPing   struct{}
)

// heartbeat is a primary (actor 0) that takes writes and a backup (actor 1) that
// answers reads. A timer fires forever and changes nothing, so every state has a
// successor that is the state itself: the primary's, or that of a third actor that does
// nothing else (its firing then is independent of every other step, which partial order
// reduction may then ignore forever). Lazy: the primary answers a write before
// its backup has it (a stale read); otherwise it answers on the backup's ack.
type heartbeat struct {
	Ticker model.ID // the actor whose timer fires
	// RoundTrip: the timer sends its actor a message, which re-arms it; the cycle is
	// two steps long instead of one.
	RoundTrip bool
	Lazy      bool
	Value     int
	Waiting   model.RequestID
	Busy      bool
}

func (h *heartbeat) Start(ctx *model.Ctx) {
	if ctx.Self() == h.Ticker {
		ctx.SetTimer("beat", HeartbeatBeat{})
	}
}

func (h *heartbeat) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case HeartbeatBeat:
		if h.RoundTrip {
			ctx.Send(ctx.Self(), HeartbeatPing{})
			return
		}
		ctx.SetTimer("beat", HeartbeatBeat{})
	case HeartbeatPing:
		ctx.SetTimer("beat", HeartbeatBeat{})
	case model.Request[specs.RegisterInput]:
		if !m.Input.Write {
			ctx.Respond(m.ID, specs.ReadOK(h.Value))
			return
		}
		h.Value = m.Input.Value
		ctx.Send(1, HeartbeatUpdate{Value: m.Input.Value})
		if h.Lazy {
			ctx.Respond(m.ID, specs.WriteOK())
			return
		}
		h.Waiting, h.Busy = m.ID, true
	case HeartbeatUpdate:
		h.Value = m.Value
		ctx.Send(0, HeartbeatAck{})
	case HeartbeatAck:
		if h.Busy {
			ctx.Respond(h.Waiting, specs.WriteOK())
			h.Busy = false
		}
	}
}

func (h *heartbeat) Clone() model.Actor { c := *h; return &c }

func heartbeatSystem(lazy bool, ticker model.ID) model.System {
	name := fmt.Sprintf("heartbeat-lazy-%v-ticker-%d", lazy, ticker)
	actors := []model.Actor{&heartbeat{Lazy: lazy, Ticker: ticker}, &heartbeat{Lazy: lazy, Ticker: ticker}}
	switch ticker {
	case 2:
		actors = append(actors, &heartbeat{Ticker: ticker})
	case 3: // the third actor's timer makes a round trip
		for _, a := range actors {
			a.(*heartbeat).Ticker = 2
		}
		actors = append(actors, &heartbeat{Ticker: 2, RoundTrip: true})
	}
	return model.System{Name: name,
		Actors: actors,
		Harness: model.Clients(specs.Register(),
			model.Calls(0, specs.Write(1)), model.Calls(1, specs.Read(), specs.Read()))}
}

// TestCachingNeverLosesAViolation: with state caching, a search over a system that
// never quiesces still judges its histories: the stale read of the lazy primary is found
// by exhaustive search and by stateful DPOR, and the correct primary's search judges
// histories (it judged none) and finds no violation.
func TestCachingNeverLosesAViolation(t *testing.T) {
	for _, strat := range []string{"exhaustive", "dpor"} {
		for _, c := range []struct {
			lazy   bool
			ticker model.ID
		}{{true, 0}, {false, 0}, {true, 2}, {false, 2}, {true, 3}, {false, 3}} {
			lazy := c.lazy
			t.Run(fmt.Sprintf("%s/lazy=%v/ticker=%d", strat, lazy, c.ticker), func(t *testing.T) {
				s, err := dpor.New(strat, dpor.Config{})
				if err != nil {
					t.Fatal(err)
				}
				res, err := Run(t.Context(), heartbeatSystem(lazy, c.ticker), Options{Strategy: s, StateCaching: true, MaxSchedules: Unlimited})
				if err != nil {
					t.Fatal(err)
				}
				if lazy {
					if res.First == nil || res.First.Kind != "nonlinearizable" {
						t.Fatalf("violation %+v, want the stale read", res.First)
					}
					return
				}
				if res.First != nil || !res.Complete {
					t.Fatalf("violation %+v, complete %v; want none, complete", res.First, res.Complete)
				}
				if res.Stats.Schedules == 0 || res.Stats.Unique == 0 || res.Stats.Cycles != res.Stats.Schedules {
					t.Errorf("schedules %d, unique histories %d, cycles %d; want histories judged, every schedule a cycle",
						res.Stats.Schedules, res.Stats.Unique, res.Stats.Cycles)
				}
			})
		}
	}
}

// TestCachingJudgesFinalAndCycleHistories: the canonical histories a search with state
// caching judges are those of the final states and of the cycles of the state graph. The
// oracle builds the graph of every reachable state, with each state's canonical history,
// and takes its strongly connected components (Tarjan): the history stays the same all
// around a cycle (a component with an edge inside it). Exhaustive search with caching,
// which finds a cycle in every such component, must judge exactly the histories of final
// states and cycles. Stateful DPOR may skip a cycle whose history still grows (every
// state reaches a final state or a bottom component, one with no edge out, and those
// histories extend its own, and linearizability is closed under prefixes), but must judge
// the history of every final state and bottom component, and nothing exhaustive search
// does not.
func TestCachingJudgesFinalAndCycleHistories(t *testing.T) {
	systems := []model.System{heartbeatSystem(true, 0), heartbeatSystem(false, 0), heartbeatSystem(true, 2), heartbeatSystem(false, 2), heartbeatSystem(true, 3), heartbeatSystem(false, 3)}
	for seed := uint64(1); seed <= 40; seed++ {
		systems = append(systems, randsys.NewCyclic(seed))
	}
	systems = append(systems, shippedByName(t, "leader/1rw"), shippedByName(t, "leader-buggy/1rw"))
	for _, sys := range systems {
		t.Run(sys.Name, func(t *testing.T) {
			if res, err := Run(t.Context(), sys, Options{Strategy: dpor.Exhaustive(), StateCaching: true, MaxSchedules: Unlimited, MaxStates: oracleStates}); err != nil || !res.Complete {
				t.Skipf("more than the oracle's %d states (%v)", oracleStates, err)
			}
			o := cycleOracle(t, sys)
			if !slices.Equal(o.judged, o.cycles) {
				t.Errorf("exhaustive search with caching judged %d canonical histories, want the %d of final states and cycles", len(o.judged), len(o.cycles))
			}
			dp := judgedCanonical(t, sys, dpor.Optimal(dpor.History()), nil)
			if missing := minus(o.bottoms, dp); len(missing) > 0 {
				t.Errorf("stateful DPOR judged %d canonical histories, missing %d of the %d of final states and bottom components", len(dp), len(missing), len(o.bottoms))
			}
			if extra := minus(dp, o.cycles); len(extra) > 0 {
				t.Errorf("stateful DPOR judged %d canonical histories that are no final state's or cycle's", len(extra))
			}
		})
	}
}

// oracleStates bounds the systems the cycle oracle builds the graph of, to keep the
// test's time small: of the 40 random seeds, the few larger ones are skipped.
const oracleStates = 30_000

// minus returns the elements of the sorted a that are not in the sorted b.
func minus(a, b []uint64) []uint64 {
	var out []uint64
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}

// judgedCanonical runs strat with caching on sys and returns the sorted hashes of the
// canonical histories it judged; hook, if not nil, is the run's visitHook.
func judgedCanonical(t *testing.T, sys model.System, strat dpor.Strategy, hook func(*engine, *state)) []uint64 {
	t.Helper()
	seen := map[uint64]bool{}
	visitHook = hook
	defer func() { visitHook = nil }()
	res, err := Run(t.Context(), sys, Options{Strategy: strat, StateCaching: true, MaxSchedules: Unlimited, MaxDepth: Unlimited,
		OnSchedule: func(end *ScheduleEnd) {
			c := histories.CanonicalOf(end.Events)
			seen[c.Hash()] = true
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || res.Stats.Cut != 0 {
		t.Fatalf("%s: complete %v, %d cut schedules; want complete, none cut", strat.Name(), res.Complete, res.Stats.Cut)
	}
	out := make([]uint64, 0, len(seen))
	for h := range seen {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

// cycleHistories are a state graph's canonical histories (sorted hashes): cycles those
// of final states and of components with a cycle, bottoms those of final states and of
// components with no edge out; judged is what exhaustive search with caching judged.
type cycleHistories struct{ cycles, bottoms, judged []uint64 }

// cycleOracle builds sys's whole graph of states, by exhaustive search with caching, and
// returns its histories.
func cycleOracle(t *testing.T, sys model.System) cycleHistories {
	t.Helper()
	ids := map[uint64]int32{}
	var succ [][]int32
	var canon []uint64
	var final []bool
	id := func(fp uint64) int32 {
		i, ok := ids[fp]
		if !ok {
			i = int32(len(succ))
			ids[fp] = i
			succ = append(succ, nil)
			canon = append(canon, 0)
			final = append(final, false)
		}
		return i
	}
	var o cycleHistories
	o.judged = judgedCanonical(t, sys, dpor.Exhaustive(), func(e *engine, s *state) {
		v := id(s.fingerprint())
		c := histories.CanonicalOf(e.log[:s.events])
		canon[v] = c.Hash()
		if n := len(e.states); n >= 2 {
			u := id(e.states[n-2].fingerprint())
			if !slices.Contains(succ[u], v) {
				succ[u] = append(succ[u], v)
			}
		}
		final[v] = len(e.nodes[len(e.nodes)-1].Enabled) == 0
	})
	comp := tarjan(succ)
	size := map[int32]int{}
	exits := map[int32]bool{}
	for v := range succ {
		size[comp[v]]++
		for _, w := range succ[v] {
			if comp[w] != comp[v] {
				exits[comp[v]] = true
			}
		}
	}
	cycles, bottoms := map[uint64]bool{}, map[uint64]bool{}
	for v := range succ {
		cyclic := size[comp[v]] > 1 || slices.Contains(succ[v], int32(v))
		if final[v] || cyclic {
			cycles[canon[v]] = true
		}
		if final[v] || cyclic && !exits[comp[v]] {
			bottoms[canon[v]] = true
		}
	}
	o.cycles, o.bottoms = sortedKeys(cycles), sortedKeys(bottoms)
	return o
}

func sortedKeys(m map[uint64]bool) []uint64 {
	out := make([]uint64, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

// tarjan returns each vertex's strongly connected component (Tarjan 1972), iteratively.
func tarjan(succ [][]int32) []int32 {
	n := len(succ)
	index, low, comp := make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	onStack := make([]bool, n)
	var stack []int32
	var next, comps int32
	type frame struct{ v, edge int32 }
	for root := range int32(n) {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if int(f.edge) < len(succ[f.v]) {
				w := succ[f.v][f.edge]
				f.edge++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = comps
					if w == v {
						break
					}
				}
				comps++
			}
		}
	}
	return comp
}
