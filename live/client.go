package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// Input and Output are the operations of the client workload: compare-and-set registers
// under a few keys, checked against specs.Keyed(specs.CASRegister()).
type (
	Input  = specs.KeyedInput[specs.CASInput]
	Output = specs.CASOutput
	// Op is one operation of a history.
	Op = histories.Operation[Input, Output]
)

// Spec is the specification histories are checked against.
func Spec() specs.Spec[specs.CASState, Input, Output] { return specs.Keyed(specs.CASRegister()) }

// ErrFailed marks an operation that certainly did not take effect (the service refused it
// before doing anything); any other error leaves the outcome unknown.
var ErrFailed = errors.New("operation failed")

// Client performs one operation against node's client API.
type Client interface {
	Do(ctx context.Context, node int, in Input) (Output, error)
}

// KVNodeClient speaks the client API of examples/kvnode: POST /op with a JSON operation.
type KVNodeClient struct {
	URLs []string // client URL of each node
	HTTP *http.Client
}

// Do implements Client.
func (k *KVNodeClient) Do(ctx context.Context, node int, in Input) (Output, error) {
	op := struct {
		Kind string `json:"kind"`
		Key  string `json:"key"`
		A    int    `json:"a"`
		B    int    `json:"b"`
	}{Key: in.Key, A: in.In.A, B: in.In.B}
	switch in.In.Op {
	case specs.CASRead:
		op.Kind = "read"
	case specs.CASWrite:
		op.Kind = "write"
	case specs.CASSwap:
		op.Kind = "cas"
	}
	body, _ := json.Marshal(op)
	req, err := http.NewRequestWithContext(ctx, "POST", k.URLs[node]+"/op", bytes.NewReader(body))
	if err != nil {
		return Output{}, err
	}
	resp, err := k.HTTP.Do(req)
	if err != nil {
		return Output{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusBadRequest {
		return Output{}, fmt.Errorf("%w: %s", ErrFailed, resp.Status)
	}
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		return Output{}, fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	var res struct {
		OK    bool `json:"ok"`
		Found bool `json:"found"`
		Value int  `json:"value"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		return Output{}, err
	}
	if in.In.Op == specs.CASRead {
		return Output{OK: true, Absent: !res.Found, Value: res.Value}, nil
	}
	return Output{OK: res.OK}, nil
}

// Workload drives the clients of one iteration against a system's nodes, over keys
// "k0" … and values 0 …. Drive refuses one whose counts are out of range (Validate).
type Workload struct {
	// Client sends the operations; it must not be nil.
	Client Client
	// Nodes is the number of nodes (at least 1): each operation goes to one drawn at
	// random.
	Nodes int
	// Clients is the number of concurrent clients, Ops the operations each issues, one
	// after the other (0 or more: none, no operation).
	Clients int
	Ops     int
	// Keys and Values are how many keys and values operations draw from (at least 1).
	Keys   int
	Values int
	// ReadPercent is the share of reads in percent, the rest split evenly between writes
	// and compare-and-sets (0: no reads); a negative share draws reads, writes and
	// compare-and-sets a third each.
	ReadPercent int
	// OpTimeout is how long an operation may take before it is abandoned, open; it must
	// be positive (Config's default is 1s).
	OpTimeout time.Duration
	// Think is the pause between a client's operations (0: none); after a failure a
	// client pauses at least OpTimeout/10.
	Think time.Duration
	// Seed and Run pick the random choices: the same pair, the same choices per client.
	Seed uint64
	Run  int
	// Start is the origin of the operations' times (zero: when Drive starts).
	Start time.Time
	// Counts, when not nil, is kept up to date while Drive runs.
	Counts *DriveCounts
}

// DriveCounts are a running workload's counts, safe to read while Drive runs: the
// operations finished, whatever their outcome, and of those the ones left out of the
// history (a read that did not answer, an operation that certainly failed).
type DriveCounts struct {
	Done, LeftOut atomic.Int64
}

// Validate says what is wrong with w, Drive's refusal: a nil Client, Nodes, Keys or
// Values below 1, negative Clients or Ops, or an OpTimeout that is not positive.
func (w Workload) Validate() error {
	switch {
	case w.Client == nil:
		return errors.New("live: workload without a Client")
	case w.Nodes < 1 || w.Keys < 1 || w.Values < 1:
		return fmt.Errorf("live: workload of %d nodes, %d keys, %d values: each must be at least 1", w.Nodes, w.Keys, w.Values)
	case w.Clients < 0 || w.Ops < 0:
		return fmt.Errorf("live: workload of %d clients, %d operations each: neither may be negative", w.Clients, w.Ops)
	case w.OpTimeout <= 0:
		return fmt.Errorf("live: workload with operation timeout %v: it must be positive", w.OpTimeout)
	}
	return nil
}

// Drive runs the workload: every client, concurrently, issues its operations one after the
// other to nodes it picks at random, recording invocation and completion times (ns since
// the start). An operation that times out or fails with an unknown outcome is open; a read
// that does not answer and an operation that certainly failed are left out, having had no
// effect. It returns when every client is done or ctx is; before starting, it returns
// Validate's error for a workload it cannot run.
func (w Workload) Drive(ctx context.Context) ([]Op, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	start := w.Start
	if start.IsZero() {
		start = time.Now()
	}
	counts := w.Counts
	if counts == nil {
		counts = new(DriveCounts)
	}
	var mu sync.Mutex
	var ops []Op
	var wg sync.WaitGroup
	for c := range w.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each client has a stream of its own, so its choices do not depend on timing.
			rng := NewChooser(w.Seed^0x9e3779b97f4a7c15*uint64(c+1), w.Run)
			for range w.Ops {
				if ctx.Err() != nil {
					return
				}
				in := Input{Key: fmt.Sprintf("k%d", rng.IntN(w.Keys))}
				kind := rng.IntN(3)
				if w.ReadPercent >= 0 {
					kind = 1 + rng.IntN(2)
					if rng.IntN(100) < w.ReadPercent {
						kind = 0
					}
				}
				switch kind {
				case 0:
					in.In = specs.CASInput{Op: specs.CASRead}
				case 1:
					in.In = specs.CASInput{Op: specs.CASWrite, A: rng.IntN(w.Values)}
				default:
					in.In = specs.CASInput{Op: specs.CASSwap, A: rng.IntN(w.Values), B: rng.IntN(w.Values)}
				}
				node := rng.IntN(w.Nodes)
				octx, cancel := context.WithTimeout(ctx, w.OpTimeout)
				call := time.Since(start).Nanoseconds()
				out, err := w.Client.Do(octx, node, in)
				ret := time.Since(start).Nanoseconds()
				cancel()
				op := Op{Client: c, Input: in, Output: out, Call: call, Return: ret}
				switch {
				case err == nil:
				case errors.Is(err, ErrFailed) || in.In.Op == specs.CASRead:
					op.Client = -1
				default:
					op.Open = true
				}
				counts.Done.Add(1)
				if op.Client < 0 {
					counts.LeftOut.Add(1)
				}
				if op.Client >= 0 {
					mu.Lock()
					ops = append(ops, op)
					mu.Unlock()
				}
				// After a failure, back off: a node that is down or cut off fails fast, and
				// a client retrying at once would end the workload before any recovery.
				pause := w.Think
				if err != nil {
					pause = max(pause, w.OpTimeout/10)
				}
				if pause > 0 {
					select {
					case <-time.After(pause):
					case <-ctx.Done():
					}
				}
			}
		}()
	}
	wg.Wait()
	return ops, nil
}
