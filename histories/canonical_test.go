package histories

import (
	"testing"

	"github.com/ravelmc/ravel/model"
)

func inv(c, seq int) Event {
	return Event{Kind: Invoke, Req: model.RequestID{Client: model.ClientID(c), Seq: seq}}
}
func ret(c, seq int, out int) Event {
	return Event{Kind: Return, Req: model.RequestID{Client: model.ClientID(c), Seq: seq}, Output: out, OutputHash: uint64(out)}
}

// TestCanonical checks that histories differing only in the order of events that do not
// change real-time precedence have one canonical form, and that results and precedence
// both tell canonical forms apart.
func TestCanonical(t *testing.T) {
	base := []Event{inv(0, 0), inv(1, 0), ret(0, 0, 1), ret(1, 0, 2)}
	tests := []struct {
		name  string
		other []Event
		same  bool
	}{
		{"identical", []Event{inv(0, 0), inv(1, 0), ret(0, 0, 1), ret(1, 0, 2)}, true},
		{"invocations swapped: still concurrent", []Event{inv(1, 0), inv(0, 0), ret(0, 0, 1), ret(1, 0, 2)}, true},
		{"responses swapped: still concurrent", []Event{inv(0, 0), inv(1, 0), ret(1, 0, 2), ret(0, 0, 1)}, true},
		{"c0 precedes c1", []Event{inv(0, 0), ret(0, 0, 1), inv(1, 0), ret(1, 0, 2)}, false},
		{"another result", []Event{inv(0, 0), inv(1, 0), ret(0, 0, 1), ret(1, 0, 3)}, false},
		{"c1 never answered", []Event{inv(0, 0), inv(1, 0), ret(0, 0, 1)}, false},
		{"c1 never invoked", []Event{inv(0, 0), ret(0, 0, 1)}, false},
	}
	bc := CanonicalOf(base)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oc := CanonicalOf(tt.other)
			if got := bc.Equal(&oc); got != tt.same {
				t.Errorf("Equal = %v, want %v", got, tt.same)
			}
			if tt.same && bc.Hash() != oc.Hash() {
				t.Errorf("equal canonical histories hash differently: %x vs %x", bc.Hash(), oc.Hash())
			}
			if !tt.same && bc.Hash() == oc.Hash() {
				t.Errorf("different canonical histories hash alike: %x", bc.Hash())
			}
		})
	}
}

// TestCanonicalPrecedence checks the precedence matrix against the definition: A
// precedes B when A's response comes before B's invocation.
func TestCanonicalPrecedence(t *testing.T) {
	events := []Event{inv(0, 0), ret(0, 0, 1), inv(1, 0), inv(2, 0), ret(2, 0, 0), inv(0, 1), ret(1, 0, 1)}
	c := CanonicalOf(events)
	// Ops sorted by request: c0.0, c0.1, c1.0, c2.0.
	want := map[[2]int]bool{
		{0, 1}: true, {0, 2}: true, {0, 3}: true, // c0.0 returned at 1, before every other invocation
		{3, 1}: true, // c2.0 returned at 4, before c0.1 at 5
	}
	for i := range c.Ops {
		for j := range c.Ops {
			if got := c.Precedes(i, j); got != want[[2]int{i, j}] {
				t.Errorf("Precedes(%v, %v) = %v, want %v", c.Ops[i].Req, c.Ops[j].Req, got, want[[2]int{i, j}])
			}
		}
	}
	if !c.Ops[1].Open {
		t.Errorf("c0.1 never returned but is not open")
	}
}

func TestChainHashOrder(t *testing.T) {
	a := ChainHash(ChainHash(0, inv(0, 0)), inv(1, 0))
	b := ChainHash(ChainHash(0, inv(1, 0)), inv(0, 0))
	if a == b {
		t.Errorf("chain hash ignores order: %x", a)
	}
}
