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

// Workload drives the clients of one iteration.
type Workload struct {
	Client  Client
	Nodes   int
	Clients int
	Ops     int // per client
	Keys    int
	Values  int
	// ReadPercent is the share of reads in percent, the rest split evenly between writes
	// and compare-and-sets (0: no reads); a negative share draws reads, writes and
	// compare-and-sets a third each.
	ReadPercent int
	OpTimeout   time.Duration
	Think       time.Duration
	Seed        uint64
	Run         int
}

// Drive runs the workload: every client, concurrently, issues its operations one after the
// other to nodes it picks at random, recording invocation and completion times (ns since
// the start). An operation that times out or fails with an unknown outcome is open; a read
// that does not answer and an operation that certainly failed are left out, having had no
// effect. It returns when every client is done or ctx is.
func (w Workload) Drive(ctx context.Context) []Op {
	start := time.Now()
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
	return ops
}
