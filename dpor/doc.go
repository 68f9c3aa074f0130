// Package dpor holds Ravel's search strategies and the dependence relations they share.
//
// Every strategy runs on the explorer's one depth-first engine and differs from the
// others only in a few decisions (docs/strategies.md): which enabled
// events to try from a state, and which earlier states need a backtrack point when a
// dependent event runs. The engine owns the search path, a slice of [Node]s from the
// initial state to the current one, and calls the strategy's [Strategy.Arrive] each time
// it reaches a new state.
package dpor
