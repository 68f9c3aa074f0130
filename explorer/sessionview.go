package explorer

import (
	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
)

// What a session's viewer shows beside the states themselves: which actors are down, the
// faults spent, which events each step caused and which messages a fault took with it.

// Down reports whether actor a is crashed (down) now.
func (s *Session) Down(a model.ID) bool {
	f := s.cur().faults
	return f != nil && a >= 0 && f.crashed>>uint(a)&1 != 0
}

// MayRestart reports whether actor a, crashed now, may be restarted by a later step: the
// system does not crash-stop and the actor has a Restart method.
func (s *Session) MayRestart(a model.ID) bool {
	if !s.Down(a) || s.sys.Faults.CrashStop {
		return false
	}
	_, ok := s.cur().actors[a].(model.Restarter)
	return ok
}

// FaultsSpent counts the faults a session's steps injected, against the budgets of
// model.Faults; Timeouts has one count per client.
type FaultsSpent struct {
	Drop, Duplicate, Partition, Crash int
	Timeouts                          []int
}

// Spent is what the steps made so far spent of the fault budgets.
func (s *Session) Spent() FaultsSpent {
	var out FaultsSpent
	f := s.cur().faults
	if f == nil {
		return out
	}
	out.Drop, out.Duplicate, out.Partition, out.Crash = int(f.drops), int(f.dups), int(f.parts), int(f.crashes)
	for _, t := range f.timeouts {
		out.Timeouts = append(out.Timeouts, int(t))
	}
	return out
}

// EventCounts gives, for k from 0 to len(Steps()), the length of the history after the
// first k steps: step k caused Events()[EventCounts()[k-1]:EventCounts()[k]], and
// Events()[:EventCounts()[0]] are the invocations made when the system started.
func (s *Session) EventCounts() []int {
	out := make([]int, len(s.states))
	for i, st := range s.states {
		out[i] = st.events
	}
	return out
}

// Lost lists the pending messages that step k (from 1) took away without delivering
// them: those to the actor a crash took down, or those across a partition that loses
// messages. It is empty for every other step.
func (s *Session) Lost(k int) []Delivery {
	if k < 1 || k > len(s.steps) {
		return nil
	}
	if kind := s.steps[k-1].Kind; kind != dpor.Crash && kind != dpor.Partition {
		return nil
	}
	after := make(map[uint64]bool, len(s.states[k].pending))
	for _, p := range s.states[k].pending {
		after[p.ev.ID] = true
	}
	var out []Delivery
	for _, p := range s.states[k-1].pending {
		if !after[p.ev.ID] {
			ev := p.ev
			out = append(out, Delivery{ID: ev.ID, Kind: ev.Kind, From: ev.From, To: ev.To, Msg: ev.Msg, Timer: ev.Timer})
		}
	}
	return out
}

// FaultTargets maps each drop or duplicate enabled now to the pending message it acts on.
func (s *Session) FaultTargets() map[uint64]uint64 {
	out := map[uint64]uint64{}
	if s.failure != "" {
		return out
	}
	buf, _ := s.x.enabled(s.cur(), nil, nil)
	for _, ev := range buf {
		if ev.Kind == dpor.Drop || ev.Kind == dpor.Duplicate {
			out[ev.ID] = ev.Target
		}
	}
	return out
}
