package explorer_test

import (
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// TestContextSensitiveSleepSets checks stateful DPOR's context-sensitive sleep sets
// (dpor/contextsleep.go) against closed forms. k notes pending at one actor, on an
// unordered network, under history (which orders every two deliveries to one actor):
//   - a counter keeps no order: every two notes commute wherever they meet. The 2^k
//     sets of notes delivered are the states; with sleep sets by the relation alone,
//     stateful DPOR takes every edge between them, k·2^(k−1) steps, and with context-
//     sensitive ones it keeps the notes delivered elsewhere asleep and enters each state
//     once, 2^k − 1 steps;
//   - a receiver that records the order (broadcaster) has no two notes that commute:
//     both searches are the same, every one of the Σ k!/(k−j)! sequences a state.
func TestContextSensitiveSleepSets(t *testing.T) {
	run := func(sys model.System, s dpor.Strategy) explorer.Stats {
		t.Helper()
		res := mustRun(t, sys, explorer.Options{Strategy: s, StateCaching: true, MaxSchedules: explorer.Unlimited})
		if !res.Complete {
			t.Fatalf("%s: not complete", s.Name())
		}
		return res.Stats
	}
	for k := 2; k <= 5; k++ {
		count := model.System{Name: "count", Actors: []model.Actor{&counter{broadcaster{K: k}}, &counter{broadcaster{K: k}}},
			Harness: model.Clients(specs.Register(), model.Client[specs.RegisterInput]{Target: 0})}
		static := run(count, dpor.StatefulDPORStaticSleep(dpor.History()))
		cs := run(count, dpor.StatefulDPOR(dpor.History()))
		if want := int64(1) << k; static.States != want || cs.States != want {
			t.Errorf("counter, %d notes: %d states with static sleep sets, %d context-sensitive; want %d", k, static.States, cs.States, want)
		}
		if want := int64(k) << (k - 1); static.Steps != want {
			t.Errorf("counter, %d notes, static sleep sets: %d steps, want %d", k, static.Steps, want)
		}
		if want := int64(1)<<k - 1; cs.Steps != want {
			t.Errorf("counter, %d notes, context-sensitive sleep sets: %d steps, want %d", k, cs.Steps, want)
		}
		order := burst(k, model.Unordered)
		static, cs = run(order, dpor.StatefulDPORStaticSleep(dpor.History())), run(order, dpor.StatefulDPOR(dpor.History()))
		sequences, p := int64(0), int64(1)
		for j := 0; j <= k; j++ {
			sequences += p
			p *= int64(k - j)
		}
		if static.States != sequences || cs.States != sequences || static.Steps != cs.Steps {
			t.Errorf("notes in order, %d notes: states %d static, %d context-sensitive (want %d); steps %d and %d (want equal)", k, static.States, cs.States, sequences, static.Steps, cs.Steps)
		}
	}
}
