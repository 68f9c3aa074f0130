package explorer

import (
	"context"
	"time"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// engine is one depth-first search.
type engine struct {
	x     *executor
	opts  Options
	strat dpor.Strategy

	// The search path: states[d] is the state at depth d, nodes[d] its strategy node,
	// idx[d][i] the index in states[d].pending of nodes[d].Enabled[i].
	states []*state
	nodes  []dpor.Node
	idx    [][]int
	// log is the history of the current path; states[d]'s history is log[:states[d].events].
	log []histories.Event

	checker  *checker
	stats    Stats
	first    *Violation
	start    time.Time
	maxS     int64
	maxDepth int
	end      ScheduleEnd
}

// Run explores sys with opts and reports what it found. It returns an error when the
// system cannot be explored at all (it does not validate, or an actor cannot be copied);
// a panic in a handler is a finding, not an error. Cancelling ctx ends the search early
// with the statistics so far.
func Run(ctx context.Context, sys model.System, opts Options) (*Result, error) {
	x, err := newExecutor(&sys, opts.Reflective)
	if err != nil {
		return nil, err
	}
	e := &engine{
		x:        x,
		opts:     opts,
		strat:    opts.Strategy,
		checker:  newChecker(x),
		maxS:     opts.maxSchedules(),
		maxDepth: opts.maxDepth(),
		start:    time.Now(),
	}
	if e.strat == nil {
		e.strat = dpor.Exhaustive()
	}
	e.stats.BeforeFirst = -1
	complete := e.search(ctx)
	e.stats.Check = e.checker.elapsed
	e.stats.Total = time.Since(e.start)
	e.stats.Explore = e.stats.Total - e.stats.Check
	if e.first != nil {
		e.verifyReplay(e.first)
	}
	return &Result{Stats: e.stats, Complete: complete && e.stats.Cut == 0, First: e.first, Strategy: e.strat.Name()}, nil
}

// search runs the depth-first loop and reports whether it ended by itself.
func (e *engine) search(ctx context.Context) bool {
	init, fail, err := e.x.initial()
	if err != nil || fail != nil {
		if fail == nil {
			fail = &failure{kind: "panic", msg: err.Error()}
		}
		e.stats.Schedules = 1
		e.stats.Panics = 1
		e.fail(fail, nil, 0)
		return true
	}
	e.push(init)
	lastProgress := time.Now()
	for len(e.states) > 0 {
		d := len(e.states) - 1
		node := &e.nodes[d]
		i, ok := node.Backtrack.FirstNotIn(&node.Done)
		if !ok {
			e.pop()
			continue
		}
		node.Done.Add(i)
		node.Taken = i
		if e.stats.Steps&1023 == 0 {
			if ctx.Err() != nil {
				e.stats.Interrupted = true
				return false
			}
			if e.opts.Progress != nil && time.Since(lastProgress) >= e.progressEvery() {
				lastProgress = time.Now()
				e.progress()
			}
		}
		next, log, fail := e.x.step(e.states[d], e.idx[d][i], d, e.log)
		e.log = log
		e.stats.Steps++
		if fail != nil {
			e.stats.Schedules++
			e.stats.Panics++
			e.fail(fail, next, d+1)
			if e.stats.Schedules >= e.maxS {
				return false
			}
			continue
		}
		e.push(next)
		top := &e.nodes[d+1]
		cut := len(top.Enabled) > 0 && d+1 >= e.maxDepth
		if len(top.Enabled) == 0 || cut {
			e.endSchedule(next, cut)
			e.pop()
			if e.stats.Schedules >= e.maxS {
				return false
			}
		}
	}
	return true
}

func (e *engine) progressEvery() time.Duration {
	if e.opts.ProgressEvery > 0 {
		return e.opts.ProgressEvery
	}
	return time.Second
}

func (e *engine) progress() {
	s := e.stats
	s.Check = e.checker.elapsed
	s.Total = time.Since(e.start)
	s.Explore = s.Total - s.Check
	e.opts.Progress(s)
}

// push puts s on the path, lists its enabled events and lets the strategy choose.
func (e *engine) push(s *state) {
	d := len(e.states)
	e.states = append(e.states, s)
	// Nodes and index buffers above the top are kept for reuse: their slices are
	// overwritten, never shared with a live state.
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
	n.Taken = -1
	n.Enabled, e.idx[d] = e.x.enabled(s, n.Enabled, e.idx[d])
	if d > e.stats.MaxDepth {
		e.stats.MaxDepth = d
	}
	if len(n.Enabled) > 0 && d < e.maxDepth {
		e.strat.Arrive(e.nodes)
	}
}

func (e *engine) pop() {
	d := len(e.states) - 1
	e.states[d] = nil
	e.states = e.states[:d]
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
func (e *engine) endSchedule(s *state, cut bool) {
	e.stats.Schedules++
	if cut {
		e.stats.Cut++
	}
	events := e.log[:s.events]
	if !histories.Complete(e.x.harness, events) {
		e.stats.Incomplete++
	}
	if e.opts.OnSchedule != nil {
		d := len(e.states) - 1
		e.end = ScheduleEnd{Index: e.stats.Schedules, Steps: e.steps(d), Events: events, Fingerprint: s.fingerprint(), Cut: cut}
		e.opts.OnSchedule(&e.end)
	}
	verdict := e.checker.judge(s.chrono, events, &e.stats)
	if verdict == newViolation && e.first == nil {
		e.stats.ToFirst = time.Since(e.start)
		e.stats.BeforeFirst = e.stats.Unique - 1
		e.first = &Violation{
			Kind:        "nonlinearizable",
			Schedule:    e.stats.Schedules,
			Steps:       deliveries(e.steps(len(e.states) - 1)),
			Events:      append([]histories.Event(nil), events...),
			Fingerprint: s.fingerprint(),
		}
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
	}
	e.stats.ToFirst = time.Since(e.start)
	e.stats.BeforeFirst = e.stats.Unique
	e.first = v
}

func deliveries(evs []dpor.Event) []Delivery {
	out := make([]Delivery, len(evs))
	for i, ev := range evs {
		out[i] = Delivery{ID: ev.ID, Kind: ev.Kind, From: ev.From, To: ev.To, Msg: ev.Msg, Timer: ev.Timer}
	}
	return out
}

// verifyReplay re-runs v's schedule from the initial state and records whether it
// reaches the same end (DESIGN.md, Semantics 1).
func (e *engine) verifyReplay(v *Violation) {
	if v.Kind != "nonlinearizable" {
		v.Replayed = true // a panic's replay is checked by Replay's caller
		return
	}
	ids := make([]uint64, len(v.Steps))
	for i, s := range v.Steps {
		ids[i] = s.ID
	}
	ex, err := replay(e.x, ids)
	v.Replayed = err == nil && ex.Fingerprint == v.Fingerprint
}
