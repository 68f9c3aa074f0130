package adr

import (
	"fmt"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Harnesses are the register's harnesses, as in the DS2 paper (§4.1.2): one client per
// operation, all clients concurrent, operation k sent to agent k mod n — with two agents,
// the write's coordinator n0 also serves a read, and n1 serves the other.
var Harnesses = map[string][]specs.RegisterInput{
	"2r1w": {specs.Write(1), specs.Read(), specs.Read()},
	"2r2w": {specs.Write(1), specs.Read(), specs.Write(2), specs.Read()},
}

// HarnessNames lists the harnesses in a fixed order.
var HarnessNames = []string{"2r1w", "2r2w"}

// DefaultRetries is the retry limit of DS2's ADR harness (#Rtry = 3 in Tables A6–A7).
const DefaultRetries = 3

// Harness builds the named harness for n agents.
func Harness(name string, n int) (*model.Harness, error) {
	ops, err := model.NamedOperations(Harnesses, HarnessNames, name)
	if err != nil {
		return nil, err
	}
	return model.OnePerOperation(specs.Register(), n, ops), nil
}

// New returns the correct register with n agents (the paper uses 2), reads retrying up
// to retries times, and the named harness.
func New(n, retries int, harness string) (model.System, error) {
	return build("adr", n, retries, harness, false)
}

// NewBuggy returns adr-buggy: coordinators answer a disagreeing read with their own copy
// (see the package documentation).
func NewBuggy(n, retries int, harness string) (model.System, error) {
	return build("adr-buggy", n, retries, harness, true)
}

func build(name string, n, retries int, harness string, buggy bool) (model.System, error) {
	if n < 1 {
		return model.System{}, fmt.Errorf("%s needs at least 1 agent, got %d", name, n)
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
		actors[i] = &Agent{Buggy: buggy, Retries: retries}
	}
	return model.System{Name: name, Actors: actors, Harness: h, Keys: keys()}, nil
}

// keys declares the register's messages for LiViola as DS2's harnesses do: a register is
// a map with one key, so every message acts on it. Nothing is excluded, because nothing
// meets the paper's three criteria (§4.1.2): Replicate changes the receiver's copy,
// ReplicateAck and QueryReply change the coordinator's state and can answer a client,
// and Query makes the receiver send a QueryReply, which does.
func keys() *model.Keys {
	k := model.NewKeys()
	model.Key(k, func(Replicate) string { return "reg" })
	model.Key(k, func(ReplicateAck) string { return "reg" })
	model.Key(k, func(Query) string { return "reg" })
	model.Key(k, func(QueryReply) string { return "reg" })
	return k
}
