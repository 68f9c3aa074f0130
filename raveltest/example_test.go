package raveltest_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/systems/register"
)

// In a user's package, a test checks their system in one line; this one passes.
func TestRegisterIsLinearizable(t *testing.T) {
	sys, err := register.New(2, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	raveltest.Check(t, sys)
}

// Check fails a test whose system has a bug, with the history tied to its schedule, and
// saves the counterexample; here the test is a recorder, to show what it prints.
func ExampleCheck() {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "raveltest")
	defer os.RemoveAll(dir)
	t := &recorder{}
	raveltest.Check(t, sys, raveltest.Dir(dir))
	lines := strings.Split(t.errors[0], "\n")
	fmt.Println(strings.Join(lines[:len(lines)-1], "\n")) // all but "saved to <file>"
	// Output:
	// raveltest: register-buggy: the history is not linearizable (schedule 16 of 252 explored; minimized from 7 steps to 4)
	// history (each operation spans its invocation … its response):
	//   c0  Write(1)  ├──┤ ok
	//   c2  Read()          ├──┤ 0
	//
	// why it is not linearizable:
	//   the longest linearizable prefix found has 1 of the 2 operations, in linearization order,
	//   then the operation that cannot follow it:
	//       1  c0  Write(1)  ├──┤       ok
	//       ✗  c2  Read()          ├──┤ 0   but the specification answers 1 here
	//   c2 Read() answered 0, as it would have at the start,
	//     but c0 Write(1) returned before c2's call and changes the answer
	//
	// events, each with the step that caused it (0: the start):
	//   @1   c0 invokes Write(1)
	//   @3   c0 Write(1) returns ok
	//   @4   c2 invokes Read()
	//   @4   c2 Read() returns 0
	//
	// schedule (deliveries in order), with the events each caused:
	//    1  c0 → n0  Request{c0.0 Write(1)}  → c0 invokes Write(1)
	//    2  n0 → n1  WriteReplica{req:c0.0 ver:1 val:1}
	//    3  n1 → n0  WriteReplicaAck{req:c0.0}  → c0 Write(1) returns ok
	//    4  c2 → n2  Request{c2.0 Read()}  → c2 invokes Read(); c2 Read() returns 0
	//
	// pending at the end (never delivered in this schedule):
	//       c1 → n1  Request{c1.0 Read()}
	//       n0 → n2  WriteReplica{req:c0.0 ver:1 val:1}
}

// Sampler samples schedules at random with one of package samplers' samplers instead of
// searching them: here taPCT aimed at bugs of depth 2, 2,000 runs from seed 1. The
// failure names the seed and the run that found the violation, which repeat it.
func ExampleSampler() {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "raveltest")
	defer os.RemoveAll(dir)
	t := &recorder{}
	raveltest.Check(t, sys,
		raveltest.Sampler(samplers.TaPCT(samplers.Options{Depth: 2})), // bugs of depth 2
		raveltest.Seed(1),
		raveltest.Dir(dir), // in a test, testdata/ravel/<TestName> by default
		raveltest.Budget(2_000))
	first, _, _ := strings.Cut(t.errors[0], "\n")
	fmt.Println(first)
	// Output:
	// raveltest: register-buggy: the history is not linearizable (schedule 7 of 7 explored, tapct seed 1 run 6, where sampling stopped; minimized from 7 steps to 4)
}
