package wgl

import (
	"errors"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// ptrQueue is a FIFO queue whose state is a pointer. With inPlace, Apply changes the
// state it is given (which the contract forbids); without, it returns a new one.
// Input n > 0 enqueues n, 0 dequeues; the output is the dequeued value, or 0.
type ptrQueue struct{ items []int }

func ptrQueueSpec(inPlace bool) specs.Spec[*ptrQueue, int, int] {
	return specs.Spec[*ptrQueue, int, int]{
		Name: "ptrqueue",
		Init: func() *ptrQueue { return &ptrQueue{} },
		Apply: func(s *ptrQueue, in int) (*ptrQueue, int) {
			if !inPlace {
				s = &ptrQueue{items: append([]int(nil), s.items...)}
			}
			if in > 0 {
				s.items = append(s.items, in)
				return s, 0
			}
			if len(s.items) == 0 {
				return s, 0
			}
			v := s.items[0]
			s.items = s.items[1:]
			return s, v
		},
	}
}

// mapCounter counts per key in a map, behind a pointer; with inPlace, Apply increments
// the map it is given. The input is the key; the output the count after.
type mapCounter struct{ m map[int]int }

func mapCounterSpec(inPlace bool) specs.Spec[*mapCounter, int, int] {
	return specs.Spec[*mapCounter, int, int]{
		Name: "mapcounter",
		Init: func() *mapCounter { return &mapCounter{m: map[int]int{}} },
		Apply: func(s *mapCounter, in int) (*mapCounter, int) {
			if !inPlace {
				m := make(map[int]int, len(s.m)+1)
				for k, v := range s.m {
					m[k] = v
				}
				s = &mapCounter{m: m}
			}
			s.m[in]++
			return s, s.m[in]
		},
	}
}

// An Apply that changes the state it is given is caught on its first operations: the
// verdict is Unknown with a *SpecMutationError naming the specification and the
// operation, where without the check it was a wrong "not linearizable". The same
// specifications written purely check as they should.
func TestApplyThatMutatesIsCaught(t *testing.T) {
	// Enq(1) || Enq(2); Deq()->2; Deq()->1: linearizable, Enq(2) first.
	queue := []histories.Operation[int, int]{
		done(0, 1, 0, 1, 4), done(1, 2, 0, 2, 5), done(2, 0, 2, 6, 7), done(2, 0, 1, 8, 9),
	}
	// Inc(7) || Inc(7) -> 1 and 2, either order.
	counter := []histories.Operation[int, int]{done(0, 7, 2, 1, 4), done(1, 7, 1, 2, 5)}
	for _, tc := range []struct {
		name  string
		check func() Result
		input string // of the operation named; "" for a pure specification
	}{
		{"pointer, in place", func() Result { return Check(ptrQueueSpec(true), queue) }, "1"},
		{"pointer, pure", func() Result { return Check(ptrQueueSpec(false), queue) }, ""},
		{"map, in place", func() Result { return Check(mapCounterSpec(true), counter) }, "7"},
		{"map, pure", func() Result { return Check(mapCounterSpec(false), counter) }, ""},
		// The explorer checks histories with erased specifications, whose state is an
		// interface: one holding a pointer is watched as the pointer is.
		{"erased pointer, in place", func() Result { return Check(specs.Erase(ptrQueueSpec(true)).Spec, erased(queue)) }, "1"},
		{"erased pointer, pure", func() Result { return Check(specs.Erase(ptrQueueSpec(false)).Spec, erased(queue)) }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := tc.check()
			if tc.input == "" {
				if res.Verdict != Linearizable {
					t.Errorf("verdict %v (%v), want %v", res.Verdict, res.Err, Linearizable)
				}
				return
			}
			var m *SpecMutationError
			if !errors.As(res.Err, &m) {
				t.Fatalf("verdict %v, Err = %v, want a *SpecMutationError", res.Verdict, res.Err)
			}
			if res.Verdict != Unknown {
				t.Errorf("verdict %v, want %v", res.Verdict, Unknown)
			}
			if m.Input != tc.input || !strings.Contains(m.Error(), "Apply("+tc.input+") changed the state") {
				t.Errorf("error %q (input %q), want the operation Apply(%s)", m, m.Input, tc.input)
			}
		})
	}
}

// erased is ops over interface values, as the explorer hands them to an erased
// specification.
func erased(ops []histories.Operation[int, int]) []histories.Operation[any, any] {
	out := make([]histories.Operation[any, any], len(ops))
	for i, op := range ops {
		out[i] = histories.Operation[any, any]{Client: op.Client, Input: op.Input, Output: op.Output, Call: op.Call, Return: op.Return, Open: op.Open}
	}
	return out
}
