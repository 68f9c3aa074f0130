package dpor

import (
	"testing"

	"github.com/ravelmc/ravel/model"
)

// sendsPath is a Path whose last node's events send to the actors sends says, and that
// counts the events it was asked about.
type sendsPath struct {
	nodes []Node
	sends []uint64
	asked int
}

func (p *sendsPath) Nodes() []Node { return p.nodes }
func (p *sendsPath) Next(k int) *StepInfo {
	p.asked++
	return &StepInfo{Event: p.nodes[len(p.nodes)-1].Enabled[k], SendsTo: p.sends[k]}
}

// TestFirstEventIsAQuietActors checks the rule of quietfirst.go: a new state starts with
// the first awake event of the quiet actor (one no enabled event at another actor sends
// to) with fewest enabled events, else with its first awake event.
func TestFirstEventIsAQuietActors(t *testing.T) {
	to := func(actors ...model.ID) []Event {
		evs := make([]Event, len(actors))
		for i, a := range actors {
			evs[i] = Event{ID: uint64(i + 1), Kind: Message, To: a}
		}
		return evs
	}
	bit := func(actors ...int) uint64 {
		var b uint64
		for _, a := range actors {
			b |= 1 << a
		}
		return b
	}
	for _, tc := range []struct {
		name    string
		enabled []Event
		sends   []uint64
		asleep  []int
		explore bool
		want    int
		asks    bool // whether the rule had to look at what events send
	}{
		{"one actor: the first event, nothing run", to(1, 1), []uint64{bit(0), bit(2)}, nil, true, 0, false},
		{"actor 0 is sent to, actor 1 is quiet", to(0, 1), []uint64{0, bit(0)}, nil, true, 1, true},
		{"both quiet: fewest enabled first", to(0, 0, 1), []uint64{0, 0, 0}, nil, true, 2, true},
		{"both quiet, as many: the lower actor", to(1, 0), []uint64{0, 0}, nil, true, 1, true},
		{"a send to oneself does not count", to(0, 0, 1), []uint64{0, 0, bit(1)}, nil, true, 2, true},
		{"none quiet: the first awake", to(0, 1), []uint64{bit(1), bit(0)}, nil, true, 0, true},
		{"the quiet actor's first awake event", to(0, 1, 1), []uint64{bit(2), bit(0), 0}, []int{1}, true, 2, true},
		{"an asleep actor is not chosen", to(0, 1, 1, 2, 2), []uint64{0, 0, 0, 0, 0}, []int{0}, true, 1, true},
		{"every event asleep", to(0, 1), []uint64{0, 0}, []int{0, 1}, true, -1, false},
		{"a state not explored: the first awake, nothing run", to(0, 1), []uint64{0, bit(0)}, nil, false, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := Node{Enabled: tc.enabled}
			for _, e := range tc.asleep {
				n.Sleep.Add(e)
			}
			p := &sendsPath{nodes: []Node{n}, sends: tc.sends}
			s := StatefulDPOR(History()).(*stateful)
			if got := s.firstEvent(p, &p.nodes[0], tc.explore); got != tc.want {
				t.Errorf("first event %d, want %d", got, tc.want)
			}
			if got := p.asked > 0; got != tc.asks {
				t.Errorf("asked what %d events send, want asked %v", p.asked, tc.asks)
			}
			old := StatefulDPOROldestFirst(History()).(*stateful)
			first := -1
			for e := range tc.enabled {
				if !n.Sleep.Has(e) {
					first = e
					break
				}
			}
			if got := old.firstEvent(p, &p.nodes[0], tc.explore); got != first {
				t.Errorf("oldest first: %d, want %d", got, first)
			}
		})
	}
}
