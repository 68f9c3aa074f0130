package dpor_test

import (
	"github.com/ravelmc/ravel/internal/randsys"
	"github.com/ravelmc/ravel/model"
)

// randomSystem is the random protocol of seed (internal/randsys).
func randomSystem(seed uint64) model.System { return randsys.New(seed) }

// randomCyclicSystem is the random protocol of seed with cycles (internal/randsys).
func randomCyclicSystem(seed uint64) model.System { return randsys.NewCyclic(seed) }

// node is an actor of a random protocol.
type node = randsys.Node
