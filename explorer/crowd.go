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

// noteCut keeps the largest crowd of s's pending messages over the cut schedules. It runs
// only when the depth budget cuts a schedule, off the search's hot path.
func (e *engine) noteCut(s *state) {
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
