package explorer

import (
	"fmt"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
)

// VisitedStats are the visited set's figures.
type VisitedStats struct {
	Spilled              int64   // fingerprints kept on disk
	DiskReads            int64   // lookups that read the disk
	FilterFalsePositives int64   // disk reads the filter could have spared
	MemBytes             int64   // memory the set uses
	CollisionProbability float64 // the estimated chance that two states share a fingerprint
}

// visitedSet is what the engine needs of a set of fingerprints.
type visitedSet interface {
	// Add inserts fp and reports whether it was not there yet.
	Add(fp uint64) (bool, error)
	Stats() VisitedStats
	Close() error
}

// openVisited makes the visited set of a run.
var openVisited = func(opts Options) (visitedSet, error) {
	return newMapSet(), nil
}

// mapSet is a visited set in a Go map, without a memory bound.
type mapSet struct{ m map[uint64]struct{} }

func newMapSet() *mapSet { return &mapSet{m: make(map[uint64]struct{})} }

func (s *mapSet) Add(fp uint64) (bool, error) {
	if _, ok := s.m[fp]; ok {
		return false, nil
	}
	s.m[fp] = struct{}{}
	return true, nil
}

func (s *mapSet) Stats() VisitedStats {
	n := float64(len(s.m))
	return VisitedStats{CollisionProbability: n * n / (1 << 65)}
}

func (s *mapSet) Close() error { return nil }

// cacheable returns the strategy as a StateCacher, or an error saying why state caching
// is refused.
func cacheable(s dpor.Strategy) (dpor.StateCacher, error) {
	c, ok := s.(dpor.StateCacher)
	if !ok {
		return nil, fmt.Errorf("state caching is not sound with the %s strategy: cutting a path at a visited state also cuts the backtrack points it would have added (see stateful DPOR, Yang et al. 2008); use exhaustive or delay-bounded with caching, or turn caching off", s.Name())
	}
	return c, nil
}

// visit records the state at the top of the path in the visited set and reports whether
// it is new.
func (e *engine) visit() (bool, error) {
	s := e.states[len(e.states)-1]
	fp := model.Mix64(s.fingerprint() ^ model.Mix64(e.cacher.CacheKey(e)+0x51ed27))
	isNew, err := e.visited.Add(fp)
	if err != nil {
		return false, fmt.Errorf("visited set: %w", err)
	}
	if isNew {
		e.stats.States++
	} else {
		e.stats.Revisits++
	}
	return isNew, nil
}
