package dpor

// Stateful DPOR: source-set DPOR combined with state caching, after Yang, Chen,
// Gopalakrishnan and Kirby ("Efficient stateful dynamic partial order reduction", SPIN
// 2008). Ending a path at a visited state s also ends the race analysis of the steps the
// search would have taken from s. Those steps are known: they are the steps explored
// from s and from every state reachable from it, which the strategy keeps as a graph
// over fingerprints (the visible-operation dependency graph of Yang et al.). At a
// revisit it treats every step reachable from s as if it could run right after the path,
// racing with any earlier step it depends on, and adds to the state before that step
// every event that could start the reversal: the first steps of the path after it that
// do not happen after it, and every event enabled there whose content is reachable from
// s. That over-approximates the initials of notdep(e)·v of source DPOR for every
// continuation v from s.
//
// Sleep sets are off: a sleep set depends on the path, not only on the state, so a state
// first explored under one sleep set would cut later paths that need what it slept on.
// State caching catches the same commuted paths sleep sets catch, since independent steps
// commute to the same state.
//
// Cycles: a state reachable from s may still be on the search path, with steps yet to be
// explored from it that the graph does not hold. Every node of the path from the
// shallowest such state up is then expanded fully (the cycle proviso of stateful
// partial-order reduction), so that nothing explored beyond the cycle depends on race
// analysis the cut withheld.

// StatePath is a Path whose last state's fingerprint is known: the engine's path when
// states are cached.
type StatePath interface {
	Path
	// Fingerprint is the fingerprint of the last node's state, as the visited set keys
	// it.
	Fingerprint() uint64
}

// Revisiter is a strategy that is sound under state caching because it is told when the
// path reaches a state visited before: the engine calls Revisit with that state as the
// last node of the path (after Arrive), then ends the path there. The path passed to
// Arrive and Revisit is a StatePath.
type Revisiter interface {
	StateCacher
	Revisit(p Path)
}

// Cacheable is a strategy with a variant that is sound under state caching, which the
// engine runs instead of it when states are cached.
type Cacheable interface {
	Strategy
	Stateful() Revisiter
}

// CachingSound reports whether state caching is sound with s: s is a StateCacher, or
// has a stateful variant (Cacheable).
func CachingSound(s Strategy) bool {
	switch s.(type) {
	case StateCacher, Cacheable:
		return true
	}
	return false
}

// Stateful returns source-set DPOR for use with state caching.
func (s *source) Stateful() Revisiter { return StatefulDPOR(s.dep) }

// StatefulDPOR returns source-set DPOR, without sleep sets, that keeps the graph of the
// steps explored from every visited state so that it can be combined soundly with state
// caching (Yang et al. 2008; see the comment at the top of stateful.go).
func StatefulDPOR(dep Dependence) Revisiter {
	return &stateful{source: source{dep: dep}, g: NewGraph()}
}

type stateful struct {
	source
	g       *Graph
	fps     []uint64 // fps[d]: the fingerprint of the state at depth d of the path
	revisit []bool   // revisit[d]: the state at depth d was visited before

	gen     uint32
	reach   Bits    // the steps reachable from the revisited state
	classes []int32 // their classes
	cbits   Bits
	racing  Bits // the classes in a race with the step being looked at
	queue   []uint64
	v       Set
	after   []int32 // steps of the path after i that happen after it
	notdep  []int32 // and those that do not
}

func (s *stateful) Needs() Needs         { return Needs{Keys: s.dep.NeedsKeys()} }
func (s *stateful) CacheKey(Path) uint64 { return 0 }

// Graph returns the strategy's graph of visited states, for checkpoints.
func (s *stateful) Graph() *Graph { return s.g }

func (s *stateful) Arrive(p Path) {
	nodes := p.Nodes()
	n := len(nodes) - 1
	// The states the path held at depth n and above have been left for good.
	for d := len(s.fps) - 1; d >= n; d-- {
		if !s.revisit[d] {
			s.g.finish(s.fps[d])
		}
	}
	fp := p.(StatePath).Fingerprint()
	s.fps = append(s.fps[:n], fp)
	s.revisit = append(s.revisit[:n], false)
	st := s.g.state(fp)
	if !s.onPath(st.depth, fp, n) {
		st.depth = int32(n)
	}
	if n > 0 {
		s.before(nodes, n-1)
		s.races(nodes, n-1)
		s.g.AddEdge(s.fps[n-1], s.g.intern(nodes[n-1].Step()), fp)
	}
	if top := &nodes[n]; !top.Final && len(top.Enabled) > 0 {
		top.Backtrack.Add(0)
	}
}

// onPath reports whether depth d below n holds the state fp on the current path.
func (s *stateful) onPath(d int32, fp uint64, n int) bool {
	return d >= 0 && int(d) < n && s.fps[d] == fp
}

func (s *stateful) Revisit(p Path) {
	nodes := p.Nodes()
	n := len(nodes) - 1
	s.revisit[n] = true
	low := s.reachable(s.fps[n], n)
	for i := 0; i < n; i++ {
		s.split(nodes, i, n)
		if !s.racesReachable(nodes, i) {
			continue
		}
		pre := &nodes[i]
		if s.racersEnabled(pre) {
			continue
		}
		for k := range pre.Enabled {
			if s.couldLead(nodes, pre.Enabled[k].Content) {
				pre.Backtrack.Add(k)
			}
		}
		s.pathInitials(nodes, i, n)
	}
	for j := low; j < n; j++ {
		nodes[j].Backtrack.AddAll(len(nodes[j].Enabled))
	}
}

// reachable gathers in s.reach the steps of the graph reachable from the state fp, and
// in s.classes their classes; it returns the shallowest depth of the path (below n) that
// holds a state reachable from fp, or n when none does. States whose reachable steps are
// summarized already (every state they reach has been left) are not walked again.
func (s *stateful) reachable(fp uint64, n int) int {
	s.gen++
	if s.gen == 0 { // wrapped: reset the marks
		for _, st := range s.g.Out {
			st.mark = 0
		}
		s.gen = 1
	}
	s.reach.Clear()
	low := n
	s.queue = append(s.queue[:0], fp)
	for len(s.queue) > 0 {
		u := s.queue[len(s.queue)-1]
		s.queue = s.queue[:len(s.queue)-1]
		st := s.g.Out[u]
		if st == nil || st.mark == s.gen {
			continue
		}
		st.mark = s.gen
		if st.Sum >= 0 {
			s.reach.Or(s.g.Sums[st.Sum])
			continue
		}
		if s.onPath(st.depth, u, n) && int(st.depth) < low {
			low = int(st.depth)
		}
		for _, e := range st.Edges {
			s.reach.Set(int(e.Step))
			s.queue = append(s.queue, e.To)
		}
	}
	s.cbits.Clear()
	s.classes = s.classes[:0]
	s.reach.Each(func(k int) {
		if c := s.g.class[k]; !s.cbits.Has(int(c)) {
			s.cbits.Set(int(c))
			s.classes = append(s.classes, c)
		}
	})
	return low
}

// split sorts the steps of the path after step i (up to n) into those that happen after
// it (s.after) and the rest (s.notdep).
func (s *stateful) split(nodes []Node, i, n int) {
	s.after, s.notdep = s.after[:0], s.notdep[:0]
	for k := i + 1; k < n; k++ {
		if nodes[k].Step().Before.Has(i) {
			s.after = append(s.after, int32(k))
		} else {
			s.notdep = append(s.notdep, int32(k))
		}
	}
}

// racersEnabled handles the races of step i whose later step t was already pending
// before step i, as Flanagan and Godefroid's rule does: t itself is added to the
// backtrack set of pre. It reports whether every racing step was; if one was not, the
// caller adds every event that could lead to it.
func (s *stateful) racersEnabled(pre *Node) bool {
	all := true
	s.reach.Each(func(t int) {
		if !all || !s.racing.Has(int(s.g.class[t])) {
			return
		}
		c := s.g.Steps[t].Content
		found := false
		for k := range pre.Enabled {
			if pre.Enabled[k].Content == c {
				pre.Backtrack.Add(k)
				found = true
			}
		}
		all = found
	})
	return all
}

// racesReachable reports whether some reachable step t could be in a race with step i
// after the path: t depends on step i, and on no step that happens after i (which would
// put i before t). Steps are compared by class: what the relations look at.
func (s *stateful) racesReachable(nodes []Node, i int) bool {
	si := nodes[i].Step()
	s.racing.Clear()
	any := false
	for _, c := range s.classes {
		ti := &s.g.classInfo[c]
		if s.dep.Dependent(si, ti) && !s.dependsOnAny(nodes, s.after, ti) {
			s.racing.Set(int(c))
			any = true
		}
	}
	return any
}

// couldLead reports whether an event of the given content, delivered after the path,
// could be a first step of notdep(i)·v: some reachable step with that content depends
// on none of the path's steps after i that do not happen after it (those would come
// before it in notdep(i)·v).
func (s *stateful) couldLead(nodes []Node, content uint64) bool {
	for _, t := range s.g.index[content] {
		if s.reach.Has(int(t)) && !s.dependsOnAny(nodes, s.notdep, &s.g.classInfo[s.g.class[t]]) {
			return true
		}
	}
	return false
}

func (s *stateful) dependsOnAny(nodes []Node, steps []int32, t *StepInfo) bool {
	for _, k := range steps {
		if s.dep.Dependent(nodes[k].Step(), t) {
			return true
		}
	}
	return false
}

// pathInitials adds to the backtrack set of nodes[i] the steps of the path after i that
// do not happen after step i and after no other such step: the first steps of the path's
// part of notdep(i)·v.
func (s *stateful) pathInitials(nodes []Node, i, n int) {
	s.v.Clear()
	pre := &nodes[i]
	for k := i + 1; k < n; k++ {
		b := &nodes[k].Step().Before
		if b.Has(i) {
			continue
		}
		if !intersects(b, &s.v) {
			if x := pre.Find(nodes[k].Step().Event.ID); x >= 0 {
				pre.Backtrack.Add(x)
			}
		}
		s.v.Add(k)
	}
}

func intersects(a, b *Set) bool {
	if a.w&b.w != 0 {
		return true
	}
	for k := 0; k < len(a.more) && k < len(b.more); k++ {
		if a.more[k]&b.more[k] != 0 {
			return true
		}
	}
	return false
}
