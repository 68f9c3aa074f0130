package live

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ravelmc/ravel/specs"
)

// fakeClient answers from a map, fails every fourth write with an unknown outcome and
// every fourth CAS definitely; it records what it was asked.
type fakeClient struct {
	mu    sync.Mutex
	calls map[specs.CASOp]int
	nodes map[int]int
}

func (f *fakeClient) Do(_ context.Context, node int, in Input) (Output, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[in.In.Op]++
	f.nodes[node]++
	switch {
	case in.In.Op == specs.CASWrite && f.calls[in.In.Op]%4 == 0:
		return Output{}, errors.New("connection reset")
	case in.In.Op == specs.CASSwap && f.calls[in.In.Op]%4 == 0:
		return Output{}, ErrFailed
	}
	return Output{OK: true}, nil
}

func TestWorkloadDrive(t *testing.T) {
	for _, c := range []struct {
		name        string
		readPercent int
	}{{"even mix", -1}, {"reads only", 100}, {"no reads", 0}} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeClient{calls: map[specs.CASOp]int{}, nodes: map[int]int{}}
			w := Workload{Client: f, Nodes: 3, Clients: 4, Ops: 30, Keys: 2, Values: 5,
				ReadPercent: c.readPercent, OpTimeout: time.Second, Seed: 7, Run: 1, Counts: new(DriveCounts)}
			ops, err := w.Drive(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			total := f.calls[specs.CASRead] + f.calls[specs.CASWrite] + f.calls[specs.CASSwap]
			if total != 120 {
				t.Fatalf("%d operations issued, want 4 clients × 30", total)
			}
			if len(f.nodes) != 3 {
				t.Errorf("operations went to nodes %v, want all 3", f.nodes)
			}
			if c.readPercent == 100 && f.calls[specs.CASRead] != 120 {
				t.Errorf("reads only: calls %v", f.calls)
			}
			if c.readPercent < 0 && (f.calls[specs.CASRead] == 0 || f.calls[specs.CASWrite] == 0 || f.calls[specs.CASSwap] == 0) {
				t.Errorf("even mix: calls %v", f.calls)
			}
			if c.readPercent == 0 && (f.calls[specs.CASRead] != 0 || f.calls[specs.CASWrite] == 0 || f.calls[specs.CASSwap] == 0) {
				t.Errorf("no reads: calls %v, want writes and compare-and-sets only", f.calls)
			}
			// The history: every call but the definitely failed CASes; the writes whose
			// outcome is unknown open.
			if want := total - f.calls[specs.CASSwap]/4; len(ops) != want {
				t.Errorf("%d operations in the history, want %d", len(ops), want)
			}
			// The counts say how many were done, and how many left out.
			if done, left := w.Counts.Done.Load(), w.Counts.LeftOut.Load(); done != int64(total) || left != int64(total-len(ops)) {
				t.Errorf("counts: %d done, %d left out; want %d, %d", done, left, total, total-len(ops))
			}
			open := 0
			for _, op := range ops {
				if op.Open {
					open++
					if op.Input.In.Op != specs.CASWrite {
						t.Errorf("open %v, want only writes open", op.Input)
					}
				} else if op.Return < op.Call {
					t.Errorf("%v returns before its call", op.Input)
				}
			}
			if open != f.calls[specs.CASWrite]/4 {
				t.Errorf("%d open operations, want %d", open, f.calls[specs.CASWrite]/4)
			}
		})
	}
}

// TestWorkloadDriveRefusesBadCounts: a workload Drive cannot run is an error before any
// client starts, not a panic inside a client's goroutine that ends the process (probe
// G14: Keys and Values 0 did that).
func TestWorkloadDriveRefusesBadCounts(t *testing.T) {
	f := &fakeClient{calls: map[specs.CASOp]int{}, nodes: map[int]int{}}
	ok := Workload{Client: f, Nodes: 1, Clients: 1, Ops: 2, Keys: 1, Values: 1, OpTimeout: time.Second}
	for name, w := range map[string]Workload{
		"no keys":    func() Workload { w := ok; w.Keys, w.Values = 0, 0; return w }(),
		"no nodes":   func() Workload { w := ok; w.Nodes = 0; return w }(),
		"no client":  func() Workload { w := ok; w.Client = nil; return w }(),
		"no timeout": func() Workload { w := ok; w.OpTimeout = 0; return w }(),
	} {
		if ops, err := w.Drive(context.Background()); err == nil || ops != nil {
			t.Errorf("%s: Drive = %d ops, %v; want an error", name, len(ops), err)
		}
	}
	if f.calls[specs.CASRead]+f.calls[specs.CASWrite]+f.calls[specs.CASSwap] != 0 {
		t.Errorf("operations issued: %v", f.calls)
	}
}
