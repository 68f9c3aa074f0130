package explorer

import (
	"context"
	"errors"
	"strings"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/internal/panicsite"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/wgl"
)

// Minimize shrinks the schedule of v, a violation found on sys, and returns the shrunk
// violation: fewer faults, operations and deliveries, still a violation of the same kind
// — and, for a panic, one at the same site: a shorter schedule that panics elsewhere (in
// another handler, or at another line of the same one) is another bug, and a person
// debugging wants the one the search found, so it is not kept. The shrunk violation's
// message, stack and final state are those of its own schedule's replay.
// It runs delta debugging over the schedule (Zeller and Hildebrandt, "Simplifying and
// isolating failure-inducing input", TSE 2002), then removes single events, and single
// faults with what goes with them (a duplicate becomes the plain delivery of its message
// and the later delivery of the copy it left goes; a crash goes with its actor's next
// restart, a partition with the next heal), until removing any one more loses the
// violation or makes the schedule invalid (an event not enabled when its turn comes): a
// local minimum, whose faults the violation needs. A message whose event is not enabled in a
// candidate may be stood in for by an enabled copy of it sent at another step (a re-send
// for the original), so a step that only re-sent can go. Every candidate is replayed
// from the initial state, so nothing carries over from the search, and the schedule
// returned names the events it runs. Cancelling ctx stops it with the
// smallest violating schedule found so far. v itself is not modified; a nil v is
// refused with an error.
func Minimize(ctx context.Context, sys model.System, v *Violation) (*Violation, error) {
	if v == nil {
		return nil, errors.New("explorer: Minimize: no violation to minimize (v is nil)")
	}
	x, err := newExecutor(&sys, false)
	if err != nil {
		return nil, err
	}
	return minimize(ctx, x, v), nil
}

// minimizer replays candidate schedules and says whether they still violate.
type minimizer struct {
	x       *executor
	kind    string
	site    string // a panic's site (panicsite.InStack): a candidate must panic there too
	replays int
	like    map[uint64]uint64 // an event's ID to its Content, for stand-ins (replay)
}

// try replays ids and returns the execution when it shows a violation of the kind sought.
// A schedule that fails before its end is cut there.
func (m *minimizer) try(ids []uint64) *Execution {
	m.replays++
	ex, err := replay(m.x, ids, m.like)
	if err != nil {
		return nil
	}
	if m.kind != "nonlinearizable" {
		if !strings.HasPrefix(ex.Failure, m.kind+": ") || m.site != "" && panicsite.InStack(ex.Stack) != m.site {
			return nil
		}
		return ex
	}
	if ex.Failure != "" {
		return nil
	}
	ops := histories.Operations(m.x.harness, ex.Events)
	if wgl.Check(m.x.harness.Spec().Spec, ops).Verdict != wgl.NotLinearizable {
		return nil
	}
	return ex
}

func minimize(ctx context.Context, x *executor, v *Violation) *Violation {
	m := &minimizer{x: x, kind: v.Kind, site: panicsite.InStack(v.Stack), like: map[uint64]uint64{}}
	ids := make([]uint64, len(v.Steps))
	for i, s := range v.Steps {
		ids[i] = s.ID
	}
	best := m.try(ids)
	if best == nil {
		return v // the violation does not replay: report it as found
	}
	accept := func(ex *Execution) []uint64 {
		best = ex
		ids := make([]uint64, len(ex.Steps)) // the events run, stand-ins included
		for i, s := range ex.Steps {
			ids[i] = s.ID
		}
		return ids
	}
	ids = accept(best)
	// Delta debugging: remove one of n chunks at a time; on success go on with the rest
	// and n−1 chunks, else double n, until chunks are single events.
	for n := 2; len(ids) >= 2 && ctx.Err() == nil; {
		size := (len(ids) + n - 1) / n
		shrunk := false
		for start := 0; start < len(ids) && ctx.Err() == nil; start += size {
			c := append(append([]uint64(nil), ids[:start]...), ids[min(start+size, len(ids)):]...)
			if ex := m.try(c); ex != nil {
				ids = accept(ex)
				n = max(n-1, 2)
				shrunk = true
				break
			}
		}
		if shrunk {
			continue
		}
		if size == 1 {
			break
		}
		n = min(2*n, len(ids))
	}
	// Single-event removal until no event can go, and no fault either with what goes
	// with it: the local minimum.
	for changed := true; changed && ctx.Err() == nil; {
		changed = false
		for i := len(ids) - 1; i >= 0 && ctx.Err() == nil; i-- {
			c := append(append([]uint64(nil), ids[:i]...), ids[i+1:]...)
			if ex := m.try(c); ex != nil {
				ids = accept(ex)
				changed = true
				i = min(i, len(ids))
			}
		}
		for i := len(best.Steps) - 1; i >= 0 && ctx.Err() == nil; i-- {
			if !best.Steps[i].Kind.IsFault() {
				continue
			}
			if ex := m.try(withoutFault(best.Steps, i)); ex != nil {
				ids = accept(ex)
				changed = true
				i = min(i, len(ids))
			}
		}
	}
	out := *v
	out.Steps = best.Steps
	out.Events = best.Events
	out.Fingerprint = best.Fingerprint
	if best.Failure != "" {
		// The kept schedule's own failure: its message may differ from the one found
		// (other values), and its stack is the one its schedule ends in (probe M7).
		out.Message = strings.TrimPrefix(best.Failure, v.Kind+": ")
		out.Stack = best.Stack
	}
	out.OriginalSteps = len(v.Steps)
	out.MinimizeReplays = m.replays
	out.Minimized = ctx.Err() == nil
	return &out
}

// withoutFault is the schedule steps without the fault at step i, and without what
// removing that step alone leaves unreplayable: a duplicate becomes the plain delivery
// of its message at the same step, and a later delivery of that message (the copy the
// duplicate left pending) goes with it; a crash takes the next restart of its actor
// with it, a partition the next heal. Removing the step alone, which the single-event
// removal tries, keeps a fault the violation does not need when the rest of the
// schedule needs what the fault did — a duplicate's message delivered (probe M2).
func withoutFault(steps []Delivery, i int) []uint64 {
	f := steps[i]
	ids := make([]uint64, 0, len(steps))
	ids = append(ids, stepIDs(steps[:i])...)
	if f.Kind == dpor.Duplicate {
		ids = append(ids, f.Target)
	}
	companion := func(d Delivery) bool {
		switch f.Kind {
		case dpor.Duplicate:
			return d.ID == f.Target
		case dpor.Crash:
			return d.Kind == dpor.Restart && d.To == f.To
		case dpor.Partition:
			return d.Kind == dpor.Heal
		}
		return false
	}
	gone := false
	for _, d := range steps[i+1:] {
		if !gone && companion(d) {
			gone = true
			continue
		}
		ids = append(ids, d.ID)
	}
	return ids
}

// stepIDs returns the event identities of steps.
func stepIDs(steps []Delivery) []uint64 {
	ids := make([]uint64, len(steps))
	for i, s := range steps {
		ids[i] = s.ID
	}
	return ids
}
