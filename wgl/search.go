package wgl

import (
	"cmp"
	"slices"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// pollEvery is how many search steps pass between looks at whether to stop: often enough
// to stop within microseconds, rarely enough to cost nothing measurable.
const pollEvery = 1024

// none marks the absence of a node in the entry lists.
const none int32 = -1

// The two list heads: node mainHead starts the list of call and return entries of the
// completed operations; node openHead starts the list of call entries of the open ones.
const (
	mainHead int32 = 0
	openHead int32 = 1
)

// node is an entry of a doubly linked list. Lifting an operation unlinks its entries
// but leaves their own links as they were, so that undoing lifts in the reverse order
// puts them back exactly (Knuth's dancing links).
type node struct {
	prev, next int32
	op         int32 // the operation, an index into the partition
	ret        int32 // for the call of a completed operation, its return node; else none
	twin       int32 // for the call of an open operation, the call of the latest open one
	// before it with the same input; else none
	call bool
	time int64
}

// frame is one linearized operation on the search stack: its call node, the state before
// it, and, for an open operation, the time bound of the candidates it was chosen among.
type frame[S comparable] struct {
	node  int32
	state S
	limit int64
}

// searchPartition checks the operations ops[idx[0]], ops[idx[1]], … on their own,
// starting from spec.Init(). It calls stop every pollEvery steps and gives up with
// Unknown when stop returns true. The witness is in indices into idx.
//
// The candidates for the next linearized operation are the calls before the first return
// entry still in the list. They are tried in list order, and the open operations (which
// have no return entry, so sit in a list of their own) only after every completed
// candidate has failed: an open operation can usually be left out, and trying it first
// would multiply the configurations explored.
//
// Open operations never have to be linearized, so two kinds are skipped as dominated,
// which keeps histories with many of them tractable: one that would leave the state
// unchanged (leaving it out reaches the same state with more candidates left), and one
// whose input equals that of an earlier-called open operation not yet linearized (the
// earlier one can take its place in any linearization).
func searchPartition[S, I, O comparable](
	spec specs.Spec[S, I, O], ops []histories.Operation[I, O], idx []int, stop func() bool,
) (Verdict, []int) {
	nodes, completed := buildLists(ops, idx)
	if completed == 0 {
		return Linearizable, []int{}
	}
	m := newMemo[S](len(idx))
	state := spec.Init()
	stack := make([]frame[S], 0, len(idx))
	done := 0                        // completed operations linearized
	lifted := make([]bool, len(idx)) // by operation

	// lift tries to linearize the operation whose call node is c: it must give its
	// recorded output (any output, when open) and lead to an unexplored configuration.
	lift := func(c int32, limit int64) bool {
		n := &nodes[c]
		if n.twin != none && !lifted[nodes[n.twin].op] {
			// An open operation with the same input, called no later, is still
			// unlinearized: using it here instead leads to the same configurations, so
			// only the earliest unused one of identical open operations is a candidate.
			return false
		}
		op := &ops[idx[n.op]]
		next, out := spec.Apply(state, op.Input)
		if n.ret == none {
			// An open operation that leaves the state as it is can always be left out
			// instead: it never has to return, so linearizing it gains nothing.
			if next == state {
				return false
			}
		} else if out != op.Output {
			return false
		}
		m.flip(int(n.op))
		if !m.addNew(next) {
			m.flip(int(n.op))
			return false
		}
		stack = append(stack, frame[S]{node: c, state: state, limit: limit})
		state = next
		unlink(nodes, c)
		lifted[n.op] = true
		if n.ret != none {
			unlink(nodes, n.ret)
			done++
		}
		return true
	}

	inOpen := false // whether the search is walking the open list
	var limit int64 // in the open list: the time of the first return entry
	cur := nodes[mainHead].next
	for step := 1; ; step++ {
		if step%pollEvery == 0 && stop() {
			return Unknown, nil
		}
		if !inOpen {
			n := &nodes[cur]
			if n.call {
				if lift(cur, 0) {
					if done == completed {
						break
					}
					cur = nodes[mainHead].next
				} else {
					cur = n.next
				}
				continue
			}
			// The first return entry of an operation not yet linearized: every
			// completed candidate has been tried; now the open ones called by then.
			inOpen, limit, cur = true, n.time, nodes[openHead].next
			continue
		}
		if cur != none && nodes[cur].time <= limit {
			if lift(cur, limit) {
				inOpen, cur = false, nodes[mainHead].next
			} else {
				cur = nodes[cur].next
			}
			continue
		}
		// No candidate is left here: undo the last linearization and try the candidate
		// after it.
		if len(stack) == 0 {
			return NotLinearizable, nil
		}
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		state = f.state
		n := &nodes[f.node]
		if n.ret != none {
			relink(nodes, n.ret)
			done--
		}
		relink(nodes, f.node)
		lifted[n.op] = false
		m.flip(int(n.op))
		inOpen, limit, cur = n.ret == none, f.limit, n.next
	}
	witness := make([]int, len(stack))
	for i, f := range stack {
		witness[i] = int(nodes[f.node].op)
	}
	return Linearizable, witness
}

// buildLists makes the entry lists of the operations ops[idx[i]] and returns the nodes
// and the number of completed operations. The main list holds a call and a return
// entry per completed operation, by time; at equal times calls come first, because an
// operation that returns at the instant another is called is concurrent with it
// (precedence is Return < Call). The open list holds the calls of the open operations, by
// time. Ties keep the order of the operations, so the search is deterministic.
func buildLists[I, O comparable](ops []histories.Operation[I, O], idx []int) ([]node, int) {
	nodes := make([]node, 2, 2+2*len(idx))
	nodes[mainHead] = node{prev: none, next: none, op: -1, ret: none, twin: none}
	nodes[openHead] = node{prev: none, next: none, op: -1, ret: none, twin: none}
	completed := 0
	var mainList, openList []int32
	for i, j := range idx {
		op := &ops[j]
		c := int32(len(nodes))
		if op.Open {
			nodes = append(nodes, node{op: int32(i), ret: none, twin: none, call: true, time: op.Call})
			openList = append(openList, c)
			continue
		}
		nodes = append(nodes,
			node{op: int32(i), ret: c + 1, twin: none, call: true, time: op.Call},
			node{op: int32(i), ret: none, twin: none, time: op.Return})
		mainList = append(mainList, c, c+1)
		completed++
	}
	order := func(a, b int32) int {
		na, nb := &nodes[a], &nodes[b]
		if c := cmp.Compare(na.time, nb.time); c != 0 {
			return c
		}
		if na.call != nb.call {
			if na.call {
				return -1
			}
			return 1
		}
		return cmp.Compare(a, b)
	}
	slices.SortFunc(mainList, order)
	slices.SortFunc(openList, order)
	lastWith := make(map[I]int32)
	for _, c := range openList {
		in := ops[idx[nodes[c].op]].Input
		if t, ok := lastWith[in]; ok {
			nodes[c].twin = t
		}
		lastWith[in] = c
	}
	chain(nodes, mainHead, mainList)
	chain(nodes, openHead, openList)
	return nodes, completed
}

// chain links head and then the nodes of list, in order.
func chain(nodes []node, head int32, list []int32) {
	prev := head
	for _, n := range list {
		nodes[prev].next = n
		nodes[n].prev = prev
		prev = n
	}
	nodes[prev].next = none
}

// unlink takes node n out of its list, leaving n's own links untouched.
func unlink(nodes []node, n int32) {
	p, q := nodes[n].prev, nodes[n].next
	nodes[p].next = q
	if q != none {
		nodes[q].prev = p
	}
}

// relink undoes unlink(nodes, n); unlinks must be undone in the reverse order.
func relink(nodes []node, n int32) {
	p, q := nodes[n].prev, nodes[n].next
	nodes[p].next = n
	if q != none {
		nodes[q].prev = n
	}
}
