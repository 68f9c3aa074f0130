package paxos

import (
	"fmt"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Harnesses are the map's harnesses, after the DS2 paper (§4.1.2): one client per
// operation, all concurrent, operation k sent to node k mod n (a node other than the
// leader forwards it). Every operation is on key k1: the log orders all keys alike, and
// two writes of one key are where an ordering bug shows.
var Harnesses = map[string][]specs.KVInput{
	"2r1w": {specs.Put("k1", "1"), specs.Get("k1"), specs.Get("k1")},
	"2r2w": {specs.Put("k1", "1"), specs.Get("k1"), specs.Put("k1", "2"), specs.Get("k1")},
}

// HarnessNames lists the harnesses in a fixed order.
var HarnessNames = []string{"2r1w", "2r2w"}

// DefaultRetries is the default number of times a beaten leader prepares again (DS2's
// PX harness left it open: "#Rtry = *"). With n0 the only proposer the harnesses never
// beat it, so the limit does not change their state spaces.
const DefaultRetries = 3

// Harness builds the named harness for n nodes.
func Harness(name string, n int) (*model.Harness, error) {
	ops, err := model.NamedOperations(Harnesses, HarnessNames, name)
	if err != nil {
		return nil, err
	}
	return model.OnePerOperation(specs.KV(), n, ops), nil
}

// New returns the Multi-Paxos map with n nodes (the paper uses 2), n0 the leader, slots
// prepared again up to retries times, and the named harness.
func New(n, retries int, harness string) (model.System, error) {
	return build("paxos", n, retries, harness, false)
}

// NewBuggy returns paxos-buggy: the leader answers a read when its slot is chosen, not
// when it is applied (see the package documentation).
func NewBuggy(n, retries int, harness string) (model.System, error) {
	return build("paxos-buggy", n, retries, harness, true)
}

func build(name string, n, retries int, harness string, buggy bool) (model.System, error) {
	if n < 1 {
		return model.System{}, fmt.Errorf("%s needs at least 1 node, got %d", name, n)
	}
	if retries < 0 {
		return model.System{}, fmt.Errorf("%s: the retry limit must be 0 or more, got %d", name, retries)
	}
	h, err := Harness(harness, n)
	if err != nil {
		return model.System{}, err
	}
	actors := make([]model.Actor, n)
	for i := range actors {
		actors[i] = &Node{Buggy: buggy, Retries: retries, Leader: 0}
	}
	return model.System{Name: name, Actors: actors, Harness: h, Keys: keys()}, nil
}

// keys declares the map's messages for LiViola. A client's request carries its key (the
// specification's partition), but none of the protocol's messages is declared with one:
// every operation, whatever its key, takes a slot of the one log and a ballot of the one
// sequence, a Prepare for one key's slot makes the acceptors refuse another key's
// ballot, and a slot of any key holds back the application — and the answer — of every
// later slot. So no two protocol messages commute because their keys differ, and their
// key is left unknown (they interleave with everything; LiViola then explores what IRed
// does, as the paper's Tables A8–A9 show). Nothing is excluded, because nothing meets
// the paper's three criteria (§4.1.2): every message changes an acceptor's promise or
// votes, or the leader's proposal, and can lead to an answer.
func keys() *model.Keys { return model.NewKeys() }
