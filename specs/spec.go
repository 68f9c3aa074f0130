// Package specs holds sequential specifications: the simple, one-operation-at-a-time
// objects that a distributed system is supposed to behave like.
//
// A specification is a [Spec]: a struct of functions over a state type S, an input type I
// (what a client asks) and an output type O (what it is told). All three are comparable so
// that the checker can memoize states and compare outputs with ==, without boxing and
// without user-written equality.
//
// The package imports nothing of Ravel's; every other package may build on it.
package specs

import (
	"fmt"
	"strings"
)

// Spec is a deterministic sequential object.
//
// The zero value is not usable: Name, Init and Apply are required. A Spec is a value;
// copying it is cheap and shares the functions.
//
// The state type S should be a value without pointers: an int, a string, an array, a
// struct of such fields (a queue is an array and a length, not a slice). Two states
// that mean the same object must be equal, because the checker memoizes the states it
// has explored by == and a hash. Two kinds of S compile but are caught at run time:
//   - An interface S (any) must hold comparable values when the program runs: a slice,
//     map or function in it cannot be hashed or compared, and the check stops with an
//     error (wgl.UncomparableStateError) naming the dynamic type. Use an array, a
//     string encoding or a struct of comparable fields instead.
//   - A pointer S (or one holding pointers) compares by address, not by what it points
//     to: the checker's reuse of the states it has explored is then lost (two equal
//     states at two addresses are explored twice), which can make a check of a
//     history with much concurrency far slower. And Apply must allocate a new state
//     instead of changing the one it is given (see Apply); the first calls of Apply in
//     each search are watched for such a change (wgl.SpecMutationError).
type Spec[S, I, O comparable] struct {
	// Name identifies the specification in output ("register", "kv", …).
	Name string

	// Init returns the initial state. For a partitioned specification (Partition set)
	// it is the initial state of every partition.
	Init func() S

	// Apply performs one operation on s and returns the next state and the output a
	// correct object gives. It must be a pure, total function: it is called with the same
	// arguments many times, in any order, and must not retain or mutate anything reachable
	// from s. A value S without pointers makes this hold by itself (Apply gets a copy);
	// with pointers, maps or slices in S, Apply must copy what it changes, or the checker
	// gives wrong verdicts, which it catches only on Apply's first calls.
	Apply func(s S, in I) (S, O)

	// Partition, when set, returns the key an input acts on. Operations on different
	// keys are independent (linearizability is compositional, Herlihy & Wing), so the
	// checker splits a history by key and checks each part on its own, starting each from
	// Init. S is then the state of one key. Nil means one partition.
	Partition func(in I) string

	// DescribeInput renders an input for timelines and reports ("Write(1)").
	// Nil falls back to fmt's %v.
	DescribeInput func(in I) string

	// DescribeOutput renders the output of an operation with input in ("ok", "1").
	// Nil falls back to fmt's %v of out.
	DescribeOutput func(in I, out O) string
}

// Validate reports whether the required fields are set.
func (s Spec[S, I, O]) Validate() error {
	switch {
	case s.Name == "":
		return fmt.Errorf("specs: specification has no Name")
	case s.Init == nil:
		return fmt.Errorf("specs: specification %q has no Init", s.Name)
	case s.Apply == nil:
		return fmt.Errorf("specs: specification %q has no Apply", s.Name)
	}
	return nil
}

// Input renders in with DescribeInput, or %v when that is nil. A DescribeInput that
// panics is a bug in it: the input is rendered with %v and the panic, as fmt renders a
// String method that panics, and the panic goes no further.
func (s Spec[S, I, O]) Input(in I) (text string) {
	if s.DescribeInput == nil {
		return fmt.Sprintf("%v", in)
	}
	defer func() {
		if v := recover(); v != nil {
			text = fmt.Sprintf("%v(PANIC=DescribeInput: %v)", in, v)
		}
	}()
	return s.DescribeInput(in)
}

// Output renders the output out of an operation with input in, with DescribeOutput, or
// %v when that is nil.
// A DescribeOutput that panics is rendered as Input renders a DescribeInput that does.
func (s Spec[S, I, O]) Output(in I, out O) (text string) {
	if s.DescribeOutput == nil {
		return fmt.Sprintf("%v", out)
	}
	defer func() {
		if v := recover(); v != nil {
			text = fmt.Sprintf("%v(PANIC=DescribeOutput: %v)", out, v)
		}
	}()
	return s.DescribeOutput(in, out)
}

// DescribePanic reports whether text, from Input or Output, renders a DescribeInput or
// DescribeOutput that panicked, and returns that part of it, "PANIC=DescribeOutput: boom",
// for a report to show the panic apart from the values.
func DescribePanic(text string) (string, bool) {
	i := strings.Index(text, "(PANIC=Describe")
	if i < 0 || !strings.HasSuffix(text, ")") {
		return "", false
	}
	return text[i+1 : len(text)-1], true
}

// Erase returns the same specification over interface values, for code that handles
// histories of many specifications without knowing their types (the explorer, the
// command line). Apply panics if it is handed an input of another type than I; callers
// check types where values enter (see Erased.IsInput and IsOutput). An erased state is
// comparable because S is.
func Erase[S, I, O comparable](s Spec[S, I, O]) Erased {
	e := Erased{
		Spec: Spec[any, any, any]{
			Name: s.Name,
			Init: func() any { return s.Init() },
			Apply: func(st any, in any) (any, any) {
				next, out := s.Apply(st.(S), in.(I))
				return next, out
			},
			DescribeInput:  func(in any) string { return s.Input(in.(I)) },
			DescribeOutput: func(in, out any) string { return s.Output(in.(I), out.(O)) },
		},
		IsInput:  func(v any) bool { _, ok := v.(I); return ok },
		IsOutput: func(v any) bool { _, ok := v.(O); return ok },
		OutputType: func() string {
			var zero O
			return fmt.Sprintf("%T", zero)
		},
	}
	if s.Partition != nil {
		e.Spec.Partition = func(in any) string { return s.Partition(in.(I)) }
	}
	return e
}

// Erased is a specification whose types are known only at run time, with the checks
// that make it safe to feed it values from user code.
type Erased struct {
	Spec[any, any, any]
	// IsInput reports whether v has the specification's input type.
	IsInput func(v any) bool
	// IsOutput reports whether v has the specification's output type.
	IsOutput func(v any) bool
	// OutputType names the output type, for error messages.
	OutputType func() string
}
