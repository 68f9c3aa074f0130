package explorer

import (
	"fmt"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
)

// Crowd is the largest group of like messages — one type, one sender, one receiver —
// pending at the end of a schedule the depth budget cut. A protocol that sends faster
// than the network delivers (a timer re-armed on every firing that re-sends each time)
// has an infinite state space: each firing adds a copy, so paths never end or meet a
// visited state, and every search is cut there. A crowd of many copies names the sender.
type Crowd struct {
	// Count is the size of the group; 0 when no schedule was cut.
	Count int
	// Type is the messages' Go type, as %T prints it.
	Type     string
	From, To model.ID
	// Pending is how many events were pending in all, at that schedule's end.
	Pending int
}

// String describes the crowd: "12 shardkv.Rep from n0 to n2 (of 14 pending)".
func (c Crowd) String() string {
	return fmt.Sprintf("%d %s from %v to %v (of %d pending)", c.Count, c.Type, c.From, c.To, c.Pending)
}

// Repeat is the step taken most often on a schedule the depth budget cut, under state
// caching: the firings of one actor's timer, or the deliveries of one type of message
// from one sender to one receiver. With caching a path ends where it meets a visited
// state, so each of those steps left the system in a state not seen before: when they
// are most of a long path, something the step changes grows without bound (a counter
// bumped on every firing of a timer that re-arms itself), the state space is infinite,
// and every search is cut there.
type Repeat struct {
	// Count is how many steps of the schedule were this one; 0 when none was noted.
	Count int
	// Steps is the schedule's length.
	Steps int
	// Timer is the timer's name when the step is a timer's firing; otherwise Type is
	// the message's Go type, as %T prints it.
	Timer, Type string
	From, To    model.ID
}

// String describes the repeat: `n0's timer "beat" fired 30 times in 60 steps`, or
// "n0 → n1 qrep.Ping delivered 20 times in 60 steps".
func (r Repeat) String() string {
	if r.Timer != "" {
		return fmt.Sprintf("%v's timer %q fired %d times in %d steps", r.To, r.Timer, r.Count, r.Steps)
	}
	return fmt.Sprintf("%v → %v %s delivered %d times in %d steps", r.From, r.To, r.Type, r.Count, r.Steps)
}

// noteCut keeps the largest crowd of s's pending messages over the cut schedules, and
// with state caching the step repeated most on a cut schedule (Repeat). It runs only when
// the depth budget cuts a schedule, off the search's hot path; the repeat, which reads
// the whole path, only on the 1st, 2nd, 4th, 8th … cut schedule.
func (e *engine) noteCut(s *state) {
	if e.opts.StateCaching && e.stats.Cut&(e.stats.Cut-1) == 0 {
		e.noteRepeat(len(e.states) - 1)
	}
	type group struct {
		typ      string
		from, to model.ID
	}
	counts := make(map[group]int)
	for _, p := range s.pending {
		if p.ev.Kind != dpor.Message {
			continue
		}
		g := group{fmt.Sprintf("%T", p.ev.Msg), p.ev.From, p.ev.To}
		counts[g]++
		if n := counts[g]; n > e.stats.Crowd.Count {
			e.stats.Crowd = Crowd{Count: n, Type: g.typ, From: g.from, To: g.to, Pending: len(s.pending)}
		}
	}
}

// noteRepeat keeps the step taken most often on the path of depth d, when it is taken
// more often than the one kept.
func (e *engine) noteRepeat(d int) {
	type step struct {
		timer, typ string
		from, to   model.ID
	}
	counts := make(map[step]int)
	for i := 0; i < d; i++ {
		ev := &e.nodes[i].Enabled[e.nodes[i].Taken]
		var k step
		switch ev.Kind {
		case dpor.Timer:
			k = step{timer: ev.Timer, from: ev.From, to: ev.To}
		case dpor.Message:
			k = step{typ: fmt.Sprintf("%T", ev.Msg), from: ev.From, to: ev.To}
		default:
			continue // a request or a fault: bounded by the harness and the budgets
		}
		counts[k]++
		if n := counts[k]; n > e.stats.Repeat.Count {
			e.stats.Repeat = Repeat{Count: n, Steps: d, Timer: k.timer, Type: k.typ, From: k.from, To: k.to}
		}
	}
}
