package chord

import (
	"fmt"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Harnesses are Open Chord's harnesses, after the DS2 paper (§4.4, Figure 7): one client
// per operation, all concurrent, operation k sent to node k mod n. With two nodes, n0
// (the ring at the start) takes the write of k1 and one read, the joining n1 the other
// read. 2r2w adds a write of another key, k2, at n1, as in the paper's second harness.
var Harnesses = map[string][]specs.KVInput{
	"2r1w": {specs.Put("k1", "1"), specs.Get("k1"), specs.Get("k1")},
	"2r2w": {specs.Put("k1", "1"), specs.Get("k1"), specs.Get("k1"), specs.Put("k2", "2")},
}

// HarnessNames lists the harnesses in a fixed order.
var HarnessNames = []string{"2r1w", "2r2w"}

// Harness builds the named harness for n nodes.
func Harness(name string, n int) (*model.Harness, error) {
	ops, err := model.NamedOperations(Harnesses, HarnessNames, name)
	if err != nil {
		return nil, err
	}
	return model.OnePerOperation(specs.KV(), n, ops), nil
}

// New returns Open Chord as the paper has it — a node serves requests before its join
// completes — with n nodes (the paper uses 2), n1 … n−1 joining, and the named harness.
func New(n int, harness string) (model.System, error) {
	return build("chord", n, harness, false)
}

// NewFixed returns chord-fixed: a node defers requests until its join completes.
func NewFixed(n int, harness string) (model.System, error) {
	return build("chord-fixed", n, harness, true)
}

func build(name string, n int, harness string, fixed bool) (model.System, error) {
	if n < 1 {
		return model.System{}, fmt.Errorf("%s needs at least 1 node, got %d", name, n)
	}
	seen := make(map[int]int, n)
	for k := range n {
		p := NodePosition(k)
		if j, ok := seen[p]; ok {
			return model.System{}, fmt.Errorf("%s: nodes n%d and n%d hash to the same ring position %d; use fewer nodes", name, j, k, p)
		}
		seen[p] = k
	}
	h, err := Harness(harness, n)
	if err != nil {
		return model.System{}, err
	}
	actors := make([]model.Actor, n)
	for k := range actors {
		p := NodePosition(k)
		// Every node starts as a ring of one; n0 is that ring, the others still have to join.
		actors[k] = &Node{Fixed: fixed, Pos: p, Succ: model.ID(k), Pred: model.ID(k), SuccPos: p, PredPos: p, Joined: k == 0}
	}
	return model.System{Name: name, Actors: actors, Harness: h, Keys: keys()}, nil
}

// keys declares Open Chord's messages for LiViola, as the paper's harness does: the
// messages that carry one client operation act on its key; the join messages
// (FindSuccessor, Notify, SuccessorFound, UpdatePredecessor) move the ownership of whole
// arcs and release deferred requests of any key, so their key is unknown and they
// interleave with everything. Nothing is excluded, because nothing meets the paper's
// three criteria (§4.1.2): every join message changes the receiver's ring pointers or
// store, UploadEntry changes a store, Request makes the owner send a Response, and a
// Response answers a client.
func keys() *model.Keys {
	k := model.NewKeys()
	model.Key(k, func(m UploadEntry) string { return m.Key })
	model.Key(k, func(m Request) string { return m.Key })
	model.Key(k, func(m Response) string { return m.Key })
	return k
}
