package live

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var someDone = regexp.MustCompile(`, [1-9][0-9,]* operations done`)

// cancelWriter collects progress lines and cancels the run once one reports an
// operation done.
type cancelWriter struct {
	mu     sync.Mutex
	lines  []string
	cancel func()
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, string(p))
	if someDone.MatchString(string(p)) {
		w.cancel()
	}
	return len(p), nil
}

// TestRunProgressAndPartialHistory: while an iteration runs, a progress line comes at
// every tick (steps, operations done, messages, faults); an interruption during the
// workload keeps what the clients did as the iteration's history files, unchecked, for
// ravel lincheck. Nothing was printed until an iteration ended, and an interrupted
// iteration kept no history.
func TestRunProgressAndPartialHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	cfg := kvConfig(t, "random", false)
	cfg.Workload.Ops = 100000
	cfg.Workload.ThinkTime = time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelWriter{cancel: cancel}
	tick := make(chan time.Time)
	cfg.Progress, cfg.progressTick = w, tick
	go func() {
		// Ticks, each taken by the running iteration, until the run is interrupted.
		for {
			select {
			case tick <- time.Time{}:
			case <-ctx.Done():
				return
			}
		}
	}()
	rep, err := Run(ctx, cfg, io.Discard)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want interrupted", err)
	}
	w.mu.Lock()
	lines := w.lines
	w.mu.Unlock()
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "iteration 0: running for ") || !strings.Contains(lines[len(lines)-1], " operations done") {
		t.Errorf("progress lines %q", lines)
	}
	ir := rep.Iterations[len(rep.Iterations)-1]
	if !ir.Partial || ir.Ops == 0 {
		t.Fatalf("interrupted iteration: partial %v, %d operations; want a partial history", ir.Partial, ir.Ops)
	}
	for _, f := range []string{"history.txt", "history-k0.jsonl", "verdict.txt"} {
		if _, err := os.Stat(filepath.Join(ir.Dir, f)); err != nil {
			t.Error(err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(ir.Dir, "verdict.txt"))
	if !strings.HasPrefix(string(b), "not checked: the run was interrupted") {
		t.Errorf("verdict.txt %q", b)
	}
	if len(Alive(ir.Started)) > 0 {
		t.Errorf("processes left: %v", Alive(ir.Started))
	}
}
