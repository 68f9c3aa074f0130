package dpor

// Node is one state on the search path, as strategies see it.
//
// The engine fills Enabled when it reaches the state and keeps the node until it
// backtracks past it; it explores Backtrack's events that are not yet Done, smallest
// index first, marking each Done and recording it in Taken before it runs.
type Node struct {
	// Enabled lists the events that can happen next, in the engine's deterministic order.
	Enabled []Event
	// Backtrack holds the indices of Enabled that must be explored from this state.
	Backtrack Set
	// Done holds the indices already explored (or being explored) from this state.
	Done Set
	// Taken is the index in Enabled of the event being explored from this state; it is
	// valid for every node but the last.
	Taken int
}

// Strategy decides which schedules the engine explores.
type Strategy interface {
	// Name is the strategy's name on the command line ("exhaustive", …).
	Name() string
	// Arrive is called each time the engine reaches a new state, the last node of path,
	// with Enabled filled in. It must say which of the state's events to explore by
	// adding them to the last node's Backtrack, and may add backtrack points to earlier
	// nodes. Nodes that are not on the path any more are never seen again.
	Arrive(path []Node)
}

// Exhaustive returns depth-first search over every schedule: from every state, every
// enabled event.
func Exhaustive() Strategy { return exhaustive{} }

type exhaustive struct{}

func (exhaustive) Name() string { return "exhaustive" }

func (exhaustive) Arrive(path []Node) {
	top := &path[len(path)-1]
	top.Backtrack.AddAll(len(top.Enabled))
}
