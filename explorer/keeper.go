package explorer

import (
	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/visited"
)

// openVisitedFor opens the visited set of a run with strategy s. Stateful DPOR keeps
// every visited state in its graph already, looked up by fingerprint each time the search
// reaches one (dpor.StateKeeper): the engine asks it rather than keep a second set of the
// same fingerprints, which cost a tenth of the search. Its record is in memory: the
// visited set's memory budget and spill directory do not apply.
func openVisitedFor(opts Options, s dpor.Strategy) (visitedSet, error) {
	if k, ok := s.(dpor.StateKeeper); ok {
		return keeperSet{k}, nil
	}
	return openVisitedSet(opts)
}

// keeperSet is the visited set a dpor.StateKeeper keeps: Add, called right after the
// strategy's Arrive, reports what the strategy found.
type keeperSet struct{ k dpor.StateKeeper }

// Add ignores the fingerprint: the strategy looked the state up by StatePath's.
func (s keeperSet) Add(uint64) (bool, error) { return !s.k.SeenBefore(), nil }
func (s keeperSet) Close() error             { return nil }

func (s keeperSet) Stats() VisitedStats {
	n, bytes := s.k.Recorded()
	return VisitedStats{MemBytes: bytes, CollisionProbability: visited.Stats{States: uint64(n)}.CollisionProbability()}
}
