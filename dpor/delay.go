package dpor

import "slices"

// DelayBounded returns Emmi, Qadeer and Rakamarić's delay-bounded search (POPL 2011):
// a deterministic scheduler orders the events enabled in every state — actors round
// robin, starting after the actor that ran the previous step; within an actor, its oldest
// message first — and taking the k-th event costs k delays. The search explores every
// schedule whose delays add up to at most d: d = 0 gives exactly the scheduler's one
// schedule, and a d as large as any schedule needs gives exhaustive search.
func DelayBounded(d int) Strategy { return &delayBounded{d: d} }

type delayBounded struct{ d int }

func (s *delayBounded) Name() string { return "delay-bounded" }
func (s *delayBounded) Needs() Needs { return Needs{SendOrder: true} }

// CacheKey is what the search from a state depends on besides the state: the delays
// left, and the actor the round robin starts after. The third thing, the order in which
// each actor's pending messages were sent, which decides their costs here and in every
// state below, the engine adds (Needs.SendOrder): two paths to one state with the same
// delays left could otherwise give two messages opposite costs, and the second path,
// cut at the visited state, lose the schedules its costs allowed.
func (s *delayBounded) CacheKey(p Path) uint64 {
	nodes := p.Nodes()
	n := len(nodes) - 1
	prev := -1
	if n > 0 {
		prev = int(nodes[n-1].Step().Event.To)
	}
	return uint64(nodes[n].Delays+1)<<32 | uint64(uint32(prev+1))
}

// Bound is the delay budget.
func (s *delayBounded) Bound() int { return s.d }

func (s *delayBounded) Arrive(p Path) {
	nodes := p.Nodes()
	n := len(nodes) - 1
	top := &nodes[n]
	if top.Final {
		return
	}
	prev := -1
	if n > 0 {
		parent := &nodes[n-1]
		top.Delays = parent.Delays + parent.Cost[parent.Taken]
		prev = int(parent.Step().Event.To)
	}
	order := make([]int, len(top.Enabled))
	for i := range order {
		order[i] = i
	}
	// Round robin from the actor after prev: actors above prev first, in order, then
	// the rest; within an actor, Enabled's order, which is the order of sending.
	slices.SortStableFunc(order, func(a, b int) int {
		ta, tb := int(top.Enabled[a].To), int(top.Enabled[b].To)
		wa, wb := ta <= prev, tb <= prev
		switch {
		case wa != wb && !wa:
			return -1
		case wa != wb:
			return 1
		}
		return ta - tb
	})
	top.Cost = slices.Grow(top.Cost[:0], len(order))[:len(order)]
	for rank, i := range order {
		top.Cost[i] = rank
		if top.Delays+rank <= s.d {
			top.Backtrack.Add(i)
		}
	}
}
