// Package wgl checks histories for linearizability against a sequential specification.
//
// The algorithm is Wing and Gong's search with Lowe's just-in-time linearization and
// memoization (G. Lowe, "Testing for linearizability", 2017): the history becomes a list
// of call and return entries in time order; the search linearizes some operation whose
// call comes before the first outstanding return, lifts its entries out of the list, and
// backtracks when it reaches the return of an operation it has not linearized. A
// configuration — the set of linearized operations and the specification's state — that
// was explored once is never explored again, which is what makes the search practical.
// The memo is a hash table of machine words: a state is hashed once, when it is produced
// (states of a pointer-free type, which are usually few, are numbered instead), and the
// set of linearized operations is one word, or for a partition of more than 64
// operations a Zobrist hash updated in O(1) as operations are linearized and undone,
// with an exact description of the set kept to compare on a match, so that collisions
// never give a wrong answer. The description is small however long the history: a
// window over the completed operations in call order (those before it all linearized,
// those after it none), which spans the operations concurrent with the earliest one not
// linearized, and an interned list of the open operations linearized; memory grows with
// the configurations explored, not with them times the operations. CheckLimited bounds
// it. Specifications are generic (specs.Spec[S, I, O]): nothing is boxed.
//
// An operation whose outcome is unknown (histories.Operation.Open) may be linearized
// anywhere after its call, with whatever output the specification gives, or not at all.
// Open operations are tried only after every completed candidate has failed (as
// Knossos orders them last), one that would leave the state unchanged is never tried
// (leaving it out does as well), and of several open operations with equal inputs only
// the earliest-called one not yet linearized is a candidate. Completed operations with
// equal inputs and outputs are ordered the same way when one was called and returned no
// later than the other.
//
// Each partition's history is cut at quiescent points — instants no operation spans —
// and the segments are checked in turn, carrying the set of states each can end in into
// the next: the memo of a segment is dropped when it ends, so a long
// history with such points is checked in the memory of its largest segment.
//
// When the specification has a Partition function, the history is split by key and each
// part checked on its own (linearizability is compositional). The parts are searched
// side by side — on several goroutines for large histories — in rounds of growing step
// budgets, so that a part that fails quickly ends the check quickly however long the
// others would take; the part reported, and every other result, does not depend on
// timing.
//
// A failed check comes with an explanation (Result.Prefix and Result.Stuck): the longest
// linearizable prefix the search found, and the operation that cannot follow it.
//
// CheckBruteForce is an exponential oracle for tests, not for use on real histories.
package wgl
