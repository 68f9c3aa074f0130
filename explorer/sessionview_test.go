package explorer_test

import (
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/register"
)

// TestSessionShowsACrash: crashing the actor a pending request is sent to marks it down,
// spends the crash budget and reports the request lost with the crash; a restart brings
// it back, and under crash-stop the actor may not restart.
func TestSessionShowsACrash(t *testing.T) {
	for _, stop := range []bool{false, true} {
		sys, err := register.NewVolatile(3, "1r1w")
		if err != nil {
			t.Fatal(err)
		}
		sys.Faults.Crash, sys.Faults.CrashStop = 1, stop
		s, err := explorer.NewSession(sys)
		if err != nil {
			t.Fatal(err)
		}
		var req, crash explorer.Delivery
		for _, d := range s.Enabled() {
			if d.Kind == dpor.Request && req.ID == 0 {
				req = d
			}
		}
		for _, d := range s.Enabled() {
			if d.Kind == dpor.Crash && d.To == req.To {
				crash = d
			}
		}
		if req.ID == 0 || crash.ID == 0 {
			t.Fatalf("no request and crash of its receiver enabled: %+v", s.Enabled())
		}
		if s.Down(req.To) || s.Spent().Crash != 0 {
			t.Fatalf("down before the crash")
		}
		if err := s.Deliver(crash.ID); err != nil {
			t.Fatal(err)
		}
		if !s.Down(req.To) || s.Down(model.ID((int(req.To)+1)%3)) {
			t.Errorf("after the crash of %d: down %v", req.To, s.Down(req.To))
		}
		if got := s.MayRestart(req.To); got == stop {
			t.Errorf("crash-stop %v: may restart %v", stop, got)
		}
		if s.Spent().Crash != 1 {
			t.Errorf("spent %+v, want a crash", s.Spent())
		}
		lost := s.Lost(1)
		if len(lost) != 1 || lost[0].ID != req.ID {
			t.Errorf("lost with the crash: %+v, want the request %016x", lost, req.ID)
		}
		if n := s.EventCounts(); len(n) != 2 || n[0] != n[1] {
			t.Errorf("event counts %v: want two, equal (a crash invokes nothing)", n)
		}
	}
}

// TestSessionEventCounts: the history's length after each step, and the drop or
// duplicate enabled on each message.
func TestSessionEventCounts(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	sys.Faults.Drop = 1
	s, err := explorer.NewSession(sys)
	if err != nil {
		t.Fatal(err)
	}
	step := func() {
		for _, d := range s.Enabled() {
			if !d.Kind.IsFault() {
				if err := s.Deliver(d.ID); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
	}
	step() // a request, which sends messages that may be dropped
	targets := s.FaultTargets()
	msgs := map[uint64]bool{}
	for _, d := range s.Enabled() {
		if !d.Kind.IsFault() {
			msgs[d.ID] = true
		}
	}
	drops := 0
	for _, d := range s.Enabled() {
		if d.Kind == dpor.Drop {
			drops++
			if !msgs[targets[d.ID]] {
				t.Errorf("drop %016x acts on %016x, not a pending message", d.ID, targets[d.ID])
			}
		}
	}
	if drops == 0 {
		t.Fatalf("no drop enabled")
	}
	step()
	step()
	n := s.EventCounts()
	if len(n) != 4 || n[3] != len(s.Events()) {
		t.Fatalf("event counts %v after 3 steps, %d events", n, len(s.Events()))
	}
	for k := 1; k < len(n); k++ {
		if n[k] < n[k-1] {
			t.Errorf("event counts %v decrease", n)
		}
	}
}
