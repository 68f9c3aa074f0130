package dpor

import (
	"math/bits"
	"unsafe"

	"github.com/ravelmc/ravel/internal/words"
	"github.com/ravelmc/ravel/model"
)

// Stateful DPOR: source-set DPOR combined with state caching, after Yang, Chen,
// Gopalakrishnan and Kirby ("Efficient stateful dynamic partial order reduction", SPIN
// 2008). Ending a path at a visited state s also ends the race analysis of the steps the
// search would have taken from s. Those steps are known: they are the steps explored
// from s and from every state reachable from it, which the strategy keeps as a graph
// over fingerprints (the visible-operation dependency graph of Yang et al.), with the set
// of steps reachable from each state summarized once the search has left its strongly
// connected component.
//
// At a revisit, a step t reachable from s is taken to race with step i of the path when
// it depends on i and on no later step of the path that happens after i (what the
// continuation v from s does in between is not known, so this over-approximates the
// races). For each such i the state before it gets an initial of notdep(i)·v·t, as source
// DPOR needs:
//   - when some step of the path after i does not happen after it, the first such step:
//     it comes first in notdep(i)·v·t for every continuation v;
//   - otherwise the initial is the first step u of v that does not happen after i. Its
//     message was sent before i, so it is pending before i and at s, and it depends on no
//     step after i: every event pending before i and at s whose content a reachable step
//     independent of the steps after i has is added — unless every racing step was itself
//     pending before i, when Flanagan and Godefroid's rule adds the racing steps instead,
//     provided no reachable step that could come before a racing step without happening
//     after i depends on one (fgSafe): then the first racing step of every continuation
//     is an initial. Without that proviso the rule is not covered by the source-set
//     argument (a step of v that does not happen after i may happen before t), and the
//     oracle tests, which had vouched for it, found it losing final states once sleeping
//     events were woken (quietfirst.go).
//     (A finer rule that took the candidates edge by edge from s was withdrawn when it
//     lost histories on random cyclic system 58 of internal/randsys; the cause was the
//     fingerprint's blindness to FIFO order, since fixed. Ported back it saved 5–6% of
//     the states for 1.4 times the CPU: docs/stateful-dpor-history.md.)
//
// Sleep sets are on, as in source DPOR: a node explores first an event not asleep, and an
// event asleep is not explored. A sleep set depends on the path, not only on the state,
// so each state keeps the one it was explored under, and a path that reaches it under a
// sleep set that does not include that one explores it again (sleepcache.go). Without
// them (the first two rounds of issue 13) every race's initial was explored whether or
// not it was asleep, and the search took up to twice the steps.
//
// Cycles: a state reachable from s may still be on the search path, with steps yet to be
// explored from it that the graph does not hold. Every node of the path from the
// shallowest such state up is then expanded fully (the cycle proviso of stateful
// partial-order reduction), so that nothing explored beyond the cycle depends on race
// analysis the cut withheld. The engine starts a node with its oldest event, and in that
// order no test has needed the proviso; with the newest event first, dropping it loses
// final states (explorer's TestStatefulDPORReachesEveryFinalStateNewestFirst).

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

// StateKeeper is a Revisiter that keeps its own record of the visited states, by the
// fingerprint StatePath gives, so that the engine need not keep a second one: after
// Arrive, SeenBefore reports whether the state the path reached had been reached before.
// The engine then keeps no visited set of its own: the record is in memory, whatever the
// visited set's memory budget. Stateful DPOR with sleep sets must be one: it explores
// some states again (ExploredAgain), and beside the engine's own visited set it would be
// stopped there.
type StateKeeper interface {
	Revisiter
	SeenBefore() bool
	// ExploredAgain reports, when SeenBefore is false, whether the state had been
	// reached before all the same, and is explored again: the engine counts it apart
	// from the distinct states.
	ExploredAgain() bool
	// Recorded returns the number of distinct states recorded and the bytes the record
	// holds.
	Recorded() (states, bytes int64)
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

// CanonicalStatesSound reports whether state caching is sound with s when a state covers
// its history's canonical form rather than its order (explorer.Options.CanonicalStates):
// for exhaustive search, and for the strategies that run stateful DPOR under caching
// (Cacheable). Delay-bounded search is not: what it explores from a state depends on
// more than the state and that form.
func CanonicalStatesSound(s Strategy) bool {
	if _, ok := s.(Cacheable); ok {
		return true
	}
	c, ok := s.(StateCacher)
	return ok && KeyFree(c)
}

// Stateful returns source-set DPOR for use with state caching.
func (s *source) Stateful() Revisiter { return StatefulDPOR(s.dep) }

// StatefulDPOR returns source-set DPOR, with sleep sets, that keeps the graph of the
// steps explored from every visited state so that it can be combined soundly with state
// caching (Yang et al. 2008; see the comment at the top of stateful.go).
func StatefulDPOR(dep Dependence) Revisiter {
	s := &stateful{source: source{dep: dep}, g: NewGraph(), memo: summaryOnly(dep)}
	s.slept = s
	s.cls.depsFor = -1
	if s.memo {
		s.byClass = &s.cls
	}
	return s
}

type stateful struct {
	source
	g       *Graph
	sts     []int32    // sts[d]: the state at depth d of the path, in the graph
	revisit []bool     // revisit[d]: the state at depth d was visited before
	pendAt  []int32    // pendAt[d]: the length of the graph's pending stack when depth d was reached
	edgeAt  []int32    // edgeAt[d]: the number of the graph's edges then
	cls     classTable // cls.path[d]: the class of the step taken at depth d; cls.rows: their dependence
	memo    bool       // the relation decides from classes alone (summaryOnly)
	seen    bool       // the state the last Arrive saw had been reached before
	levels  raceLevels

	// walked marks the states a walk of the graph (reachable) has reached, walk lists
	// them, to clear the marks after: a bit a state rather than a mark in each.
	walked  Bits
	walk    []int32
	reach   Bits    // the steps reachable from the revisited state
	classes []int32 // their classes
	cbits   Bits
	// racingSteps: the graph's steps of the classes in a race with the step of the path
	// being looked at (racingWith), to pick them out of reach
	racingSteps Bits
	queue       []int32
	cand        []Set   // by class: the steps of the path it races with (raceLevels), during a revisit
	raced       []int32 // the steps of the path some reachable class races with, in order
	racedSet    Set
	lastDep     []int32 // by class: the last step of the path it depends on (findRaces)
	fg          Set     // a revisit's choice for one step by Flanagan and Godefroid's rule
	fgDeps      Bits    // the classes dependent on a class racing with that step (fgSafe)

	slpBuf              []int32 // sleep's result
	meetBuf, bufA, bufB []int32 // keptIn's and keptMeet's scratch
	// slpAt[d], triedAt[d]: the sleep set of the node at depth d, and the steps explored
	// from it so far, the last one on the path (sleep)
	slpAt, triedAt [][]sleeper
	again          bool // the state the last Arrive saw had been reached before, and is explored again
	noSleep        bool // sleep sets off (for measurements: StatefulDPORWithoutSleep)
	// cs judges, in context, a sleeping event the relation calls dependent on the step
	// just taken (contextsleep.go); nil when the path cannot, or with staticSleep
	cs          Commuter
	staticSleep bool                  // sleep sets by the relation alone (StatefulDPORStaticSleep)
	oldestFirst bool                  // nodes start with their oldest event (StatefulDPOROldestFirst)
	noWake      bool                  // no sleeping event is woken (StatefulDPORWithoutWaking)
	firstAwake  bool                  // the first awake event, not the loudest (StatefulDPORFirstAwake)
	wakeAlways  bool                  // whatever state it leads to (StatefulDPORWakingAlways)
	engineOrder bool                  // a node's later events smallest index first (StatefulDPORInEnginesOrder)
	woken       int                   // the event firstEvent woke at the top node, or −1
	sends       []uint64              // firstEvent's scratch: what each enabled event sends to
	sendsAt     [][]uint64            // by depth: what its node's events send, when firstEvent looked (Order)
	skipped     Set                   // firstNotAfter's scratch: the path's steps it leaves out
	csTries     map[[2]int32][2]int32 // by class pair: meetings asked about, and how many commuted
	faults      bool                  // the system has fault events (statefulfaults.go)
	// fullTo[d]: with faults, every node of the path up to depth d was expanded fully
	// because a fault was enabled there, so race analysis has nothing to add below d+1
	fullTo []bool

	counts *StatefulCounts // nil unless counting
}

// StatefulCounts are stateful DPOR's figures: how many backtrack points (events added
// to a node's backtrack set that were not in it) came from where. Every one not asleep
// is explored.
type StatefulCounts struct {
	Revisits int64 // paths ended at a visited state
	First    int64 // the first event of each new state
	Races    int64 // ordinary races on the path (source DPOR)
	// RevisitPending: a revisit's racing step was pending before the race (itself added);
	// RevisitLead: it was not, and an event that could lead to it was added;
	// RevisitPath: a first step of the path's part of notdep(i).
	RevisitPending, RevisitLead, RevisitPath int64
	Woken                                    int64 // first events woken from the sleep set (among First)
	Cycle                                    int64 // the cycle proviso's full expansion
	Faults                                   int64 // the full expansion of nodes where a fault is enabled
}

// CountingStatefulDPOR is StatefulDPOR that counts in c where its backtrack points come
// from (for measurements: it costs a pass over the path per step).
func CountingStatefulDPOR(dep Dependence, c *StatefulCounts) Revisiter {
	s := StatefulDPOR(dep).(*stateful)
	s.counts = c
	return s
}

// backtracks is the number of backtrack points on the path, when counting.
func (s *stateful) backtracks(nodes []Node) int64 {
	if s.counts == nil {
		return 0
	}
	var n int64
	for k := range nodes {
		n += int64(nodes[k].Backtrack.Len())
	}
	return n
}

func (s *stateful) SeenBefore() bool { return s.seen }

// ExploredAgain reports whether the state the last Arrive saw, which SeenBefore says is
// to be explored, had been reached before: a path reached it under a sleep set that does
// not include the one it was explored under (sleepcache.go).
func (s *stateful) ExploredAgain() bool { return s.again }

func (s *stateful) Recorded() (states, bytes int64) {
	return int64(s.g.nstates), s.g.bytes()
}

func (s *stateful) Needs() Needs         { return Needs{Keys: s.dep.NeedsKeys(), Sleep: !s.noSleep} }
func (s *stateful) CacheKey(Path) uint64 { return 0 }

func (s *stateful) Arrive(p Path) {
	if !s.staticSleep {
		s.cs, _ = p.(Commuter)
	}
	nodes := p.Nodes()
	n := len(nodes) - 1
	// The lookup of the state in the graph is a cache miss in a large search (a tenth of
	// its CPU); what does not depend on its result is done while the slot is fetched.
	fp := p.(StatePath).Fingerprint()
	s.g.prefetchState(fp)
	s.leaveFrom(n)
	t := int32(-1)
	if n > 0 {
		// The step's class first: the sleep set, before and races look dependence up by
		// class.
		t = s.classify(nodes, n-1)
		if nodes[n-1].Step().Disables {
			// It disarmed a timer, an event no race shows: the timer's firing is explored
			// from the state the step was taken from, as source DPOR does. The rest of
			// that state's events need nothing more: a disarmed timer is local to the
			// state, so no revisit's summary can hide it.
			backtrackDisabled(nodes)
		}
	}
	slp := sleepKey{small: true} // the sleep set, as the graph's steps
	if !s.noSleep {
		slp = s.sleep(nodes, t)
	}
	k, seen := s.g.state(fp)
	if seen {
		// Its record is another miss: the step's race analysis runs meanwhile.
		words.Prefetch(unsafe.Pointer(s.g.st(k)))
	}
	if n > 0 {
		s.levels.invalidate(n - 1)
		s.before(nodes, n-1)
		b := s.backtracks(nodes)
		if !s.fullBelow(n - 1) {
			s.races(nodes, n-1)
		}
		if s.counts != nil {
			s.counts.Races += s.backtracks(nodes) - b
		}
	}
	s.revisit = append(s.revisit[:n], false)
	s.pendAt = append(s.pendAt[:n], int32(len(s.g.pending)))
	s.sts = append(s.sts[:n], k)
	top := &nodes[n]
	st := s.g.st(k)
	s.again = false
	if !seen {
		st.slp = s.g.keepSleep(&slp)
	} else if !s.keptIn(st.slp, &slp) {
		// Explored before (or being explored, up the path) under a sleep set this
		// path's does not include: explore it again (sleepcache.go).
		st.slp = s.keptMeet(st.slp, &slp)
		s.g.reopen(k)
		seen, s.again = false, true
	}
	s.seen = seen
	if st.sum < 0 {
		// Not summarized: new, explored again, or left but still open (a cycle).
		o := s.g.opening(st)
		if !s.onPath(o.depth, k, n) {
			o.depth = int32(n)
		}
		s.g.discover(o)
	}
	if n > 0 {
		s.g.addEdge(s.sts[n-1], t, k)
	}
	// After the edge into this state: that one is its parent's.
	s.edgeAt = append(s.edgeAt[:n], int32(len(s.g.edges)))
	if !top.Final {
		// Source DPOR starts a node with one event not asleep: a quiet actor's when the
		// state is to be explored (quietfirst.go), else the first.
		if e := s.firstEvent(p, top, !seen); e >= 0 {
			if s.woken >= 0 {
				s.unsleep(nodes, n, k)
			}
			top.Backtrack.Add(e)
			if s.counts != nil {
				s.counts.First++
			}
		}
	}
	if s.faults {
		b := s.backtracks(nodes)
		full := expandForFaults(top)
		if full && s.counts != nil {
			s.counts.Faults += s.backtracks(nodes) - b
		}
		s.fullTo = append(s.fullTo[:n], full && (n == 0 || s.fullTo[n-1]))
	}
}

// fullBelow reports whether every node of the path below depth d was expanded fully for
// faults (fullTo): the races of a step taken at d or later, and of the steps reachable
// from a revisited state at d, add nothing there.
func (s *stateful) fullBelow(d int) bool {
	return s.faults && d > 0 && s.fullTo[d-1]
}

// failSalt marks the fingerprint of the state a failing step leads to (Failed).
const failSalt = 0x6661696c6564 // "failed"

// Failed reverses the races of the step that failed, the last explored from the last node
// of p, as Arrive does for a step that reached a state, and expands that node fully
// (FailureAware); and it records the step in the graph as
// an edge to a terminal state of its own, summarized as reaching nothing, so that a
// revisit of a state it is reachable from races it too. That state's fingerprint is made
// from the parent's place in the graph and the step, so no state reached without failing
// shares it.
func (s *stateful) Failed(p Path) {
	nodes := p.Nodes()
	d := len(nodes) - 1
	// Before the edge: leaving them cuts the graph's stack of edges back to where it
	// stood when they were reached.
	s.leaveFrom(d + 1)
	t := s.classify(nodes, d)
	s.levels.invalidate(d)
	s.before(nodes, d)
	s.races(nodes, d)
	nodes[d].Backtrack.AddAll(len(nodes[d].Enabled))
	k, seen := s.g.state(model.Mix64(uint64(uint32(s.sts[d]))<<32|uint64(uint32(t))) ^ failSalt)
	if !seen {
		st := s.g.st(k)
		st.sum, st.sw = sumInline, 0
	}
	s.g.addEdge(s.sts[d], t, k)
}

// classify interns the step taken at depth d of the path into the graph and records its
// class in the class table, returning the graph's step.
func (s *stateful) classify(nodes []Node, d int) int32 {
	t := s.g.intern(nodes[d].Step())
	s.cls.setStep(d, s.g.class[t])
	if s.memo {
		s.cls.rows = s.g.depRows(s.dep)
	}
	return t
}

// leaveFrom records that the states the path held at depth n and above have been left
// for good, and forgets them.
func (s *stateful) leaveFrom(n int) {
	for d := len(s.sts) - 1; d >= n; d-- {
		if !s.revisit[d] {
			s.g.leave(s.sts[:d+1], int(s.pendAt[d]), int(s.edgeAt[d]))
		}
	}
	if n < len(s.sts) {
		s.sts, s.revisit, s.pendAt, s.edgeAt = s.sts[:n], s.revisit[:n], s.pendAt[:n], s.edgeAt[:n]
	}
}

// onPath reports whether depth d below n holds the state k on the current path.
func (s *stateful) onPath(d int32, k int32, n int) bool {
	return d >= 0 && int(d) < n && s.sts[d] == k
}

func (s *stateful) Revisit(p Path) {
	nodes := p.Nodes()
	n := len(nodes) - 1
	s.revisit[n] = true
	c := s.counts
	if c != nil {
		c.Revisits++
		if top := &nodes[n]; !top.Final && top.Sleep.Len() < len(top.Enabled) {
			c.First-- // counted by Arrive, but nothing is explored from here
		}
	}
	if s.fullBelow(n) {
		return
	}
	low := s.reachable(s.sts[n], n)
	b := s.backtracks(nodes)
	s.findRaces(nodes, n)
	top := &nodes[n]
	for _, i32 := range s.raced {
		i := int(i32)
		s.racingWith(i)
		pre := &nodes[i]
		if k := s.firstNotAfter(nodes, i, n); k >= 0 {
			// The first step of the path after i that does not happen after it comes
			// first in notdep(i)·v for every continuation v: an initial of every race
			// of step i with a step reachable from here, as source DPOR needs.
			if x := pre.Find(nodes[k].Step().Event.ID); x >= 0 {
				pre.Backtrack.Add(x)
			} else {
				pre.Backtrack.AddAll(len(pre.Enabled))
			}
			if c != nil {
				b2 := s.backtracks(nodes)
				c.RevisitPath += b2 - b
				b = b2
			}
			continue
		}
		// Every step after i happens after it: the initial is in the continuation v,
		// the first step of v that does not happen after i. Its message was sent before
		// step i (else it would), so it is pending before i and still at the revisited
		// state; it depends on no step after i (else it would happen after i); and it
		// is the racing step or depends on step i neither.
		// Flanagan and Godefroid's rule when every racing step was pending before step
		// i and nothing could come before them (fgSafe): those steps. Otherwise, with
		// them, every event that could be the first step of v not after i.
		s.fg.Clear()
		all := s.racersEnabled(nodes, i, &s.fg)
		pre.Backtrack.Union(&s.fg)
		if c != nil {
			b2 := s.backtracks(nodes)
			c.RevisitPending += b2 - b
			b = b2
		}
		if all && s.fgSafe(i) {
			continue
		}
		for k := range pre.Enabled {
			ct := pre.Enabled[k].Content
			if !pre.Backtrack.Has(k) && pendingContent(top, ct) && s.couldLead(i, ct) {
				pre.Backtrack.Add(k)
			}
		}
		if c != nil {
			b2 := s.backtracks(nodes)
			c.RevisitLead += b2 - b
			b = b2
		}
	}
	for j := low; j < n; j++ {
		nodes[j].Backtrack.AddAll(len(nodes[j].Enabled))
	}
	if c != nil {
		c.Cycle += s.backtracks(nodes) - b
	}
}

// findRaces finds every step i of the path (below n) that a step of a reachable class c,
// run after the path, would be in a race with: c depends on step i and on no later step
// of the path that happens after i (which would put i before it). It fills s.raced with
// those steps, in order, and s.cand with the candidates of every class (racingWith
// picks a step's racing classes out of it); and s.lastDep[c]: the last step of the path
// a step of class c depends on, or −1.
func (s *stateful) findRaces(nodes []Node, n int) {
	if len(s.lastDep) < len(s.g.classInfo) {
		s.lastDep = make([]int32, len(s.g.classInfo))
	}
	cand, last := s.level(nodes, n)
	s.cand = cand
	s.racedSet.Clear()
	for _, c := range s.classes {
		s.lastDep[c] = last[c]
		s.racedSet.Union(&cand[c])
	}
	s.raced = s.raced[:0]
	s.racedSet.Each(func(i int) { s.raced = append(s.raced, int32(i)) })
}

// racingWith fills s.racingSteps with the graph's steps of the reachable classes in a
// race with step i of the path (findRaces).
func (s *stateful) racingWith(i int) {
	s.racingSteps.Clear()
	for _, c := range s.classes {
		if s.cand[c].Has(i) {
			s.racingSteps.Or(s.g.clsSteps[c])
		}
	}
}

// firstNotAfter returns the first step of the path after i (below n) that does not
// happen after step i, or −1 when every one does — leaving out a step whose event was
// asleep at step i's node, and the steps after it. Under sleep sets such an event is
// explored below the node only where a dependent step woke it, which puts that step
// first; but a quiet actor's event woken by firstEvent (quietfirst.go) may be the first
// step not after i. It is then an initial of the race's reversal that the node does not
// explore, and the traces it stands for are covered by the sleep set only if they start
// with it: the reversal without it — the one the search would have found had the event
// not been woken, and the one a final state may need — would be lost. Random cyclic
// system 1795 lost 6 of its 504 final states so
// (TestStatefulDPORReachesEveryFinalStatePastWokenEvents). Without such a step the
// race goes to the rules for a continuation's first step.
func (s *stateful) firstNotAfter(nodes []Node, i, n int) int {
	pre := &nodes[i]
	asleep := pre.Sleep.Len() > 0
	s.skipped.Clear()
	for k := i + 1; k < n; k++ {
		st := nodes[k].Step()
		if st.Before.Has(i) {
			continue
		}
		if asleep && (st.Before.Intersects(&s.skipped) || asleepAt(pre, st.Event.ID)) {
			s.skipped.Add(k)
			continue
		}
		return k
	}
	return -1
}

// asleepAt reports whether the event id is enabled and asleep at n.
func asleepAt(n *Node, id uint64) bool {
	k := n.Find(id)
	return k >= 0 && n.Sleep.Has(k)
}

// reachable gathers in s.reach the steps of the graph reachable from the state k, and
// in s.classes their classes; it returns the shallowest depth of the path (below n) that
// holds a state reachable from k, or n when none does. States whose reachable steps are
// summarized already (every state they reach has been left) are not walked again.
func (s *stateful) reachable(k int32, n int) int {
	g := s.g
	s.reach.Clear()
	if st := g.st(k); st.sum == sumInline {
		// The commonest case: the revisited state's summary is one word, in the state.
		s.reach = append(s.reach, st.sw)
		s.classes = s.classes[:0]
		for w := g.inlineClasses(st.sw); w != 0; w &= w - 1 {
			s.classes = append(s.classes, int32(bits.TrailingZeros64(w)))
		}
		return n
	} else if st.sum >= 0 {
		// The common case: the revisited state's summary is known, and so its classes.
		s.reach = append(s.reach, g.sum(st.sum)...)
		s.classes = s.classes[:0]
		for k, w := range g.sumClasses(st.sum) { // Bits.Each, inlined
			for ; w != 0; w &= w - 1 {
				s.classes = append(s.classes, int32(k*64+bits.TrailingZeros64(w)))
			}
		}
		return n
	}
	low := n
	s.queue = append(s.queue[:0], k)
	for len(s.queue) > 0 {
		u := s.queue[len(s.queue)-1]
		s.queue = s.queue[:len(s.queue)-1]
		if s.walked.Has(int(u)) {
			continue
		}
		s.walked.Set(int(u))
		s.walk = append(s.walk, u)
		st := g.st(u)
		if st.sum >= 0 {
			s.reach.Or(g.sumOf(st))
			continue
		}
		if st.old() >= 0 { // being explored again: what it reached before, too
			s.reach.Or(g.oldOf(st))
		}
		o := g.op(st)
		if s.onPath(o.depth, u, n) && int(o.depth) < low {
			low = int(o.depth)
		}
		for e := o.first; e >= 0; e = g.edges[e].next {
			s.reach.Set(int(g.edges[e].step))
			s.queue = append(s.queue, g.edges[e].to)
		}
	}
	for _, u := range s.walk {
		s.walked[u/64] &^= 1 << (u % 64)
	}
	s.walk = s.walk[:0]
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

// racersEnabled puts in out, for the races of step i of the path, the racing steps that
// were pending at its node pre (Flanagan and Godefroid's rule: the racing step itself),
// and reports whether every racing step was. A racing step asleep at pre that did there
// what the relation looks at otherwise than it does where it races is woken, as
// source.moves wakes one.
func (s *stateful) racersEnabled(nodes []Node, i int, out *Set) bool {
	pre := &nodes[i]
	// The reachable steps of the racing classes, in order (s.racingSteps picks them).
	for k, w := range s.reach {
		if k >= len(s.racingSteps) {
			break
		}
		for w &= s.racingSteps[k]; w != 0; w &= w - 1 {
			t := &s.g.Steps[k*64+bits.TrailingZeros64(w)]
			found := false
			for e := range pre.Enabled {
				if pre.Enabled[e].Content == t.Content {
					out.Add(e)
					found = true
					if pre.Sleep.Has(e) && s.moves(nodes, i, e, t.Returns, t.Answers) {
						s.source.wake(nodes, i, e)
					}
				}
			}
			if !found {
				return false
			}
		}
	}
	return true
}

// couldLead reports whether an event of the given content, delivered after the path,
// could be the first step of v that does not happen after step i, when every step of the
// path after i does: some reachable step with that content depends on none of those
// steps, and on step i only if it is itself in a race with it.
func (s *stateful) couldLead(i int, content uint64) bool {
	for t := s.g.firstWith(content); t >= 0; t = s.g.stepNext[t] {
		if s.reach.Has(int(t)) && int(s.lastDep[s.g.class[t]]) <= i {
			return true
		}
	}
	return false
}

// pendingContent reports whether an event of the given content is enabled at nd.
func pendingContent(nd *Node, content uint64) bool {
	for k := range nd.Enabled {
		if nd.Enabled[k].Content == content {
			return true
		}
	}
	return false
}

// fgSafe reports whether Flanagan and Godefroid's rule is sound for the races of step i
// at a revisit: whether no reachable step that could come before a racing step in a
// continuation without happening after i — one that depends on no step of the path after
// i and races with i not itself — depends on a racing step. Then, in every continuation,
// the first racing step that does not happen after i has nothing before it that it
// depends on but steps that happen after i, and is an initial of notdep(i)·v·t: one the
// rule adds, since every racing step was pending before i. Otherwise such a step may
// have to come first, and the rule would miss it (a quiet actor's woken event exposes
// that: quietfirst.go).
func (s *stateful) fgSafe(i int) bool {
	if !s.memo {
		for _, c := range s.classes {
			if !s.cand[c].Has(i) {
				continue
			}
			for _, o := range s.classes {
				if !s.cand[o].Has(i) && int(s.lastDep[o]) <= i && s.dep.Dependent(&s.g.classInfo[c], &s.g.classInfo[o]) {
					return false
				}
			}
		}
		return true
	}
	rows := s.g.depRows(s.dep)
	s.fgDeps.Clear()
	for _, c := range s.classes {
		if s.cand[c].Has(i) {
			s.fgDeps.Or(rows[c])
		}
	}
	for _, o := range s.classes {
		if !s.cand[o].Has(i) && int(s.lastDep[o]) <= i && s.fgDeps.Has(int(o)) {
			return false
		}
	}
	return true
}
