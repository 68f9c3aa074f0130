package live

import (
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/samplers"
)

// seqChooser draws from a fixed sequence (each value taken modulo k), for exhaustive
// enumeration of a sampler's choices.
type seqChooser struct {
	draws []int
	i     int
	k     []int // the bounds asked, in order
}

func (c *seqChooser) IntN(k int) int {
	c.k = append(c.k, k)
	if k == 1 {
		return 0
	}
	v := 0
	if c.i < len(c.draws) {
		v = c.draws[c.i] % k
	}
	c.i++
	return v
}

func (c *seqChooser) Uint64() uint64 { return 0 }

// enumerate calls f with every draw sequence of a sampler run whose draws have the given
// bounds, each with its probability.
func enumerate(bounds []int, f func(draws []int, p float64)) {
	draws := make([]int, len(bounds))
	var rec func(i int, p float64)
	rec = func(i int, p float64) {
		if i == len(bounds) {
			f(slices.Clone(draws), p)
			return
		}
		for v := range bounds[i] {
			draws[i] = v
			rec(i+1, p/float64(bounds[i]))
		}
	}
	rec(0, 1)
}

// order runs sampler s over three messages all enabled from the start, delivering until
// none is left, and returns the delivery order.
func order(s Sampler, c Chooser) []MsgID {
	s.Begin(0, c)
	enabled := []MsgID{0, 1, 2}
	for _, id := range enabled {
		s.Created(EventInfo{ID: id})
	}
	var out []MsgID
	for len(enabled) > 0 {
		id := s.Next(enabled)
		out = append(out, id)
		enabled = slices.DeleteFunc(enabled, func(x MsgID) bool { return x == id })
		s.Delivered(id, nil)
	}
	return out
}

// TestRandomWalkUniformOrders checks, by enumerating every draw, that the random walk
// gives each of the 3! delivery orders probability 1/6 when every message is enabled
// from the start (the closed form).
func TestRandomWalkUniformOrders(t *testing.T) {
	bounds := []int{3, 2}
	probs := map[string]float64{}
	enumerate(bounds, func(draws []int, p float64) {
		ch := &seqChooser{draws: draws}
		s, err := NewSampler("random", 3, 3)
		if err != nil {
			t.Fatal(err)
		}
		probs[fmtOrder(order(s, ch))] += p
		var asked []int
		for _, k := range ch.k {
			if k > 1 {
				asked = append(asked, k)
			}
		}
		if !slices.Equal(asked, bounds) {
			t.Fatalf("draws asked with bounds %v, want %v", asked, bounds)
		}
	})
	if len(probs) != 6 {
		t.Fatalf("%d orders reached, want 6: %v", len(probs), probs)
	}
	for o, p := range probs {
		if p < 1.0/6-1e-9 || p > 1.0/6+1e-9 {
			t.Errorf("P(%s) = %v, want 1/6", o, p)
		}
	}
}

func fmtOrder(o []MsgID) string {
	b := make([]byte, len(o))
	for i, id := range o {
		b[i] = byte('0' + id)
	}
	return string(b)
}

// tree is a fixed causal structure for the adapter oracle: roots 0, 1, 2 at nodes 0, 1,
// 1; delivering 0 sends 3 to node 1 and 4 to node 2; delivering 3 sends 5 to node 0;
// delivering 1 sends 6 to node 2.
var tree = struct {
	to       []int
	children map[int][]int
}{to: []int{0, 1, 1, 1, 2, 0, 2}, children: map[int][]int{0: {3, 4}, 3: {5}, 1: {6}}}

// treeWorld is tree as a samplers.World.
type treeWorld struct{ enabled []uint64 }

func (w *treeWorld) Enabled() []uint64 { return w.enabled }

func (w *treeWorld) Deliver(id uint64) ([]samplers.Event, bool) {
	w.enabled = slices.DeleteFunc(w.enabled, func(x uint64) bool { return x == id })
	var out []samplers.Event
	for _, c := range tree.children[int(id)] {
		w.enabled = append(w.enabled, uint64(c))
		out = append(out, samplers.Event{ID: uint64(c), To: model.ID(tree.to[c]), After: []uint64{id}, Racy: true})
	}
	return out, true
}

// TestAdapterMatchesDrive is the adapter's oracle: over the same events, the live
// runner's calls (Created as messages are intercepted, Next, Delivered) make every
// sampler deliver exactly what samplers.Drive, the model checker's loop, delivers with
// the same seed.
func TestAdapterMatchesDrive(t *testing.T) {
	for _, name := range samplers.Names() {
		t.Run(name, func(t *testing.T) {
			for seed := range uint64(40) {
				cfg, err := samplers.New(name, samplers.Options{Depth: 2, Events: 7, RacyEvents: 7})
				if err != nil {
					t.Fatal(err)
				}
				w := &treeWorld{enabled: []uint64{0, 1, 2}}
				var want []uint64
				initial := []samplers.Event{{ID: 0, To: 0, Racy: true}, {ID: 1, To: 1, Racy: true}, {ID: 2, To: 1, Racy: true}}
				rec := &recorder{World: w, out: &want}
				samplers.Drive(rec, cfg.Sampler(7), 0, samplers.NewRand(seed, 0), initial, 100)

				s, err := NewSampler(name, 2, 7)
				if err != nil {
					t.Fatal(err)
				}
				s.Begin(0, NewChooser(seed, 0))
				enabled := []MsgID{0, 1, 2}
				for _, id := range enabled {
					s.Created(EventInfo{ID: id, To: tree.to[id]})
				}
				var got []uint64
				for len(enabled) > 0 {
					id := s.Next(enabled)
					got = append(got, uint64(id))
					enabled = slices.DeleteFunc(enabled, func(x MsgID) bool { return x == id })
					s.Delivered(id, nil)
					for _, c := range tree.children[int(id)] {
						enabled = append(enabled, MsgID(c))
						s.Created(EventInfo{ID: MsgID(c), To: tree.to[c], After: []MsgID{id}})
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d: live order %v, samplers.Drive order %v", seed, got, want)
				}
			}
		})
	}
}

// recorder records the deliveries of a World.
type recorder struct {
	samplers.World
	out *[]uint64
}

func (r *recorder) Deliver(id uint64) ([]samplers.Event, bool) {
	*r.out = append(*r.out, id)
	return r.World.Deliver(id)
}

// TestNewSamplerNames: every sampler of package samplers is a live scheduler; an unknown
// name is refused with the valid ones.
func TestNewSamplerNames(t *testing.T) {
	for _, name := range append(samplers.Names(), "") {
		if _, err := NewSampler(name, 3, 10); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	if _, err := NewSampler("fifo", 3, 10); err == nil || !strings.Contains(err.Error(), "tapct") {
		t.Errorf("fifo: err %v, want the valid names", err)
	}
	if _, err := NewSampler("pct", 3, 0); err == nil {
		t.Error("pct with 0 events accepted")
	}
}
