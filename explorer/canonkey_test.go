package explorer

import (
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// TestCanonicalKeyIsTheCanonicalForm checks the canonical key against histories.Canonical
// by brute force: over every prefix of every history of a few clients (each client's
// operations in turn, every output from two), two prefixes have the same key exactly when
// they have the same canonical form.
func TestCanonicalKeyIsTheCanonicalForm(t *testing.T) {
	for _, ops := range [][]int{{1, 1, 1}, {2, 1, 1}, {2, 2}, {3, 1}} {
		byKey := map[uint64]histories.Canonical{}
		byForm := map[uint64]uint64{} // canonical hash → key
		var events []histories.Event
		s := &state{clients: make([]client, len(ops))}
		prefixes := 0
		var walk func()
		walk = func() {
			prefixes++
			form := histories.CanonicalOf(events)
			if c, ok := byKey[s.hist]; ok && !c.Equal(&form) {
				t.Fatalf("ops %v: one key for two canonical forms:\n%+v\n%+v", ops, c.Ops, form.Ops)
			} else if !ok {
				byKey[s.hist] = form.Clone()
			}
			if k, ok := byForm[form.Hash()]; ok && k != s.hist {
				t.Fatalf("ops %v: two keys for one canonical form %+v", ops, form.Ops)
			}
			byForm[form.Hash()] = s.hist
			for c := range ops {
				cl := s.clients[c]
				if cl.answered == int32(ops[c]) {
					continue
				}
				req := model.RequestID{Client: model.ClientID(c), Seq: int(cl.answered)}
				saved, savedClients := *s, append([]client(nil), s.clients...)
				if cl.invoked == cl.answered {
					s.clients[c].invoked++
					e := histories.Event{Kind: histories.Invoke, Req: req}
					events = append(events, e)
					s.recordCanon(e)
					walk()
					events = events[:len(events)-1]
					*s = saved
					s.clients = savedClients
					continue
				}
				for out := range 2 {
					s.clients = append([]client(nil), savedClients...)
					s.clients[c].answered++
					e := histories.Event{Kind: histories.Return, Req: req, Output: out, OutputHash: uint64(out) + 7}
					events = append(events, e)
					s.recordCanon(e)
					walk()
					events = events[:len(events)-1]
					*s = saved
					s.clients = savedClients
				}
			}
		}
		walk()
		if len(byKey) != len(byForm) {
			t.Errorf("ops %v: %d keys for %d canonical forms", ops, len(byKey), len(byForm))
		}
		if len(byKey) >= prefixes {
			t.Errorf("ops %v: %d keys for %d prefixes: no two prefixes share a canonical form", ops, len(byKey), prefixes)
		}
		t.Logf("ops %v: %d prefixes, %d canonical forms", ops, prefixes, len(byKey))
	}
}
