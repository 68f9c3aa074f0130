package explorer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/abd"
	"github.com/ravelmc/ravel/systems/leader"
	"github.com/ravelmc/ravel/systems/paxos"
	"github.com/ravelmc/ravel/systems/register"
)

// TestStatefulDPORResumesAtAnyStep: stateful DPOR (dpor with state caching) keeps its
// graph of the visited states in the checkpoint; a search interrupted at seven points
// spread over its steps, and resumed from its checkpoint each time, ends exactly as the
// uninterrupted one — on cyclic random systems, on the leader-based register (cycles of
// forwarding and timers) and on searches large enough that the graph's summaries and
// sleep sets outgrow one word (more than 64 steps).
func TestStatefulDPORResumesAtAnyStep(t *testing.T) {
	defer explorer.PollEveryStep()()
	systems := []struct {
		name string
		sys  func() (model.System, error)
		// newest: each state lists its enabled events newest first, an order in which
		// the cycle proviso matters (explorer.NewestFirst), and with it the depths and
		// low links of the states on the path that the checkpoint keeps.
		newest bool
	}{
		{"random-cyclic-32", func() (model.System, error) { return randsys.NewCyclic(32), nil }, false},
		{"random-cyclic-50", func() (model.System, error) { return randsys.NewCyclic(50), nil }, false},
		{"random-cyclic-32/newest-first", func() (model.System, error) { return randsys.NewCyclic(32), nil }, true},
		{"random-cyclic-50/newest-first", func() (model.System, error) { return randsys.NewCyclic(50), nil }, true},
		{"leader/1rw/newest-first", func() (model.System, error) { return leader.New(3, "1rw") }, true},
		{"register-buggy/2r2w", func() (model.System, error) { return register.NewBuggy(3, "2r2w") }, false},
		{"abd-buggy/1w2r-seq", func() (model.System, error) { return abd.NewBuggy(3, "1w2r-seq") }, false},
		{"leader/1rw", func() (model.System, error) { return leader.New(3, "1rw") }, false},
		{"paxos/2r2w", func() (model.System, error) { return paxos.New(2, paxos.DefaultRetries, "2r2w") }, false},
		// With faults, nodes where one is enabled are expanded fully (dpor/statefulfaults.go).
		{"abd/1w1r+drop", func() (model.System, error) { return withFaults(abd.New(3, "1w1r"))(model.Faults{Drop: 1}) }, false},
		{"register-buggy/2r1w+crash", func() (model.System, error) { return withFaults(register.NewBuggy(3, "2r1w"))(model.Faults{Crash: 1}) }, false},
	}
	strat := func() dpor.Strategy {
		s, err := dpor.New("dpor", dpor.Config{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, sc := range systems {
		t.Run(sc.name, func(t *testing.T) {
			sys, err := sc.sys()
			if err != nil {
				t.Fatal(err)
			}
			if sc.newest {
				defer explorer.NewestFirst()()
			}
			opts := explorer.Options{Strategy: strat(), MaxSchedules: explorer.Unlimited, StateCaching: true}
			want, err := explorer.Run(context.Background(), sys, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !want.Complete {
				t.Fatalf("the uninterrupted search did not complete")
			}
			opts.Checkpoint = explorer.Checkpointing{Dir: filepath.Join(t.TempDir(), "ckpt"), Identity: []string{"system=" + sc.name}}
			// The progress report comes at every step (PollEveryStep and a nanosecond's
			// interval), before the search looks at its context again: the search stops
			// after exactly stop steps.
			var got *explorer.Result
			// RAVEL_RESUME_POINTS=N interrupts at N points instead (not in CI).
			points := 7
			if n, err := strconv.Atoi(os.Getenv("RAVEL_RESUME_POINTS")); err == nil && n > 0 {
				points = n
			}
			for round := 0; round <= points; round++ {
				stop := want.Stats.Steps * int64(round+1) / int64(points+1)
				ctx, cancel := context.WithCancel(context.Background())
				o := opts
				o.Strategy = strat()
				o.Checkpoint.Resume = round > 0
				if round < points {
					o.ProgressEvery = 1
					o.Progress = func(s explorer.Stats) {
						if s.Steps >= stop {
							cancel()
						}
					}
				}
				got, err = explorer.Run(ctx, sys, o)
				cancel()
				if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				if round < points && !got.Stats.Interrupted {
					t.Fatalf("round %d was not interrupted (at %d steps of %d)", round, stop, want.Stats.Steps)
				}
			}
			sameAsUninterrupted(t, sys, got, want)
			// Steps run only to choose a state's first event (Stats.Peeked) depend on what
			// the table of sends held, which a resumed search starts empty.
			if g, w := fmt.Sprint(got.Stats.Steps-got.Stats.Peeked, got.Stats.ExploredAgain, got.Stats.SleepBlocked), fmt.Sprint(want.Stats.Steps-want.Stats.Peeked, want.Stats.ExploredAgain, want.Stats.SleepBlocked); g != w {
				t.Errorf("resumed: steps not peeked, states explored again, paths blocked %s, want %s", g, w)
			}
		})
	}
}

// withFaults returns a function that gives sys with fault budget f, or err.
func withFaults(sys model.System, err error) func(model.Faults) (model.System, error) {
	return func(f model.Faults) (model.System, error) {
		sys.Faults = f
		return sys, err
	}
}
