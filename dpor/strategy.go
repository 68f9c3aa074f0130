package dpor

// Node is one state on the search path, as strategies see it.
//
// The engine fills Enabled when it reaches the state and keeps the node until it
// backtracks past it. It explores the events of Backtrack that are neither Done nor
// asleep (Sleep, for strategies that use sleep sets), smallest index first; before it
// runs one it marks it Done, records it in Taken, and clears Freeze; after, it appends
// what the step did to Tried.
type Node struct {
	// Enabled lists the events that can happen next, in the engine's deterministic order:
	// the order in which they became pending.
	Enabled []Event
	// Backtrack holds the indices of Enabled that must be explored from this state.
	Backtrack Set
	// Done holds the indices already explored (or being explored) from this state.
	Done Set
	// Taken is the index in Enabled of the event being explored from this state; it is
	// valid for every node but the last.
	Taken int
	// Tried holds what each event explored from this state did, in the order explored;
	// the last is Taken's (see Step).
	Tried []StepInfo
	// Sleep holds indices of Enabled that need not be explored from here, and SleepInfo
	// what each of those events does (sleep sets, Godefroid 1996).
	Sleep     Set
	SleepInfo []StepInfo
	// Freeze is TransDPOR's lock on Backtrack: set when a backtrack point is added, so
	// that at most one is added between two visits.
	Freeze bool
	// Final marks a state nothing is explored from: nothing is enabled, or the depth
	// budget is spent.
	Final bool
	// Cycled holds the indices of Enabled whose step from this state, with state
	// caching, reached a state earlier on the path: the search stopped there, so the
	// event's continuations were not explored through it, and it is never put to sleep
	// in this state's later children (sleep sets would otherwise block every path that
	// still needs it: a timer re-armed on every firing, asleep, left no schedule).
	Cycled Set
	// Delays is the delay-bounded strategy's count of delays spent to reach this state;
	// Cost its price of each Enabled event.
	Delays int
	Cost   []int
}

// Step is what the event being explored from this node did.
func (n *Node) Step() *StepInfo { return &n.Tried[len(n.Tried)-1] }

// Find returns the index in Enabled of the event with identity id, or −1.
func (n *Node) Find(id uint64) int {
	for i := range n.Enabled {
		if n.Enabled[i].ID == id {
			return i
		}
	}
	return -1
}

// Path is the search path: the nodes from the initial state to the state just reached.
type Path interface {
	// Nodes are the path's nodes; the last is the state just reached.
	Nodes() []Node
	// Next reports what delivering Enabled[k] of the last node would do, running it if it
	// has not been yet (the engine keeps the result for when it is explored). It needs
	// Needs.Peek, and the last node must not be final.
	Next(k int) *StepInfo
}

// Strategy decides which schedules the engine explores.
type Strategy interface {
	// Name is the strategy's name on the command line ("exhaustive", …).
	Name() string
	// Needs says which optional work of the engine the strategy uses.
	Needs() Needs
	// Arrive is called each time the engine reaches a state, the last node of p, with
	// Enabled filled in — also a final state, from which nothing is explored (nothing
	// enabled, or the depth budget spent), so that the step that led there is seen. It
	// says which of the state's events to explore by adding them to the last node's
	// Backtrack, and may add backtrack points to earlier nodes. Nodes that are not on the
	// path any more are never seen again.
	Arrive(p Path)
}

// Sampler is a strategy that does not search depth first but takes independent random
// walks from the initial state to quiescence (DS2's systematic random).
type Sampler interface {
	Strategy
	// Seed is the run's seed; walk w draws from a generator seeded by (Seed, w), so any
	// walk replays on its own.
	Seed() int64
}

// StateCacher is a strategy under which ending a path at a state already visited loses
// nothing: what it explores from a state depends only on the state and on CacheKey.
// Exhaustive and delay-bounded search are; the DPOR family is not, since the backtrack
// points a cut path would have added are lost (stateful DPOR needs more, Yang et al. 2008).
type StateCacher interface {
	Strategy
	// CacheKey returns what, besides the state itself, decides what the strategy explores
	// from the last node of p (after Arrive); 0 when nothing does.
	CacheKey(p Path) uint64
}

// Exhaustive returns depth-first search over every schedule: from every state, every
// enabled event.
func Exhaustive() Strategy { return exhaustive{} }

type exhaustive struct{}

func (exhaustive) Name() string         { return "exhaustive" }
func (exhaustive) CacheKey(Path) uint64 { return 0 }
func (exhaustive) Needs() Needs         { return Needs{} }

// KeyFree reports whether c's CacheKey is 0 whatever the path (exhaustive search), so
// that a state's visited-set key is known before the path's node for it is built.
func KeyFree(c StateCacher) bool {
	_, ok := c.(exhaustive)
	return ok
}

func (exhaustive) Arrive(p Path) {
	nodes := p.Nodes()
	if top := &nodes[len(nodes)-1]; !top.Final {
		top.Backtrack.AddAll(len(top.Enabled))
	}
}

// FailureAware is a strategy that sees the steps that fail: a handler that panics or
// calls ctx.Fail ends the schedule at that step, with no state after it to Arrive at.
// Failed is called with the path whose last node's last explored step (Node.Step) is the
// one that failed. A DPOR strategy reverses that step's races as it would a step that
// reached a state, and expands the node fully: the races of the failing step with the
// steps that would have come after it are never seen, since the schedule ends there, so
// every alternative at the node is explored instead (as the cycle proviso does where a
// cut withholds race analysis). Without it, final states can be missed (microbench
// bug2-L4 lost 2 of 36 under stateful DPOR, 4 under optimal DPOR; random protocols with a
// failing actor, randsys.NewFailing, lost more).
type FailureAware interface {
	Failed(p Path)
}
