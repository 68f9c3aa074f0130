package ravelcli

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// lockedBuffer is a bytes.Buffer two goroutines can share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// spinRelease lets spinner's handler return.
var spinRelease atomic.Bool

// spinner answers a request only once released: until then its handler loops, as a
// handler whose loop never ends does.
type spinner struct{}

func (spinner) Receive(ctx *model.Ctx, env model.Envelope) {
	r := env.Msg.(model.Request[specs.RegisterInput])
	for !spinRelease.Load() {
	}
	ctx.Respond(r.ID, specs.ReadOK(0))
}

// spinningSystem is one spinner with one reading client.
var spinningSystem = System{Name: "spinning", Harnesses: []string{"read"}, Agents: 1,
	Build: func(Config) (model.System, error) {
		return model.System{Name: "spinning", Actors: []model.Actor{spinner{}},
			Harness: model.Clients(specs.Register(), model.Calls(0, specs.Read()))}, nil
	}}

// A handler that never returns stops the search where it cannot see it: when progress
// lines stop coming, check says which handler has not returned and where it is, once,
// and the run ends normally once the handler does.
func TestCheckSaysWhereAHandlerIsStuck(t *testing.T) {
	saved := stallAfter
	stallAfter = 200 * time.Millisecond
	defer func() { stallAfter = saved }()
	spinRelease.Store(false)
	defer spinRelease.Store(true)
	var stdout bytes.Buffer
	var stderr lockedBuffer
	done := make(chan int)
	go func() { done <- Run([]string{"check", "spinning"}, &stdout, &stderr, Systems(spinningSystem)) }()
	const said = "a handler has not returned (a loop that never ends?); it is at\n  ravelcli.spinner.Receive (stall_test.go:"
	deadline := time.Now().Add(time.Minute) // not a limit on speed: the test's way out if the report never comes
	for !strings.Contains(stderr.String(), said) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(3 * stallAfter) // a second report would come by now
	spinRelease.Store(true)
	code := <-done
	if got := stderr.String(); !strings.Contains(got, "\n  delivering: c0 → n0  Request{c0.0 Read()}\n") {
		t.Errorf("the report does not name the delivery:\n%s", got)
	}
	if got := stderr.String(); strings.Count(got, said) != 1 {
		t.Errorf("stderr has %d reports of the stuck handler, want 1:\n%s", strings.Count(got, said), got)
	}
	if code != exitOK || !strings.Contains(stdout.String(), "no violation found") {
		t.Errorf("exit %d, want 0 with the run's report once the handler returned:\n%s", code, stdout.String())
	}
}

// A search in its own work, or between handlers, is not reported however long it goes
// without progress lines.
func TestNoHandlerNoStallReport(t *testing.T) {
	if frames, call := handlerFrames(); frames != nil || call != "" {
		t.Errorf("handlerFrames() outside any search = %q, %q; want none", frames, call)
	}
	if frames := stuckHandler(time.Millisecond); frames != nil {
		t.Errorf("stuckHandler outside any search = %q, want none", frames)
	}
}

func TestStandard(t *testing.T) {
	for name, want := range map[string]bool{
		"sync/atomic.(*Bool).Load":                   true,
		"fmt.Println":                                true,
		"runtime.gopark":                             true,
		"main.(*node).Receive":                       false,
		"example.com/qrep.(*Node).Receive":           false,
		"github.com/ravelmc/ravel/model.(*Ctx).Send": false,
	} {
		if got := standard(name); got != want {
			t.Errorf("standard(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestFrameAtPreempted: the line 1 Go prints for a goroutine preempted in a loop is not
// shown as the handler's line (state probe, H6).
func TestFrameAtPreempted(t *testing.T) {
	for _, c := range []struct {
		at   string
		top  bool
		want string
	}{
		{"handlers.go:1", true, "handlers.go, line unknown: preempted in a loop"},
		{"handlers.go:125", true, "handlers.go:125"},
		{"handlers.go:1", false, "handlers.go:1"},
		{"handlers.go:11", true, "handlers.go:11"},
	} {
		if got := frameAt(c.at, c.top); got != c.want {
			t.Errorf("frameAt(%q, %v) = %q, want %q", c.at, c.top, got, c.want)
		}
	}
}
