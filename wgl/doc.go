// Package wgl checks histories for linearizability against a sequential specification.
//
// The algorithm is Wing and Gong's search with Lowe's just-in-time linearization and
// memoization (G. Lowe, "Testing for linearizability", 2017): the history becomes a list
// of call and return entries in time order; the search linearizes some operation whose
// call comes before the first outstanding return, lifts its entries out of the list, and
// backtracks when it reaches the return of an operation it has not linearized. A
// configuration — the set of linearized operations and the specification's state — that
// was explored once is never explored again, which is what makes the search practical.
//
// An operation whose outcome is unknown (histories.Operation.Open) may be linearized
// anywhere after its call, with whatever output the specification gives, or not at all.
//
// When the specification has a Partition function, the history is split by key and each
// part checked on its own (linearizability is compositional), in parallel for large
// histories.
//
// CheckBruteForce is an exponential oracle for tests, not for use on real histories.
package wgl
