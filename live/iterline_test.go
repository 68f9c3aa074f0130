package live

import (
	"strings"
	"testing"
	"time"

	"github.com/ravelmc/ravel/wgl"
)

// TestIterationWarnings: an iteration whose verdict says less than it reads gets a
// warning naming the likely causes in the config's terms; an ordinary one gets none.
func TestIterationWarnings(t *testing.T) {
	cfg := &Config{Nodes: NodesConfig{Count: 3}, Network: NetworkConfig{Protocol: "tcp"},
		Workload: WorkloadConfig{Client: "kvnode", OpTimeout: time.Millisecond, Iteration: 2 * time.Minute}}
	msgs := Counts{Intercepted: 40, Delivered: 40}
	cases := []struct {
		name string
		ir   IterationReport
		want []string // a substring of each warning, in order
	}{
		{"ordinary", IterationReport{Ops: 47, Open: 3, Net: msgs}, nil},
		{"half open", IterationReport{Ops: 40, Open: 20, Net: msgs}, nil},
		{"nothing completed", IterationReport{Ops: 41, Open: 41, Net: msgs},
			[]string{"no operation completed (41 open), so nothing was checked: is workload.op_timeout (1ms) too short for the service, or workload.client (kvnode)"}},
		{"no operation", IterationReport{Net: msgs}, []string{"no operation completed (0 open)"}},
		{"cut before any", IterationReport{Ops: 2, Open: 2, TimedOut: true, Net: msgs},
			[]string{"no operation completed (2 open) before workload.iteration_timeout (2m0s) cut the workload, so nothing was checked"}},
		{"most open", IterationReport{Ops: 47, Open: 37, Net: msgs},
			[]string{"37 of 47 operations open (timed out or outcome unknown), more than half: the history constrains little; is workload.op_timeout (1ms) too short?"}},
		{"node exited", IterationReport{Ops: 47, Open: 3, Net: msgs, Exits: []string{"n1 (signal: killed)"}},
			[]string{"node n1 (signal: killed) exited on its own during the iteration — not a crash Ravel injected"}},
		{"most open after crashes", IterationReport{Ops: 190, Open: 186, Net: Counts{Intercepted: 4000}, Faults: FaultCounts{Drop: 307, Crash: 10, Restart: 9, Partition: 10, Heal: 9}},
			[]string{"186 of 190 operations open (timed out or outcome unknown), more than half: the history constrains little; is workload.op_timeout (1ms) too short, or are the faults too frequent (faults.probability 0; this iteration's drop 307, crash 10, restart 9, partition 10, heal 9): crashes and partitions may have left no majority up"}},
		{"few messages", IterationReport{Ops: 80, Net: Counts{Intercepted: 25, Delivered: 20}},
			[]string{"only 25 peer messages intercepted for 80 completed operations"}},
		{"no message", IterationReport{Ops: 47, Open: 29},
			[]string{"29 of 47 operations open", "no peer message was intercepted, so nothing was scheduled: is network.protocol (tcp) what the nodes speak"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := iterationWarnings(cfg, c.ir)
			if len(got) != len(c.want) {
				t.Fatalf("warnings %q, want %d", got, len(c.want))
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
	// Faults configured, none injected: said for the iteration, and for the session
	// when no iteration injected one.
	faulty := *cfg
	faulty.Faults = FaultsConfig{Probability: 0.01, Drop: 10, Crash: 1}
	none := IterationReport{Ops: 47, Open: 3, Steps: 20, Net: msgs}
	if got := iterationWarnings(&faulty, none); len(got) != 1 || !strings.Contains(got[0], "no fault was injected: a fault is drawn only at a scheduling decision, with faults.probability 0.01, and there were only 20 steps (0.2 faults expected); are most peer messages intercepted (network.protocol tcp)?") {
		t.Errorf("no fault injected: %q", got)
	}
	// Enough decisions that a fault was likely: no fault is chance, not the config.
	likely := none
	likely.Steps = 500
	if got := iterationWarnings(&faulty, likely); len(got) != 0 {
		t.Errorf("no fault in 500 steps: %q", got)
	}
	some := none
	some.Faults.Drop = 1
	if got := iterationWarnings(&faulty, some); len(got) != 0 {
		t.Errorf("a fault injected: %q", got)
	}
	if w := NoFaultWarning(&faulty, []IterationReport{none, none}); !strings.Contains(w, "no fault was injected in any iteration") {
		t.Errorf("session warning %q", w)
	}
	if w := NoFaultWarning(&faulty, []IterationReport{none, some}); w != "" {
		t.Errorf("session warning %q, want none: an iteration injected a fault", w)
	}
	if w := NoFaultWarning(cfg, []IterationReport{none}); w != "" {
		t.Errorf("session warning %q, want none: no faults configured", w)
	}
	// One node has no peers: no message to intercept is no warning.
	one := *cfg
	one.Nodes.Count = 1
	if got := iterationWarnings(&one, IterationReport{Ops: 10}); len(got) != 0 {
		t.Errorf("one node: %q", got)
	}
}

// TestIterationLine: the iteration's line writes counts with thousands separators,
// every message count (refused included) and the faults in words, never a Go struct.
func TestIterationLine(t *testing.T) {
	cases := []struct {
		name string
		ir   IterationReport
		want string
	}{
		{"faults", IterationReport{Run: 1, Ops: 294, Open: 2, Steps: 2791, Duration: 9512 * time.Millisecond, Dir: "out/iter-001",
			Net:    Counts{Intercepted: 2781, Delivered: 2770, Dropped: 10, Cut: 1, Refused: 1104},
			Faults: FaultCounts{Drop: 10, Crash: 1, Restart: 1, Partition: 1, Heal: 1}},
			"iteration 1 (seed 7): linearizable — 294 ops (2 open), 2,791 steps; messages 2,781 intercepted, 2,770 delivered, 10 dropped, 1 cut, 1,104 refused, 0 held at the end; faults: drop 10, crash 1, restart 1, partition 1, heal 1; 9.512s, out/iter-001\n"},
		{"no faults", IterationReport{Ops: 3, Steps: 4, Net: Counts{Intercepted: 4, Delivered: 4}, Faults: FaultCounts{}, Duration: time.Millisecond, Dir: "d"},
			"iteration 0 (seed 7): linearizable — 3 ops (0 open), 4 steps; messages 4 intercepted, 4 delivered, 0 dropped, 0 cut, 0 refused, 0 held at the end; no faults; 1ms, d\n"},
		{"cut", IterationReport{Ops: 24, Open: 1, Planned: 60, TimedOut: true, Steps: 4, Net: Counts{Intercepted: 4, Delivered: 4}, Duration: 31 * time.Millisecond, Dir: "d"},
			"iteration 0 (seed 7): linearizable — 24 ops (1 open), cut by workload.iteration_timeout (30ms) after 24 of 60 operations, 4 steps; messages 4 intercepted, 4 delivered, 0 dropped, 0 cut, 0 refused, 0 held at the end; no faults; 31ms, d\n"},
		{"left out", IterationReport{Ops: 278, Open: 28, LeftOut: 22, Steps: 4, Net: Counts{Intercepted: 4, Delivered: 4}, Duration: time.Millisecond, Dir: "d"},
			"iteration 0 (seed 7): linearizable — 278 ops (28 open; 22 failed, left out), 4 steps; messages 4 intercepted, 4 delivered, 0 dropped, 0 cut, 0 refused, 0 held at the end; no faults; 1ms, d\n"},
		{"cut, some left out", IterationReport{Ops: 63, LeftOut: 9, Planned: 8000, TimedOut: true, Steps: 4, Net: Counts{Intercepted: 4, Delivered: 4}, Duration: 31 * time.Millisecond, Dir: "d"},
			"iteration 0 (seed 7): linearizable — 63 ops (0 open; 9 failed, left out), cut by workload.iteration_timeout (30ms) after 72 of 8,000 operations, 4 steps; messages 4 intercepted, 4 delivered, 0 dropped, 0 cut, 0 refused, 0 held at the end; no faults; 31ms, d\n"},
		{"node exited", IterationReport{Ops: 3, Steps: 4, Net: Counts{Intercepted: 4, Delivered: 4}, Duration: time.Millisecond, Dir: "d", Exits: []string{"n1 (exit status 2)"}},
			"iteration 0 (seed 7): linearizable, but n1 (exit status 2) exited on its own — 3 ops (0 open), 4 steps; messages 4 intercepted, 4 delivered, 0 dropped, 0 cut, 0 refused, 0 held at the end; no faults; 1ms, d\n"},
	}
	cfg := &Config{Workload: WorkloadConfig{Iteration: 30 * time.Millisecond}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.ir.Verdict = wgl.Linearizable
			if got := iterationLine(cfg, 7, "", c.ir); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
