package dpor

import (
	"testing"

	"github.com/ravelmc/ravel/model"
)

// TestOrderTakesTheLoudestFirst checks Order (quietfirst.go): of a node's backtrack
// events neither done nor asleep, the one whose step sends to the most actors, the first
// among equals, by what firstEvent found they send, running no step; the smallest index
// when firstEvent did not look, and in the engine's order (StatefulDPORInEnginesOrder).
func TestOrderTakesTheLoudestFirst(t *testing.T) {
	bit := actorBits
	for _, tc := range []struct {
		name          string
		sends         []uint64
		backtrack     []int
		done, asleep  []int
		want, engines int
		ok, looked    bool // looked: firstEvent found what the events send
	}{
		{"nothing left", []uint64{0, bit(1)}, []int{0}, []int{0}, nil, -1, -1, false, true},
		{"one left", []uint64{0, bit(1, 2), 0}, []int{0, 2}, []int{0}, nil, 2, 2, true, true},
		{"the loudest", []uint64{0, bit(1), bit(0, 1)}, []int{1, 2}, nil, nil, 2, 1, true, true},
		{"as loud: the first", []uint64{bit(2), bit(1), bit(0)}, []int{0, 1, 2}, nil, nil, 0, 0, true, true},
		{"done and asleep events are passed by", []uint64{bit(0, 1, 2), bit(0), bit(0, 1, 2), bit(1), bit(0, 2)}, []int{0, 1, 2, 3, 4}, []int{0}, []int{2}, 4, 1, true, true},
		{"an event not to be explored is passed by", []uint64{bit(0), bit(0, 1, 2), bit(1)}, []int{0, 2}, nil, nil, 0, 0, true, true},
		{"not looked at: the first", []uint64{0, bit(1), bit(0, 1)}, []int{1, 2}, nil, nil, 1, 1, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := Node{Enabled: make([]Event, len(tc.sends))}
			for i := range n.Enabled {
				n.Enabled[i] = Event{ID: uint64(i + 1), Kind: Message, To: model.ID(i % 3)}
			}
			for _, e := range tc.backtrack {
				n.Backtrack.Add(e)
			}
			for _, e := range tc.done {
				n.Done.Add(e)
			}
			for _, e := range tc.asleep {
				n.Sleep.Add(e)
			}
			p := &sendsPath{nodes: []Node{n}, sends: tc.sends}
			s := StatefulDPOR(History()).(*stateful)
			if tc.looked {
				s.sendsAt = [][]uint64{tc.sends}
			}
			got, ok := s.Order(p)
			if ok != tc.ok || ok && got != tc.want {
				t.Errorf("Order: %d, %v; want %d, %v", got, ok, tc.want, tc.ok)
			}
			if p.asked > 0 {
				t.Errorf("asked what %d events send", p.asked)
			}
			e := StatefulDPORInEnginesOrder(History()).(*stateful)
			e.sendsAt = [][]uint64{tc.sends}
			got, ok = e.Order(p)
			if ok != tc.ok || ok && got != tc.engines {
				t.Errorf("in the engine's order: %d, %v; want %d, %v", got, ok, tc.engines, tc.ok)
			}
		})
	}
}
