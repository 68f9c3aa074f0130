package register

import (
	"fmt"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Harnesses are the register's harnesses, as in the DS2 paper (§4.1.2): one client per
// operation, all clients concurrent, operation k sent to agent k mod n.
var Harnesses = map[string][]specs.RegisterInput{
	"2r1w": {specs.Write(1), specs.Read(), specs.Read()},
	"2r2w": {specs.Write(1), specs.Read(), specs.Write(2), specs.Read()},
	// 1r1w is the smallest harness that shows a lost write (register-volatile's first).
	"1r1w": {specs.Write(1), specs.Read()},
}

// VolatileHarnessNames are register-volatile's harnesses, the default first.
var VolatileHarnessNames = []string{"1r1w", "2r1w", "2r2w"}

// HarnessNames lists the harnesses in a fixed order, the default first (1r1w last: the
// paper's are 2r1w and 2r2w).
var HarnessNames = []string{"2r1w", "2r2w", "1r1w"}

// Harness builds the named harness for a register of n agents.
func Harness(name string, n int) (*model.Harness, error) {
	ops, err := model.NamedOperations(Harnesses, HarnessNames, name)
	if err != nil {
		return nil, err
	}
	return model.OnePerOperation(specs.Register(), n, ops), nil
}

// New returns the correct register with n agents (the paper uses 2) and the named harness.
func New(n int, harness string) (model.System, error) {
	return build("register", n, harness, Variant{})
}

// NewBuggy returns the erroneous register with n agents (the paper uses 3) and the named
// harness.
func NewBuggy(n int, harness string) (model.System, error) {
	return build("register-buggy", n, harness, Variant{LocalReads: true, AckAfterFirst: true, IgnoreVersions: true})
}

// NewVolatile returns the correct register whose agents keep their copy only in memory
// (Variant.Volatile): linearizable as long as nothing crashes, but a crash and restart of
// one of the agents that acknowledged a write loses it, and with 3 agents a later read can
// find a majority for the old value. Its correct twin is New, whose copies are durable.
func NewVolatile(n int, harness string) (model.System, error) {
	return build("register-volatile", n, harness, Variant{Volatile: true})
}

// NewIdempotent returns the correct register whose leader counts each agent's ack and
// reply once (Variant.Idempotent): the twin of New under duplication, which New with 3
// agents does not survive. A client's retry (--timeouts) is a duplicate too: it brings
// the same request to the leader again, and New with 3 agents counts the second round of
// replies with the first; NewIdempotent survives that as well.
func NewIdempotent(n int, harness string) (model.System, error) {
	// Its sets of agents (Write.From, Read.From) are 64 bits wide, more than the
	// explorer.MaxActors (48) any system may have, which Ravel refuses first; so it takes
	// the same agents as the others (TestIdempotentSetsHoldEveryAgent).
	return build("register-idempotent", n, harness, Variant{Idempotent: true})
}

func build(name string, n int, harness string, f Variant) (model.System, error) {
	if n < 1 {
		return model.System{}, fmt.Errorf("%s needs at least 1 agent, got %d", name, n)
	}
	h, err := Harness(harness, n)
	if err != nil {
		return model.System{}, err
	}
	actors := make([]model.Actor, n)
	for i := range actors {
		actors[i] = &Replica{Variant: f, Leader: 0}
	}
	return model.System{Name: name, Actors: actors, Harness: h, Keys: keys()}, nil
}

// keys declares the register's messages for LiViola as DS2's harness does: a register is
// a map with one key, so every message acts on it, and nothing is excluded (DS2 §4.1.2:
// no message of the register meets the exclusion criteria).
func keys() *model.Keys {
	k := model.NewKeys()
	model.Key(k, func(WriteReplica) string { return "reg" })
	model.Key(k, func(WriteReplicaAck) string { return "reg" })
	model.Key(k, func(ReadReplica) string { return "reg" })
	model.Key(k, func(ReadReplicaAck) string { return "reg" })
	return k
}
