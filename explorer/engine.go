package explorer

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// engine is one search.
type engine struct {
	x     *executor
	opts  Options
	strat dpor.Strategy
	needs dpor.Needs

	// The search path: states[d] is the state at depth d, nodes[d] its strategy node,
	// idx[d][i] the index in states[d].pending of nodes[d].Enabled[i]. Buffers above
	// the top are kept for reuse.
	states []*state
	nodes  []dpor.Node
	idx    [][]int
	// log is the history of the current path; states[d]'s history is log[:states[d].events].
	log []histories.Event
	// With clocks: lastAt[d][a] is the index of the last step at actor a before depth d
	// (−1: none), and clocks[d] the vector clock of the step taken at depth d.
	lastAt [][]int32
	clocks [][]int32
	// peeks[d][k] caches the step from states[d] delivering nodes[d].Enabled[k], run
	// before it was explored (dpor.Path.Next).
	peeks [][]peek

	// With state caching: the set of states visited, and the strategy's cache key.
	visited visitedSet
	cacher  dpor.StateCacher
	// early, when the visited set is looked up by the state's fingerprint alone (the
	// cache key is always 0): arrive asks it to start fetching the state's slot before
	// the path's node is built; earlyFP is that fingerprint, for visit.
	early   prefetcher
	earlyFP uint64
	// stale marks, in stateless mode, that the states above the initial one are not
	// kept: they must be rebuilt before the next step.
	stale bool
	err   error // a failure of Ravel's own (the visited set's disk), ending the run
	// ckpt is set when the search keeps checkpoints (checkpoint.go).
	ckpt *checkpointer

	checker  *checker
	stats    Stats
	first    *Violation
	start    time.Time
	maxS     int64
	maxDepth int
	end      ScheduleEnd

	// judged is the entry of the history of the schedule that ended last; sess the
	// sampler session, when one runs (sampling.go).
	judged *canonEntry
	sess   *session

	// commuteMemo holds CommutesAt's answers for two deliveries to one actor, by what
	// decides them (CommutesAt).
	commuteMemo map[uint64]bool
	// memo holds where steps already run led, for CommutesAt (stepmemo.go): set for
	// stateful DPOR.
	memo *stepMemo
	// checkLogs are the histories CommutesAt's runs append to (runOne), kept from one
	// check to the next.
	checkLogs [2][]histories.Event
	// sends remembers what deliveries sent, by receiver state and event (sendsto.go).
	sends slotCache[uint64]
	// habits are what deliveries have always sent, by receiver and content (sendsto.go),
	// for stateful DPOR's SendsTo; nil for other searches.
	habits map[uint64]sendsHabit
	// fps are the fingerprints of the states of the path, with state caching: closesCycle
	// looks a revisited state up among them.
	fps []uint64
	// answered holds the operations answered in some schedule so far, until every one
	// has been (Stats.Answered); nil then.
	answered map[model.RequestID]struct{}
}

// Run explores sys with opts and reports what it found. It returns an error when the
// system cannot be explored at all (it does not validate, or an actor cannot be copied);
// a panic in a handler is a finding, not an error. Cancelling ctx ends the search early
// with the statistics so far. When Ravel's own machinery fails during the search (the
// visited set's disk), Run returns both the error and the result so far, with any
// violation already found; a nil result means nothing was explored.
func Run(ctx context.Context, sys model.System, opts Options) (*Result, error) {
	if err := checkSize(len(sys.Actors)); err != nil {
		return nil, err
	}
	if err := opts.checkStates(); err != nil {
		return nil, err
	}
	if err := opts.checkStrategy(); err != nil {
		return nil, err
	}
	x, err := newExecutor(&sys, opts.Reflective)
	if err != nil {
		return nil, err
	}
	if opts.Sampling != nil && opts.Sampling.DeclaredRacy && sys.Racy == nil {
		return nil, fmt.Errorf("system %q declares no racy message types (model.System.Racy): calibrate R instead", sys.Name)
	}
	e := &engine{
		x:        x,
		opts:     opts,
		strat:    opts.Strategy,
		checker:  newChecker(x),
		sends:    newSlotCache[uint64](sendsSlots),
		maxS:     opts.maxSchedules(),
		maxDepth: opts.maxDepth(),
		start:    time.Now(),
	}
	if e.strat == nil {
		e.strat = dpor.Exhaustive()
		if opts.Sampling != nil {
			e.strat = samplingStrategy{opts.Sampling}
		}
	}
	e.strat = forFaults(e.strat, x.faulty)
	if opts.StateCaching {
		if _, _, ok := samplingOf(opts, e.strat); ok {
			return nil, fmt.Errorf("state caching does not apply to the %s sampler: its runs are drawn independently, and ending one where an earlier run has been would change the distribution its guarantee is stated for; turn caching off, or use dpor, exhaustive or delay-bounded with caching", e.strat.Name())
		}
		if e.strat, e.cacher, err = cacheable(e.strat, x.faulty); err != nil {
			return nil, err
		}
		_, revisits := e.strat.(dpor.Revisiter)
		if revisits {
			e.memo = newStepMemo() // for CommutesAt, from the first step
			e.habits = map[uint64]sendsHabit{}
		}
		if opts.CanonicalStates && !revisits && !dpor.KeyFree(e.cacher) {
			return nil, fmt.Errorf("canonical states with the %s strategy lose canonical histories: what it explores from a state depends on more than the state and the canonical form of its history; use exhaustive or dpor, or chronological states", e.strat.Name())
		}
		x.byCanon = opts.CanonicalStates
	}
	if opts.Checkpoint.Dir != "" {
		if err := e.openCheckpoint(); err != nil {
			return nil, err
		}
	} else if opts.StateCaching {
		if e.visited, err = openVisitedFor(opts, e.strat); err != nil {
			return nil, err
		}
	}
	if p, ok := e.visited.(prefetcher); ok && dpor.KeyFree(e.cacher) {
		e.early = p
	}
	e.needs = e.strat.Needs()
	x.keys = e.needs.Keys
	e.stats.BeforeFirst = -1
	var complete bool
	if cfg, seed, ok := samplingOf(opts, e.strat); ok {
		e.checker.inline = opts.StopAtFirst // a run's verdict before the next run
		complete = e.sample(ctx, cfg, seed)
	} else {
		complete = e.search(ctx)
		e.settlePeeks(-1)
		e.finalCheckpoint(complete)
	}
	exploreEnd := time.Since(e.start)
	canonical, bad := e.checker.finish(&e.stats)
	if b := e.checker.broken.Load(); b != nil {
		complete = false // a history without a verdict: nothing is verified
		if e.err == nil {
			e.err = fmt.Errorf("schedule %d's history has no verdict: %w.\nThis is a bug in the specification, not in the system. The history:\n%s",
				b.first.schedule, b.err, strings.TrimRight(histories.Timeline(&sys, b.first.events), "\n"))
		}
	}
	if e.visited != nil {
		e.stats.Visited = e.visited.Stats()
		if err := e.visited.Close(); err != nil && e.err == nil {
			e.err = fmt.Errorf("visited set: %w", err)
		}
	}
	if err := e.closeCheckpoint(); err != nil && e.err == nil {
		e.err = fmt.Errorf("checkpoint: %w", err)
	}
	if bad != nil && (e.first == nil || bad.first.schedule < e.first.Schedule) {
		e.first = &Violation{
			Kind:        "nonlinearizable",
			Schedule:    bad.first.schedule,
			Steps:       deliveries(bad.first.steps),
			Events:      bad.first.events,
			Fingerprint: bad.first.fingerprint,
		}
		e.stats.ToFirst, e.stats.BeforeFirst = bad.first.at, bad.first.uniqueSeen
	}
	e.stats.CopyTime, e.stats.CopiesTimed = x.copyTime, x.copiesTimed
	e.stats.Check = e.checker.checking()
	e.stats.Total = time.Since(e.start)
	// Checking overlaps exploring: TS is the time the search itself took, TT the time
	// until every history was checked too.
	e.stats.Explore = exploreEnd
	if e.first != nil && e.err == nil {
		e.verifyReplay(e.first)
		if opts.Minimize && e.first.Replayed {
			e.first = minimize(ctx, e.x, e.first)
		}
		if e.first.Kind == "changed-message" {
			asSent(e.x, e.first)
		}
	}
	// A finding of the model (Violation.OfModel) means the system could not be checked.
	res := &Result{Stats: e.stats, Complete: complete && e.stats.Cut == 0 && !e.first.OfModel(), First: e.first, Strategy: e.strat.Name()}
	if dep := dpor.RelationOf(e.strat); dep != nil {
		res.Dependence = dep.Name()
		if dep.NeedsKeys() {
			res.Exclusions = sys.Keys.Exclusions()
		}
	}
	res.Canonical = canonical
	res.Resumed = e.resumed()
	res.Checkpointed = e.ckpt != nil && (e.ckpt.saved || e.ckpt.resume != nil)
	if e.sess != nil {
		res.Sampling = e.sess.finish(e)
	}
	// A failure of Ravel's own during the search (the visited set's disk) ends it, but
	// what was found before — a violation above all — is still the caller's to report.
	return res, e.err
}

// begin puts the initial state on an empty path; false means the start-up failed, which
// is recorded.
func (e *engine) begin() (*state, bool) {
	init, fail, err := e.x.initial()
	if err != nil || fail != nil {
		if fail == nil {
			fail = &failure{kind: "panic", msg: err.Error()}
		}
		e.stats.Schedules = 1
		e.stats.Panics = 1
		e.fail(fail, nil, 0)
		return nil, false
	}
	return init, true
}

// search runs the depth-first loop and reports whether it ended by itself.
func (e *engine) search(ctx context.Context) bool {
	if e.ckpt != nil && e.ckpt.resume != nil {
		more, complete, err := e.restore()
		if err != nil {
			e.err = err
			return false
		}
		if !more {
			return complete
		}
		if on := e.opts.Checkpoint.OnResume; on != nil {
			on(*e.resumed())
		}
	} else if init, ok := e.begin(); !ok || !e.arrive(init) {
		return true
	}
	lastProgress := time.Now()
	for len(e.states) > 0 {
		d := len(e.states) - 1
		node := &e.nodes[d]
		i, ok := e.next(node)
		if !ok {
			e.pop()
			continue
		}
		// Every pollMask+1 steps: a step of a large system can take milliseconds, and a
		// long schedule must still show progress and stop promptly when interrupted.
		if e.stats.Steps&pollMask == 0 {
			if ctx.Err() != nil {
				e.stats.Interrupted = true
				return false
			}
			if e.checker.broken.Load() != nil {
				return false // the specification panicked: no verdict can be trusted
			}
			if e.opts.Progress != nil && time.Since(lastProgress) >= e.progressEvery() {
				lastProgress = time.Now()
				e.progress()
			}
			if e.maybeCheckpoint(); e.err != nil {
				return false
			}
		}
		if e.stale {
			e.rebuild(d)
		}
		next, fail := e.take(d, i)
		if fail != nil {
			e.stats.Schedules++
			e.stats.Panics++
			e.fail(fail, next, d+1)
			if f, ok := e.strat.(dpor.FailureAware); ok {
				f.Failed(e)
				// The failing step covers nothing beyond itself: it is not a step whose
				// subtree the siblings may sleep on, nor one a reversal may rely on.
				node := &e.nodes[d]
				node.Tried = node.Tried[:len(node.Tried)-1]
			}
			e.forget()
			if e.spent() {
				return false
			}
			continue
		}
		if e.arrive(next) {
			if e.opts.MaxStates > 0 && e.stats.States >= e.opts.MaxStates {
				return false
			}
			continue
		}
		if e.err != nil {
			return false
		}
		if e.spent() {
			return false
		}
	}
	return true
}

// spent reports that a budget of the search is spent: the schedules', or the states'.
func (e *engine) spent() bool { return e.spentAt(e.stats) }

// spentAt reports whether statistics st have spent the run's budgets.
func (e *engine) spentAt(st Stats) bool {
	return st.Schedules >= e.maxS || (e.opts.MaxStates > 0 && st.States >= e.opts.MaxStates)
}

// arrive puts s on the path, lets the strategy see it, and reports whether the search
// goes on from it. When it does not — s is final, or was visited before — the schedule
// that reached it ends (if s is new) and s is taken off the path.
func (e *engine) arrive(s *state) bool {
	if e.early != nil {
		e.earlyFP = s.fingerprint()
		e.early.Prefetch(e.earlyFP)
	}
	more := e.push(s)
	e.strat.Arrive(e)
	if e.visited != nil {
		isNew, err := e.visit()
		if err != nil {
			e.err = err
			e.pop()
			return false
		}
		if !isNew {
			if r, ok := e.strat.(dpor.Revisiter); ok {
				r.Revisit(e)
			}
			if e.closesCycle(s) {
				// A path that returns to a state on itself will repeat forever: the
				// lasso is a schedule of a system that never quiesces (a re-armed
				// timer), and its history, the same all around the cycle, is final.
				// Judged here, or a search whose every path cycles judges none.
				e.stats.Cycles++
				e.endSchedule(s, false, true)
				if _, ok := e.strat.(dpor.Revisiter); ok {
					e.expandCycle()
				}
			}
			e.pop()
			e.forget()
			return false
		}
	}
	if more {
		return true
	}
	d := len(e.states) - 1
	e.endSchedule(s, len(e.nodes[d].Enabled) > 0, false)
	e.pop()
	e.forget()
	return false
}

// forget drops, in stateless mode, every state above the initial one: the next step
// rebuilds the one it needs from the initial state.
func (e *engine) forget() {
	if !e.opts.Stateless {
		return
	}
	for i := 1; i < len(e.states); i++ {
		e.states[i] = nil
	}
	e.stale = true
}

// rebuild re-executes the path from the initial state up to depth d, in stateless mode:
// the states above the initial one were not kept.
func (e *engine) rebuild(d int) {
	s := e.states[0]
	e.log = e.log[:0]
	for j := 0; j < d; j++ {
		next, log, fail := e.x.step(s, e.idx[j][e.nodes[j].Taken], j, e.log)
		e.log = log
		e.stats.Replayed++
		if fail != nil || next == nil {
			// The step ran before without failing: a handler is not deterministic.
			e.err = fmt.Errorf("stateless re-execution of step %d failed where the first execution did not: a handler is not deterministic", j+1)
			return
		}
		s = next
		e.states[j+1] = s
	}
	e.stale = false
}

// take runs event i of the node at depth d — or reuses its peek — and records what the
// step did in the node.
func (e *engine) take(d, i int) (*state, *failure) {
	node := &e.nodes[d]
	node.Done.Add(i)
	node.Taken = i
	node.Freeze = false
	var next *state
	var fail *failure
	var info dpor.StepInfo
	if d < len(e.peeks) && i < len(e.peeks[d]) && e.peeks[d][i].ok && e.peeks[d][i].next != nil {
		p := &e.peeks[d][i]
		p.bySends = false
		if p.byCheck {
			e.useCheckRun(d, i, p)
		}
		e.log = append(e.log[:e.states[d].events], p.events...)
		next, fail, info = p.next, p.fail, p.info
	} else if e.opts.Stateless && d < len(e.peeks) && i < len(e.peeks[d]) && e.peeks[d][i].dropped {
		// Stateless: the peek ran this step and kept only where it leads. Running it
		// again rebuilds that state, a replay as rebuild's are; the step was counted.
		p := &e.peeks[d][i]
		p.bySends = false
		next, e.log, fail = e.x.step(e.states[d], e.idx[d][i], d, e.log)
		e.stats.Replayed++
		info = p.info
	} else {
		next, e.log, fail = e.x.step(e.states[d], e.idx[d][i], d, e.log)
		e.stats.Steps++
		info = e.info(node.Enabled[i])
		if e.idx[d][i] >= 0 { // a delivery, not a fault
			e.noteStep(e.states[d], node.Enabled[i].Content, next, fail, &info, true)
		}
	}
	if e.needs.Clocks {
		info.Clock = e.clock(d, &node.Enabled[i])
	}
	if e.habits != nil && fail == nil && next != nil && e.idx[d][i] >= 0 {
		e.learnSends(habitKey(&info.Event), info.SendsTo)
	}
	node.Tried = append(node.Tried, info)
	return next, fail
}

// info describes the step the executor just ran, delivering ev.
func (e *engine) info(ev dpor.Event) dpor.StepInfo {
	info := dpor.StepInfo{Event: ev, Invokes: ev.Kind == dpor.Request, Returns: e.x.returned, SendsTo: e.x.sentTo, Disables: e.x.disabled}
	if len(e.x.answered) > 0 {
		info.Answers = slices.Clone(e.x.answered)
	}
	return info
}

// clock computes the vector clock of the step at depth d delivering ev: what the last
// step at the same actor knew, joined with what the step that sent ev knew.
func (e *engine) clock(d int, ev *dpor.Event) []int32 {
	n := len(e.x.sys.Actors)
	for len(e.clocks) <= d {
		e.clocks = append(e.clocks, make([]int32, n))
	}
	c := e.clocks[d]
	clear(c)
	if last := e.lastAt[d][ev.To]; last >= 0 {
		copy(c, e.clocks[last])
	}
	if p := ev.Parent; p >= 0 {
		for a, v := range e.clocks[p] {
			c[a] = max(c[a], v)
		}
	}
	c[ev.To] = int32(d + 1)
	return c
}

// Nodes implements dpor.Path.
func (e *engine) Nodes() []dpor.Node { return e.nodes }

func (e *engine) progressEvery() time.Duration {
	if e.opts.ProgressEvery > 0 {
		return e.opts.ProgressEvery
	}
	return time.Second
}

func (e *engine) progress() {
	s := e.stats
	s.Check = e.checker.checking()
	s.Total = time.Since(e.start)
	s.Explore = s.Total
	s.Canonical = int64(len(e.checker.entries))
	s.NonlinearizableCan = e.checker.bad.Load()
	if e.visited != nil {
		// Cheap: counters, and the sizes of the set's few tables.
		s.Visited = e.visited.Stats()
	}
	e.opts.Progress(s)
}

// push puts s on the path and lists its enabled events. It reports whether the search
// goes on from s: something is enabled and the depth budget is not spent.
func (e *engine) push(s *state) bool {
	d := len(e.states)
	e.states = append(e.states, s)
	if e.visited != nil {
		e.fps = append(e.fps[:d], s.fingerprint())
	}
	if d < cap(e.nodes) {
		e.nodes = e.nodes[:d+1]
	} else {
		e.nodes = append(e.nodes, dpor.Node{})
	}
	if d < cap(e.idx) {
		e.idx = e.idx[:d+1]
	} else {
		e.idx = append(e.idx, nil)
	}
	n := &e.nodes[d]
	n.Backtrack.Clear()
	n.Done.Clear()
	n.Sleep.Clear()
	n.Cycled.Clear()
	n.SleepInfo = n.SleepInfo[:0]
	n.Tried = n.Tried[:0]
	n.Taken = -1
	n.Freeze = false
	n.Delays = 0
	n.Enabled, e.idx[d] = e.x.enabled(s, n.Enabled, e.idx[d])
	if enabledHook != nil {
		enabledHook(n.Enabled, e.idx[d])
	}
	n.Final = len(n.Enabled) == 0 || d >= e.maxDepth
	if d < len(e.peeks) {
		e.settlePeeks(d)
		clear(e.peeks[d])
	}
	if e.needs.Clocks {
		e.pushLastAt(d)
	}
	if d > e.stats.MaxDepth {
		e.stats.MaxDepth = d
	}
	return !n.Final
}

// endHook, when set (by tests), sees the state every schedule ends in, and whether the
// depth budget cut it there.
var endHook func(e *engine, s *state, cut bool)

// enabledHook, when set (by tests), may reorder the events enabled at each state the
// search reaches, with their indices in the state's pending list: the strategies must
// reach the same states whatever the order (they start a node with its first event).
var enabledHook func(evs []dpor.Event, idx []int)

// pushLastAt fills lastAt[d] from lastAt[d−1] and the step taken at d−1.
func (e *engine) pushLastAt(d int) {
	n := len(e.x.sys.Actors)
	for len(e.lastAt) <= d {
		e.lastAt = append(e.lastAt, make([]int32, n))
	}
	if d == 0 {
		for a := range e.lastAt[0] {
			e.lastAt[0][a] = -1
		}
		return
	}
	copy(e.lastAt[d], e.lastAt[d-1])
	e.lastAt[d][e.nodes[d-1].Enabled[e.nodes[d-1].Taken].To] = int32(d - 1)
}

func (e *engine) pop() {
	d := len(e.states) - 1
	e.states[d] = nil
	e.states = e.states[:d]
	if len(e.fps) > d {
		e.fps = e.fps[:d]
	}
	e.nodes = e.nodes[:d]
	e.idx = e.idx[:d]
}

// steps lists the events taken along the path to depth d.
func (e *engine) steps(d int) []dpor.Event {
	out := make([]dpor.Event, d)
	for i := 0; i < d; i++ {
		out[i] = e.nodes[i].Enabled[e.nodes[i].Taken]
	}
	return out
}

// endSchedule judges the history of the schedule that ended in s, the top of the path.
func (e *engine) endSchedule(s *state, cut, cycle bool) {
	if endHook != nil {
		endHook(e, s, cut)
	}
	e.stats.Schedules++
	if cut {
		e.stats.Cut++
		e.noteCut(s)
	}
	events := e.log[:s.events]
	if !histories.Complete(e.x.harness, events) {
		e.stats.Incomplete++
	}
	e.noteAnswered(events)
	if e.opts.OnSchedule != nil {
		d := len(e.states) - 1
		e.end = ScheduleEnd{Index: e.stats.Schedules, Steps: e.steps(d), Events: events, Fingerprint: s.fingerprint(), Cut: cut, Cycle: cycle}
		e.opts.OnSchedule(&e.end)
	}
	e.judged = e.checker.judge(e.x.chronoOf(s, events), events, &e.stats, cycle, func() found {
		return found{
			schedule:    e.stats.Schedules,
			steps:       e.steps(len(e.states) - 1),
			events:      append([]histories.Event(nil), events...),
			fingerprint: s.fingerprint(),
			at:          time.Since(e.start),
		}
	})
}

// noteAnswered counts, in Stats.Answered, the operations events answer that no
// schedule had answered before. Once every operation has been, it costs nothing more.
func (e *engine) noteAnswered(events []histories.Event) {
	all := int64(e.x.harness.NumOps())
	if e.stats.Answered >= all {
		return
	}
	if e.answered == nil {
		e.answered = make(map[model.RequestID]struct{})
	}
	for _, ev := range events {
		if ev.Kind == histories.Return {
			e.answered[ev.Req] = struct{}{}
		}
	}
	// A resumed checkpoint's figure stands for the operations its search answered.
	e.stats.Answered = max(e.stats.Answered, int64(len(e.answered)))
	if e.stats.Answered >= all {
		e.answered = nil
	}
}

// fail records a panic or bad response in the step from depth d−1; s is the state the
// step had built so far (nil for start-up).
func (e *engine) fail(f *failure, s *state, d int) {
	if e.first != nil {
		return
	}
	v := &Violation{Kind: f.kind, Schedule: e.stats.Schedules, Message: f.msg, Stack: f.stack}
	if s != nil {
		v.Steps = deliveries(append(e.steps(d-1), e.nodes[d-1].Enabled[e.nodes[d-1].Taken]))
		v.Events = append([]histories.Event(nil), e.log[:s.events]...)
		v.Fingerprint = s.fingerprint()
	}
	e.stats.ToFirst = time.Since(e.start)
	e.stats.BeforeFirst = e.stats.Unique
	e.first = v
}

func deliveries(evs []dpor.Event) []Delivery {
	out := make([]Delivery, len(evs))
	for i, ev := range evs {
		out[i] = deliveryOf(ev)
	}
	return out
}

// verifyReplay re-runs v's schedule from the initial state and records whether it
// reaches the same end (DESIGN.md, Semantics 1).
func (e *engine) verifyReplay(v *Violation) {
	ids := make([]uint64, len(v.Steps))
	for i, s := range v.Steps {
		ids[i] = s.ID
	}
	ex, err := replay(e.x, ids, nil)
	if err != nil {
		v.Replayed = false
		return
	}
	if v.Kind == "nonlinearizable" {
		v.Replayed = ex.Failure == "" && ex.Fingerprint == v.Fingerprint
		return
	}
	// A panic or bad response must recur at the same step, with the same message, from
	// the same state; one that does not is not verified.
	v.Replayed = ex.Failure == v.Kind+": "+v.Message && len(ex.Steps) == len(v.Steps) &&
		(len(v.Steps) == 0 || ex.Fingerprint == v.Fingerprint)
}

// asSent puts in the last step of v, a changed-message finding, the message as it was
// sent rather than as the handler left it: it replays the steps before, which make the
// message anew, and takes it from the pending events before its delivery. The message
// says what the handler changed it to.
func asSent(x *executor, v *Violation) {
	n := len(v.Steps)
	if n == 0 {
		return
	}
	ids := make([]uint64, n-1)
	for i, s := range v.Steps[:n-1] {
		ids[i] = s.ID
	}
	ex, err := replay(x, ids, nil)
	if err != nil || ex.Failure != "" {
		return
	}
	last := &v.Steps[n-1]
	for _, p := range ex.Pending {
		if p.ID == last.ID {
			changed := DescribeMessageOf(x.sys, last.Msg)
			if sent := DescribeMessageOf(x.sys, p.Msg); sent != changed {
				last.Msg = p.Msg
				v.Message += "; the schedule shows it as sent, " + sent + ", which the handler changed to " + changed
			}
			return
		}
	}
}
