package explorer

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// DefaultCommuteStates is CheckCommutation's state budget when CommuteOptions leaves it
// zero.
const DefaultCommuteStates = 2_000

// CommuteOptions configure CheckCommutation.
type CommuteOptions struct {
	// MaxStates bounds the states examined: 0 means DefaultCommuteStates, Unlimited no
	// limit.
	MaxStates int
	// MaxDepth: the states at this depth are examined but not expanded. 0 means
	// DefaultMaxDepth, Unlimited no limit.
	MaxDepth int
	// Strict also requires the two orders of independent steps to leave the same
	// canonical history: the same operations in the same real-time order. A relation that
	// passes only without Strict is sound for the states a reduction reaches, but may lose
	// canonical histories: swapping a response and an invocation at two actors changes
	// which operation precedes which.
	Strict bool
	// Dependent also runs both orders of every pair the relation calls dependent, and
	// counts in CommuteReport.DependentCommuting those that commute as an independent
	// pair must: each step enabled after the other, the same state, each step doing the
	// same to the history (invoking, answering, recording a response) in either order,
	// the same history events and the same canonical history. They measure what a finer
	// relation, one that judged a pair by the state where it meets, could still prune.
	// It costs two more steps for each dependent pair.
	Dependent bool
}

// CommuteReport is what CheckCommutation found.
type CommuteReport struct {
	// Dependence names the relation checked.
	Dependence string
	// States is the number of distinct states examined; Complete reports that they are
	// all the states reachable within the depth budget.
	States   int
	Complete bool
	// Pairs counts the pairs of co-enabled steps looked at, Independent those the relation
	// calls independent (each run in both orders).
	Pairs, Independent int64
	// Reordered counts the independent pairs that commute but whose two orders leave
	// different canonical histories (a failure under Strict).
	Reordered int64
	// With CommuteOptions.Dependent: Dependent counts the pairs the relation calls
	// dependent (neither step failing on its own), DependentCommuting those of them that
	// commute at the state where they are both enabled.
	Dependent, DependentCommuting int64
	// First is the first counterexample, or nil when the relation kept its contract on
	// every pair examined.
	First *Counterexample
}

// Counterexample is a pair of steps, enabled together in one state, on which a relation
// breaks its contract.
type Counterexample struct {
	// Kind is "asymmetric" (Dependent(a,b) ≠ Dependent(b,a)), "disables" (one of two
	// independent steps is not enabled after the other), "unstable" (the relation judges
	// one of two independent steps differently against a third once the other has run),
	// "state" (the two orders reach
	// different states), "history" (they record different history events), "history-order"
	// (the same events, but a different canonical history; only under Strict) or "failure" (one order
	// fails and the other does not, or they fail differently).
	Kind string
	// Schedule leads from the initial state to the state where A and B are both enabled;
	// Events is the history there.
	Schedule []Delivery
	Events   []histories.Event
	A, B     Delivery
	// Message says what differs.
	Message string
}

// Describe renders the counterexample for people: the pair, what differs, and the
// schedule to the state.
func (c *Counterexample) Describe(sys *model.System) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", c.Kind, c.Message)
	fmt.Fprintf(&b, "  a: %s\n", strings.TrimSpace(DescribeDelivery(sys, 1, c.A)[4:]))
	fmt.Fprintf(&b, "  b: %s\n", strings.TrimSpace(DescribeDelivery(sys, 1, c.B)[4:]))
	if len(c.Schedule) == 0 {
		b.WriteString("  from the initial state\n")
	} else {
		fmt.Fprintf(&b, "  from the state after %d steps:\n", len(c.Schedule))
		b.WriteString(DescribeSchedule(sys, c.Schedule))
	}
	return b.String()
}

// CheckCommutation checks a dependence relation's contract on the states of sys. From
// every state it examines — those reachable, breadth first, within the budgets, so that a
// counterexample comes with a shortest schedule — and for every pair of enabled steps a
// and b: dep must be symmetric on them, and when it calls them independent they must
// commute: each is still enabled after the other; both orders reach the same state
// (actors, pending messages and timers, clients, faults); dep judges each the same against
// every step enabled at the state whether or not the other ran first (the DPOR family
// judges an event by what it did when explored); and both orders record the same history
// events (leaving the same canonical history too, with Strict). The steps are described to
// dep as a strategy sees them (dpor.StepInfo, keys filled in), except for the vector
// clocks and Before sets, which depend on a path. It stops at the first counterexample;
// ctx cancels it, with the figures so far.
func CheckCommutation(ctx context.Context, sys model.System, dep dpor.Dependence, opts CommuteOptions) (*CommuteReport, error) {
	if err := checkSize(len(sys.Actors)); err != nil {
		return nil, err
	}
	x, err := newExecutor(&sys, false)
	if err != nil {
		return nil, err
	}
	x.keys = true
	init, fail, err := x.initial()
	if err != nil {
		return nil, err
	}
	if fail != nil {
		return nil, fmt.Errorf("start-up: %s: %s", fail.kind, fail.msg)
	}
	maxStates := opts.MaxStates
	switch {
	case maxStates == 0:
		maxStates = DefaultCommuteStates
	case maxStates < 0:
		maxStates = 1<<31 - 1
	}
	c := &commuter{x: x, dep: dep, strict: opts.Strict, dependent: opts.Dependent, rep: &CommuteReport{Dependence: dep.Name()}}
	maxDepth := Options{MaxDepth: opts.MaxDepth}.maxDepth()
	queue := []cnode{{s: init}}
	seen := map[uint64]bool{init.fingerprint(): true}
	for len(queue) > 0 && c.rep.States < maxStates && c.rep.First == nil {
		if ctx.Err() != nil {
			return c.rep, nil
		}
		n := queue[0]
		queue = queue[1:]
		c.rep.States++
		outs := c.examine(&n)
		if len(n.path) >= maxDepth {
			continue
		}
		for k := range outs {
			o := &outs[k]
			if o.fail != nil || o.next == nil || seen[o.next.fingerprint()] {
				continue
			}
			seen[o.next.fingerprint()] = true
			queue = append(queue, cnode{s: o.next, log: o.log, path: append(slices.Clip(n.path), o.info.Event)})
		}
	}
	c.rep.Complete = len(queue) == 0 && c.rep.First == nil
	return c.rep, nil
}

// cnode is a state to examine, with its history and the steps that led to it.
type cnode struct {
	s    *state
	log  []histories.Event
	path []dpor.Event
}

// outcome is what one step from a state did.
type outcome struct {
	next *state
	log  []histories.Event // the history after the step
	own  []histories.Event // the events the step recorded
	fail *failure
	info dpor.StepInfo
}

type commuter struct {
	x         *executor
	dep       dpor.Dependence
	strict    bool
	dependent bool // CommuteOptions.Dependent
	rep       *CommuteReport
}

// run delivers event ev (index k of s's pending, or a fault) from s, whose history is log.
func (c *commuter) run(s *state, log []histories.Event, k int, ev dpor.Event, depth int) outcome {
	// Clipped, so that the step appends to a copy: the states of the check share history
	// prefixes, as the engine's do, but do not lie on one path.
	next, out, fail := c.x.step(s, k, depth, slices.Clip(log))
	o := outcome{next: next, log: out, fail: fail, info: dpor.StepInfo{Event: ev, Invokes: ev.Kind == dpor.Request, Returns: c.x.returned}}
	if len(c.x.answered) > 0 {
		o.info.Answers = slices.Clone(c.x.answered)
	}
	if next != nil && fail == nil {
		o.log = slices.Clip(out[:next.events])
		o.own = out[s.events:next.events]
	}
	return o
}

// examine runs every step enabled at n and checks every pair of them; it returns the
// steps' outcomes.
func (c *commuter) examine(n *cnode) []outcome {
	evs, idx := c.x.enabled(n.s, nil, nil)
	depth := len(n.path)
	outs := make([]outcome, len(evs))
	for k := range evs {
		outs[k] = c.run(n.s, n.log, idx[k], evs[k], depth)
	}
	for i := range outs {
		for j := i + 1; j < len(outs); j++ {
			if msg, kind := c.pair(n, outs, &outs[i], &outs[j], depth); kind != "" {
				c.rep.First = &Counterexample{
					Kind: kind, Message: msg,
					Schedule: deliveries(n.path), Events: slices.Clone(n.log),
					A: deliveries([]dpor.Event{evs[i]})[0], B: deliveries([]dpor.Event{evs[j]})[0],
				}
				return outs
			}
		}
	}
	return outs
}

// pair checks the contract on steps a and b from n; it returns what is wrong and its kind,
// or "" when nothing is.
func (c *commuter) pair(n *cnode, outs []outcome, a, b *outcome, depth int) (string, string) {
	c.rep.Pairs++
	dab, dba := c.dep.Dependent(&a.info, &b.info), c.dep.Dependent(&b.info, &a.info)
	if dab != dba {
		return fmt.Sprintf("Dependent(a, b) = %v but Dependent(b, a) = %v", dab, dba), "asymmetric"
	}
	if dab {
		if c.dependent && a.fail == nil && b.fail == nil {
			c.rep.Dependent++
			if c.commutes(n, a, b, depth) {
				c.rep.DependentCommuting++
			}
		}
		return "", ""
	}
	c.rep.Independent++
	if a.fail != nil || b.fail != nil {
		// A step that fails on its own is a finding about the system whatever its order
		// with the other; the search reports it.
		return "", ""
	}
	ab, ok := c.after(a, b, depth)
	if !ok {
		return "b is not enabled after a", "disables"
	}
	ba, ok := c.after(b, a, depth)
	if !ok {
		return "a is not enabled after b", "disables"
	}
	switch {
	case ab.fail != nil || ba.fail != nil:
		if ab.fail == nil || ba.fail == nil || ab.fail.kind != ba.fail.kind || ab.fail.msg != ba.fail.msg {
			return fmt.Sprintf("a then b: %s; b then a: %s", describeFailure(ab.fail), describeFailure(ba.fail)), "failure"
		}
		return "", ""
	case c.x.commuteKey(ab.next) != c.x.commuteKey(ba.next):
		return "the two orders reach different states: " + c.x.stateDiff(ab.next, ba.next), "state"
	}
	if msg := c.unstable(outs, b, a, &ab.info, "b", "a"); msg != "" {
		return msg, "unstable"
	}
	if msg := c.unstable(outs, a, b, &ba.info, "a", "b"); msg != "" {
		return msg, "unstable"
	}
	hab, hba := ab.log[n.s.events:], ba.log[n.s.events:]
	if !sameEvents(hab, hba) {
		return fmt.Sprintf("a then b records %s; b then a records %s", c.sequence(hab), c.sequence(hba)), "history"
	}
	if cab, cba := histories.CanonicalOf(ab.log), histories.CanonicalOf(ba.log); !cab.Equal(&cba) {
		c.rep.Reordered++
		if c.strict {
			return fmt.Sprintf("a then b records %s; b then a records %s", c.sequence(hab), c.sequence(hba)), "history-order"
		}
	}
	return "", ""
}

// commutes reports whether steps a and b from n, which the relation calls dependent,
// commute as CommuteOptions.Dependent says.
func (c *commuter) commutes(n *cnode, a, b *outcome, depth int) bool {
	ab, okAB := c.after(a, b, depth)
	ba, okBA := c.after(b, a, depth)
	switch {
	case !okAB || !okBA || ab.fail != nil || ba.fail != nil:
		return false
	case c.x.commuteKey(ab.next) != c.x.commuteKey(ba.next):
		return false
	case !sameEffect(&ab.info, &b.info) || !sameEffect(&ba.info, &a.info):
		return false
	case !sameEvents(ab.log[n.s.events:], ba.log[n.s.events:]):
		return false
	}
	cab, cba := histories.CanonicalOf(ab.log), histories.CanonicalOf(ba.log)
	return cab.Equal(&cba)
}

// sameEffect reports whether two runs of one step did the same to the history.
func sameEffect(x, y *dpor.StepInfo) bool {
	return x.Invokes == y.Invokes && x.Returns == y.Returns && slices.Equal(x.Answers, y.Answers)
}

// unstable reports how the relation judges step second differently once first, which it
// calls independent of second, has run — late is what second does then — against some
// step enabled at the state: "" when it judges it the same against all of them. The DPOR
// family judges an event by what it did when it was explored (sleep sets keep that), so
// a relation whose verdict on an event moves with the order of independent steps lets an
// event sleep through the step that should have woken it.
func (c *commuter) unstable(outs []outcome, second, first *outcome, late *dpor.StepInfo, sname, fname string) string {
	for k := range outs {
		x := &outs[k].info
		if x == &second.info {
			continue
		}
		if early, after := c.dep.Dependent(&second.info, x), c.dep.Dependent(late, x); early != after {
			return fmt.Sprintf("%s depends on %s (%s) %v from the state but %v after %s: %s does something else after %s (%s, then %s)",
				sname, DescribeMessage(x.Event.Msg), x.Event.Kind, early, after, fname, sname, fname, describeInfo(&second.info), describeInfo(late))
		}
	}
	return ""
}

// describeInfo says what a step did that relations look at.
func describeInfo(s *dpor.StepInfo) string {
	var parts []string
	if s.Invokes {
		parts = append(parts, "invokes")
	}
	if s.Returns {
		parts = append(parts, "records a response")
	}
	if len(s.Answers) > 0 {
		parts = append(parts, fmt.Sprintf("answers %v", s.Answers))
	}
	if len(parts) == 0 {
		return "no history effect"
	}
	return strings.Join(parts, ", ")
}

// after runs second from the state first reached, if it is still enabled there.
func (c *commuter) after(first, second *outcome, depth int) (outcome, bool) {
	evs, idx := c.x.enabled(first.next, nil, nil)
	for k, ev := range evs {
		if ev.ID == second.info.Event.ID {
			return c.run(first.next, first.log, idx[k], ev, depth+1), true
		}
	}
	return outcome{}, false
}

func describeFailure(f *failure) string {
	if f == nil {
		return "no failure"
	}
	return f.kind + " (" + f.msg + ")"
}

func (c *commuter) sequence(events []histories.Event) string {
	if len(events) == 0 {
		return "no history events"
	}
	return "\"" + histories.Sequence(c.x.sys, events) + "\""
}

// sameEvents reports whether two lists hold the same history events, in any order.
func sameEvents(a, b []histories.Event) bool {
	if len(a) != len(b) {
		return false
	}
	ha, hb := make([]uint64, len(a)), make([]uint64, len(b))
	for i := range a {
		ha[i], hb[i] = a[i].Hash(), b[i].Hash()
	}
	slices.Sort(ha)
	slices.Sort(hb)
	return slices.Equal(ha, hb)
}

// commuteKey fingerprints s without its history's order: actors, pending messages and
// timers, the clients' progress and the faults, and on a FIFO network the order of the
// messages on each channel, which decides what can be delivered next.
func (x *executor) commuteKey(s *state) uint64 {
	h := model.Hasher{}
	h.Uint64(s.asum)
	h.Uint64(s.psum)
	for _, cl := range s.clients {
		h.Uint64(uint64(cl.invoked)<<32 | uint64(uint32(cl.answered)))
	}
	if s.faults != nil {
		h.Uint64(s.faults.hash())
	}
	if x.fifo {
		h.Uint64(channelOrder(s))
	}
	return h.Sum64()
}

// channelOrder hashes the order of the messages on each FIFO channel, independently of
// how the channels interleave in s.pending.
func channelOrder(s *state) uint64 {
	chains := map[[2]model.ID]uint64{}
	for _, p := range s.pending {
		if p.ev.Kind == dpor.Timer {
			continue
		}
		ch := [2]model.ID{p.ev.From, p.ev.To}
		chains[ch] = model.Mix64(chains[ch]*0x9E3779B97F4A7C15 + p.chash)
	}
	var sum uint64
	for ch, v := range chains {
		sum += model.Mix64(v ^ uint64(uint32(ch[0]))<<32 ^ uint64(uint32(ch[1])))
	}
	return sum
}

// stateDiff says which parts of two states differ.
func (x *executor) stateDiff(s, t *state) string {
	var parts []string
	for i := range s.ahash {
		if s.ahash[i] != t.ahash[i] {
			parts = append(parts, "actor "+x.sys.ActorName(model.ID(i)))
		}
	}
	if s.psum != t.psum {
		parts = append(parts, "the pending messages")
	} else if x.fifo && channelOrder(s) != channelOrder(t) {
		parts = append(parts, "the order of messages on a FIFO channel")
	}
	if !slices.Equal(s.clients, t.clients) {
		parts = append(parts, "the clients' progress")
	}
	if (s.faults == nil) != (t.faults == nil) || (s.faults != nil && s.faults.hash() != t.faults.hash()) {
		parts = append(parts, "the faults")
	}
	if len(parts) == 0 {
		return "(no part differs: a hash collision)"
	}
	return strings.Join(parts, ", ")
}
