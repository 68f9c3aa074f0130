package ravelcli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/internal/panicsite"
)

// A handler that never returns — a loop whose condition the handler itself never
// changes — stops a search where nothing can see it: Go cannot stop a function from the
// outside, and the search looks at its context and prints progress between steps only.
// What the command can do is say where the handler is, from the goroutines' stacks, and
// let a second interrupt end the process.

// stallAfter is how long check goes without a progress line before it looks for a
// handler that has not returned. Tests shorten it.
var stallAfter = 30 * time.Second

// interruptGrace is how long after an interrupt the command waits to end by itself
// before it says where the search is and gives the signals back. Tests shorten it.
var interruptGrace = 2 * time.Second

// interruptContext is cancelled by SIGINT or SIGTERM: both end a run early with the
// figures so far and exit status 130. When the command has not called stop
// interruptGrace after the signal, something does not look at the context — most likely
// a handler that never returns —, so it says where the handler is on stderr and gives the
// signals back to the system: a second one ends the process at once.
//
// A process started with SIGINT ignored (a background job of a non-interactive shell,
// nohup) would ignore it again once given back: then the command keeps listening itself
// and ends on the second signal with status 130.
func interruptContext(stderr io.Writer, prog string) (context.Context, context.CancelFunc) {
	ignored := signal.Ignored(os.Interrupt) // before Notify, which changes the answer
	ctx, release := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	var once sync.Once
	stop := func() { once.Do(func() { close(finished) }); release() }
	grace := interruptGrace
	go func() {
		select {
		case <-finished:
			return
		case <-ctx.Done():
		}
		select {
		case <-finished:
		case <-time.After(grace):
			if ignored {
				again := make(chan os.Signal, 1)
				signal.Notify(again, os.Interrupt, syscall.SIGTERM)
				release()
				go func() {
					select {
					case <-again:
						os.Exit(exitInterrupted)
					case <-finished:
						signal.Stop(again)
					}
				}()
			} else {
				release()
			}
			where := "it is in Ravel's own work"
			if frames, _ := handlerFrames(); frames != nil {
				where = "a handler has not returned; it is at\n" + strings.Join(frames, "\n") + runningDelivery()
			}
			fmt.Fprintf(stderr, "%s: interrupted, but the search has not stopped after %v: %s\n%s: interrupt again to quit at once\n", prog, grace, where, prog)
		}
	}()
	return ctx, stop
}

// stallWatch looks for a handler that has not returned when progress lines stop coming.
type stallWatch struct {
	mu       sync.Mutex
	last     time.Time // the last progress line, or the start
	reported bool      // this stall was told
	done     chan struct{}
}

// watchStalls starts a stallWatch writing to stderr; tick is to be called at each
// progress line, and stop when the search is over.
func watchStalls(stderr io.Writer, prog string) (tick, stop func()) {
	w := &stallWatch{last: time.Now(), done: make(chan struct{})}
	after := stallAfter
	go func() {
		t := time.NewTicker(after / 5)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-t.C:
			}
			w.mu.Lock()
			quiet := time.Since(w.last)
			due := quiet >= after && !w.reported
			w.mu.Unlock()
			if !due {
				continue
			}
			// Minimizing a counterexample runs handlers too, with no progress lines: only
			// a handler seen in the same call twice is called stuck.
			if frames := stuckHandler(after / 10); frames != nil {
				w.mu.Lock()
				w.reported = true
				w.mu.Unlock()
				fmt.Fprintf(stderr, "%s: no progress for %v: a handler has not returned (a loop that never ends?); it is at\n%s%s\n%s: interrupt to stop the search\n",
					prog, roundDuration(quiet), strings.Join(frames, "\n"), runningDelivery(), prog)
			}
		}
	}()
	var once sync.Once
	return func() {
			w.mu.Lock()
			w.last, w.reported = time.Now(), false
			w.mu.Unlock()
		}, func() {
			once.Do(func() { close(w.done) })
		}
}

// handlerFrames returns the frames of the handler the search is running, if any: those
// of the goroutine inside explorer's executor.run (which every handler call goes
// through) above that call, as "  pkg.(*T).Receive (file.go:42)", runtime frames left
// out; nil when no goroutine is inside a handler. call identifies the handler's call:
// its frames with their arguments, which a new call (a new copy of the actor, a new
// envelope) does not share.
func handlerFrames() (frames []string, call string) {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		frames, call = nil, ""
		for _, f := range panicsite.Frames(g) {
			if f.Func == "github.com/ravelmc/ravel/explorer.(*executor).run" {
				if len(frames) == 0 {
					break
				}
				return frames, call
			}
			call += f.Call + "\n"
			if strings.HasPrefix(f.Func, "github.com/ravelmc/ravel/explorer.") || len(frames) == 0 && standard(f.Func) {
				continue // the closure run calls, and the library the handler is stopped in
			}
			frames = append(frames, fmt.Sprintf("  %s (%s)", f.Short(), frameAt(f.At, len(frames) == 0)))
		}
	}
	return nil, ""
}

// frameAt is a frame's "file.go:LINE" as a report shows it; top is the first frame
// shown. Go prints line 1 for the top frame of a goroutine preempted asynchronously (a
// loop without calls), which is never a line of a function's body: it is left out.
func frameAt(at string, top bool) string {
	if top && strings.HasSuffix(at, ":1") {
		return strings.TrimSuffix(at, ":1") + ", line unknown: preempted in a loop"
	}
	return at
}

// stuckHandler returns the frames of a handler that is in the same call twice, wait
// apart; nil when none is.
func stuckHandler(wait time.Duration) []string {
	frames, call := handlerFrames()
	if frames == nil {
		return nil
	}
	time.Sleep(wait)
	if again, same := handlerFrames(); again == nil || same != call {
		return nil
	}
	return frames
}

// standard reports whether the function named name is of Go's standard library (the
// runtime among it), whose packages' paths have no dot in their first element.
func standard(name string) bool {
	first, _, nested := strings.Cut(name, "/")
	if !nested {
		first, _, _ = strings.Cut(name, ".") // "fmt.Println"
	}
	return !strings.Contains(first, ".") && first != "main"
}

// roundDuration rounds d for a message: to the second from a second on.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Second)
	}
	return d.Round(10 * time.Millisecond)
}

// runningDelivery is "\n  delivering: n0 → n1 Update{Value:1}", the delivery whose
// handler the search started last, or "" when none is known.
func runningDelivery() string {
	if d := explorer.RunningDelivery(); d != "" {
		return "\n  delivering: " + d
	}
	return ""
}
