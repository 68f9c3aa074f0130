package live

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// countingChooser counts the draws of the chooser it wraps.
type countingChooser struct {
	Chooser
	draws int
}

func (c *countingChooser) IntN(k int) int { c.draws++; return c.Chooser.IntN(k) }
func (c *countingChooser) Uint64() uint64 { c.draws++; return c.Chooser.Uint64() }

// passStepper is a stepper of 3 nodes (never started) with faults on at probability p,
// and its network holding k messages n0→n1.
func passStepper(t *testing.T, p float64, replay bool, k int) (*stepper, *countingChooser) {
	t.Helper()
	nw := NewNetwork(3)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); nw.Close() })
	for i := range k {
		go nw.Hold(ctx, Message{From: 0, To: 1, Kind: "k"})
		for len(nw.Held()) <= i {
			runtime.Gosched()
		}
	}
	sampler, err := NewSampler("random", 3, 100)
	if err != nil {
		t.Fatal(err)
	}
	sampler.Begin(0, NewChooser(1, 0))
	faults := &countingChooser{Chooser: NewChooser(1^0xfa017, 0)}
	s := &stepper{
		cfg:     &Config{Faults: FaultsConfig{Probability: p, Drop: 100, Restart: time.Hour}},
		nw:      nw,
		procs:   NewProcs(make([]NodeCommand, 3)),
		sampler: sampler,
		chooser: faults,
		replay:  replay,
		t0:      time.Now(),
	}
	s.delivered, s.downSince = make([][]Message, 3), make([]time.Time, 3)
	s.enableFaults(time.Now())
	return s, faults
}

// TestFaultDrawsPerStep: the faults' stream is drawn once per scheduling decision, never
// on an idle pass (nothing held), so a seed fixes the sequence of fault decisions
// whatever the timing. Each idle pass used to draw, so two runs of one seed crashed
// different nodes. A replay draws no fault at all, even once its script is done.
func TestFaultDrawsPerStep(t *testing.T) {
	t.Run("idle passes draw nothing", func(t *testing.T) {
		s, faults := passStepper(t, 0.5, false, 0)
		for range 100 {
			if s.pass(nil) {
				t.Fatal("an idle pass took a step")
			}
		}
		if faults.draws != 0 {
			t.Errorf("100 idle passes drew %d times from the faults' stream, want 0", faults.draws)
		}
	})
	t.Run("same decisions whatever the idle passes", func(t *testing.T) {
		var runs [2][]Step
		for r, idle := range []int{0, 7} {
			s, _ := passStepper(t, 0.5, false, 6)
			for range 4 {
				for range idle {
					s.pass(nil)
				}
				s.announce(s.nw.Held())
				if !s.pass(s.nw.Held()) {
					t.Fatal("no step with messages held")
				}
			}
			runs[r] = s.executed
		}
		if len(runs[0]) == 0 || fmt.Sprint(runs[0]) != fmt.Sprint(runs[1]) {
			t.Errorf("steps without idle passes %v, with %v: want the same", runs[0], runs[1])
		}
		if !strings.Contains(fmt.Sprint(runs[0]), "drop") {
			t.Errorf("steps %v: no fault drawn (the test shows nothing)", runs[0])
		}
	})
	t.Run("a replay draws no fault", func(t *testing.T) {
		s, faults := passStepper(t, 1, true, 2)
		s.announce(s.nw.Held())
		if !s.pass(s.nw.Held()) {
			t.Fatal("no step with messages held")
		}
		if faults.draws != 0 || s.faults != (FaultCounts{}) {
			t.Errorf("a replay with its script done drew %d times, faults %+v; want none", faults.draws, s.faults)
		}
	})
}

// TestReplayStartup: a replay lets the cluster's start-up traffic through as the sampler
// picks it (the run did the same, with no faults) and re-imposes the recorded steps from
// the first after start-up; a recorded unknown sender matches any. Holding all but the
// next recorded start-up message kept etcd from electing a leader, and its recorded
// start-up senders were unknown (-1) while the replay's held messages had theirs.
func TestReplayStartup(t *testing.T) {
	t.Run("start-up passes, then the script", func(t *testing.T) {
		s, _ := passStepper(t, 0, true, 3)
		s.faultsOn = false // starting
		s.script = replayScript(&Schedule{Startup: 1, Steps: []Step{
			{Op: "deliver", From: 2, To: 0, Kind: "start-up"},
			{Op: "deliver", From: -1, To: 1, Kind: "k"},
		}})
		s.announce(s.nw.Held())
		if !s.pass(s.nw.Held()) || len(s.executed) != 1 || s.followed != 0 {
			t.Fatalf("while starting: executed %v, %d followed; want one delivery by the sampler", s.executed, s.followed)
		}
		s.enableFaults(time.Now())
		if !s.pass(s.nw.Held()) || len(s.executed) != 2 || s.followed != 1 || s.diverged != 0 {
			t.Fatalf("once healthy: executed %v, %d followed, %d diverged; want the recorded step ?→n1 k followed", s.executed, s.followed, s.diverged)
		}
		if got := s.startupSteps(); got != 1 {
			t.Errorf("startup %d, want 1", got)
		}
	})
	t.Run("a run records its start-up", func(t *testing.T) {
		s, _ := passStepper(t, 0, false, 2)
		s.faultsOn = false
		s.announce(s.nw.Held())
		s.pass(s.nw.Held())
		s.enableFaults(time.Now())
		s.pass(s.nw.Held())
		if got := s.startupSteps(); len(s.executed) != 2 || got != 1 {
			t.Errorf("%d steps, startup %d; want 2 and 1", len(s.executed), got)
		}
	})
}

// TestHealDue: a partition in force longer than heal_after is healed on a pass with
// nothing held, drawing nothing from the faults' stream. A heal used to be drawn only at
// a scheduling decision, so a partition that cut every peer message (nothing ever held
// again) lasted to the end of the iteration.
func TestHealDue(t *testing.T) {
	s, faults := passStepper(t, 0.5, false, 0)
	s.cfg.Faults.Partition, s.cfg.Faults.Heal = 1, time.Hour
	s.partition([]int{0, 1, 1})
	if s.pass(nil) || !s.nw.Partitioned() {
		t.Fatal("a partition younger than heal_after was healed")
	}
	s.partSince = s.partSince.Add(-2 * time.Hour) // as if it had lasted two hours
	if !s.pass(nil) {
		t.Fatal("an idle pass did not heal a partition older than heal_after")
	}
	if s.nw.Partitioned() || s.faults.Heal != 1 || s.executed[len(s.executed)-1].Op != "heal" {
		t.Errorf("after the pass: partitioned %v, faults %+v, steps %v; want healed and recorded", s.nw.Partitioned(), s.faults, s.executed)
	}
	if faults.draws != 0 {
		t.Errorf("the heal drew %d times from the faults' stream, want 0", faults.draws)
	}
}

// TestNodeExitNoticed: a node whose process ends on its own once the cluster is up is
// noted once, in events.txt and in exits; one Ravel crashed is not. Such an exit used to
// go unnoticed, and the iteration passed as linearizable.
func TestNodeExitNoticed(t *testing.T) {
	s, faults := passStepper(t, 0.5, false, 0)
	dir := t.TempDir()
	s.procs = NewProcs([]NodeCommand{
		{Argv: []string{"/bin/sh", "-c", "sleep 600"}, DataDir: dir + "/n0"},
		{Argv: []string{"/bin/sh", "-c", "exit 3"}, DataDir: dir + "/n1"},
		{Argv: []string{"/bin/sh", "-c", "sleep 600"}, DataDir: dir + "/n2"},
	})
	t.Cleanup(func() { s.procs.Stop() })
	for i := range 3 {
		if err := s.procs.Start(i); err != nil {
			t.Skipf("cannot start a process here: %v", err)
		}
	}
	for !func() bool { _, ok := s.procs.Exited(1); return ok }() {
		time.Sleep(time.Millisecond)
	}
	s.crash(2)
	s.pass(nil)
	s.pass(nil)
	if len(s.exits) != 1 || !strings.Contains(s.exits[0], "n1 (exit status 3)") {
		t.Fatalf("exits %q, want n1 (exit status 3) once", s.exits)
	}
	if ev := strings.Join(s.events, "\n"); !strings.Contains(ev, "n1 exited on its own (exit status 3") || strings.Contains(ev, "n2 exited") {
		t.Errorf("events:\n%s\nwant n1's exit, not n2's crash, as an exit", ev)
	}
	if faults.draws != 0 {
		t.Errorf("noticing drew %d times", faults.draws)
	}
}
