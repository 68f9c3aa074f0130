package dpor

import (
	"bytes"
	"testing"

	"github.com/ravelmc/ravel/model"
)

// TestGraphStatesAcrossSlabs: a graph with more states than its chunks from the Go heap
// and two slabs hold (addChunk), so that a third is begun, keeps each state apart — what
// is written to one is read back from it alone, by index and by fingerprint — and its
// saved state restores every one, with an open part (openState) for each state not
// summarized and none for the others.
func TestGraphStatesAcrossSlabs(t *testing.T) {
	defer func(h int) { heapChunks = h }(heapChunks)
	heapChunks = 3 // not the million states of a search: the test would take seconds
	n := int32(heapChunks*stateChunk + 2*slabChunks*stateChunk + 5)
	fp := func(k int32) uint64 { return model.Mix64(uint64(k)) | 1 }
	s := StatefulDPOR(History()).(*stateful)
	g := s.g
	for k := range n {
		got, seen := g.state(fp(k))
		if got != k || seen {
			t.Fatalf("state(fp(%d)) = %d, %v; want %d, false", k, got, seen, k)
		}
		st := g.st(k)
		st.sw, st.slp = fp(k), uint64(k)&0xff
		if k%2 == 0 {
			o := g.opening(st)
			o.depth, o.idx, o.low = k, k, -k
		} else {
			st.sum = sumInline
		}
	}
	if got := len(g.slabs); got != 3 {
		t.Fatalf("%d slabs for %d states, want 3", got, n)
	}
	saved := s.SaveState(nil)
	fresh := StatefulDPOR(History()).(*stateful)
	if err := fresh.RestoreState(saved, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		g    *Graph
	}{{"written", g}, {"restored", fresh.g}} {
		t.Run(tc.name, func(t *testing.T) {
			for k := range n {
				st := tc.g.st(k)
				o := tc.g.op(st)
				want := openState{first: -1, depth: k, idx: k, low: -k}
				if k%2 == 1 {
					want = closed
				}
				if o != want || st.sw != fp(k) || st.slp != uint64(k)&0xff {
					t.Fatalf("state %d reads %+v, sw %#x, slp %#x; want %+v, %#x, %#x", k, o, st.sw, st.slp, want, fp(k), uint64(k)&0xff)
				}
				if got, seen := tc.g.state(fp(k)); got != k || !seen {
					t.Fatalf("state(fp(%d)) = %d, %v; want %d, true", k, got, seen, k)
				}
			}
		})
	}
	if got, want := len(fresh.g.opens), int(n+1)/2; got != want {
		t.Errorf("restored %d open parts, want %d: one for each state not summarized", got, want)
	}
	if again := fresh.SaveState(nil); !bytes.Equal(again, saved) {
		t.Fatalf("saved %d bytes, restored and saved again %d, not the same", len(saved), len(again))
	}
}
