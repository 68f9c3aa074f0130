package explorer

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
)

// TestEnabledFIFO: on a FIFO network, a message is enabled exactly when no earlier
// non-timer message shares its channel — checked against that definition, directly, on
// random pending lists long enough for enabled's set of channels to take over.
func TestEnabledFIFO(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 0))
	x := &executor{fifo: true}
	for trial := range 300 {
		n := r.IntN(80)
		s := &state{}
		for range n {
			kind := dpor.Message
			if r.IntN(5) == 0 {
				kind = dpor.Timer
			}
			s.pending = append(s.pending, &pending{ev: dpor.Event{Kind: kind, From: model.ID(r.IntN(4)), To: model.ID(r.IntN(4))}})
		}
		var want []int
		for i, p := range s.pending {
			blocked := false
			for _, q := range s.pending[:i] {
				if p.ev.Kind != dpor.Timer && q.ev.Kind != dpor.Timer && q.ev.From == p.ev.From && q.ev.To == p.ev.To {
					blocked = true
				}
			}
			if !blocked {
				want = append(want, i)
			}
		}
		_, got := x.enabled(s, nil, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d, %d pending: enabled %v, want %v", trial, n, got, want)
		}
	}
}
