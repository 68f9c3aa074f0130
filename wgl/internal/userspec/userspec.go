// Package userspec holds a specification written as a user writes one, in a package of
// its own, for wgl's tests of how a panic in it is reported.
package userspec

import "github.com/ravelmc/ravel/specs"

// State is a stack of at most two ints.
type State struct {
	Items [2]int
	N     int
}

// Stack is a stack of at most two ints: a third push runs off its array and panics.
// Input n > 0 pushes n, 0 pops; the output is the popped value, or 0.
func Stack() specs.Spec[State, int, int] {
	return specs.Spec[State, int, int]{
		Name: "stack",
		Init: func() State { return State{} },
		Apply: func(s State, in int) (State, int) {
			if in == 0 {
				if s.N == 0 {
					return s, 0
				}
				s.N--
				v := s.Items[s.N]
				s.Items[s.N] = 0
				return s, v
			}
			s.Items[s.N] = in
			s.N++
			return s, 0
		},
	}
}
