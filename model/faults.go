package model

import "fmt"

// Faults are the failures the explorer may inject into a schedule, each bounded by a
// budget per schedule (docs/faults.md). Every fault is an event of the search,
// chosen like the delivery of a message: the explorer tries it wherever its budget allows,
// and a reduction treats it with a dependence of its own. The zero value injects nothing,
// so that a system without faults explores exactly as it would without this field.
type Faults struct {
	// Drop is the number of pending messages a schedule may lose. Only messages between
	// actors are lost: a client's request and a timer are not (the client links have no
	// latency, and a timer is local).
	Drop int
	// Duplicate is the number of deliveries that leave a copy of their message pending,
	// to be delivered again later (or lost). Messages between actors only, as for Drop.
	Duplicate int
	// Partition is the number of partition events a schedule may have. A partition splits
	// the actors into two sides — each of the nonempty splits, or one of Sides — until a
	// heal; a partition cannot start while another holds. Messages between the sides are
	// lost, unless Hold is set.
	Partition int
	// Sides, when set, lists the splits a partition may make: each entry is one side, the
	// actors not in it the other. Empty means every split into two nonempty sides.
	Sides [][]ID
	// Hold makes a partition hold the messages across its cut until the heal instead of
	// losing them: they stay pending but cannot be delivered, dropped or duplicated.
	Hold bool
	// Crash is the number of crashes a schedule may have. A crashed actor receives
	// nothing, its timers are disarmed, and messages to it (requests included) are lost,
	// both those pending when it crashes and those sent to it while it is down. It comes
	// back only if it is a Restarter and CrashStop is not set.
	Crash int
	// CrashStop ignores actors' Restart methods: a crashed actor stays down.
	CrashStop bool
}

// Restarter is an actor that can come back after a crash. Restart returns the actor as it
// restarts: built only from what the actor keeps on durable storage — what a real process
// would find on its disk — with everything held only in memory back at its initial value.
// It is called on the crashed actor's last state, must not modify it, and must return a
// value sharing no mutable memory with it. If the restarted actor is a Starter, its Start
// runs as part of the restart (to re-arm timers, announce itself, …).
//
// An actor without a Restart method is crash-stop: once crashed, it stays down.
type Restarter interface {
	Restart() Actor
}

// Any reports whether any fault is allowed at all.
func (f *Faults) Any() bool {
	return f.Drop > 0 || f.Duplicate > 0 || f.Partition > 0 || f.Crash > 0
}

// MaxFaultActors is the number of actors above which crashes and partitions are refused:
// the explorer keeps the crashed set and a partition's side as bit sets of one word.
const MaxFaultActors = 64

// MaxSplitActors is the number of actors above which a partition needs Faults.Sides: every
// split of n actors is 2^(n−1) − 1 partition events in every state.
const MaxSplitActors = 12

func (f *Faults) validate(actors int) error {
	for _, b := range []struct {
		name string
		n    int
	}{{"drop", f.Drop}, {"duplicate", f.Duplicate}, {"partition", f.Partition}, {"crash", f.Crash}} {
		if b.n < 0 {
			return fmt.Errorf("model: the %s budget must be 0 or more, got %d", b.name, b.n)
		}
	}
	if (f.Partition > 0 || f.Crash > 0) && actors > MaxFaultActors {
		return fmt.Errorf("model: partitions and crashes need at most %d actors, the system has %d", MaxFaultActors, actors)
	}
	// Checked before the sides: with one actor no side is valid, and the sides' message
	// ("between 1 and 0 actors") would not say why.
	if (f.Partition > 0 || len(f.Sides) > 0) && actors < 2 {
		return fmt.Errorf("model: a partition needs at least 2 actors; this system has %d", actors)
	}
	if f.Partition > 0 && len(f.Sides) == 0 {
		if actors > MaxSplitActors {
			return fmt.Errorf("model: a partition of %d actors into every split would be %d events a state: give Faults.Sides (at most %d actors without)", actors, uint64(1)<<uint(actors-1)-1, MaxSplitActors)
		}
	}
	for i, side := range f.Sides {
		if len(side) == 0 || len(side) >= actors {
			if actors == 2 {
				return fmt.Errorf("model: partition side %d must name exactly 1 of the 2 actors, it names %d", i, len(side))
			}
			return fmt.Errorf("model: partition side %d must name between 1 and %d actors, it names %d", i, actors-1, len(side))
		}
		seen := map[ID]bool{}
		for _, a := range side {
			if a < 0 || int(a) >= actors {
				return fmt.Errorf("model: partition side %d names actor %d, but the system has actors 0…%d", i, a, actors-1)
			}
			if seen[a] {
				return fmt.Errorf("model: partition side %d names actor %d twice", i, a)
			}
			seen[a] = true
		}
	}
	return nil
}
