package explorer

import (
	"fmt"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/visited"
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

// openVisitedSet opens the visited set of a run; tests replace it to make the disk fail.
var openVisitedSet = openVisited

// openVisited makes the visited set of a run: fingerprints in memory up to
// Options.VisitedMem, then on disk.
func openVisited(opts Options) (visitedSet, error) {
	mem := opts.VisitedMem
	if mem == 0 {
		mem = DefaultVisitedMem
	}
	v, err := visited.Open(visited.Options{MemBytes: mem, Dir: opts.VisitedDir})
	if err != nil {
		return nil, err // its errors name the visited set already
	}
	return diskSet{v}, nil
}

// diskSet adapts visited.Set to the engine.
type diskSet struct{ v *visited.Set }

func (d diskSet) Add(fp uint64) (bool, error) { return d.v.Add(fp) }
func (d diskSet) Close() error                { return d.v.Close() }

// Prefetch takes the state's fingerprint: the engine prefetches only when the cache key
// is always 0.
func (d diskSet) Prefetch(fp uint64) { d.v.Prefetch(visitKey(fp, 0)) }
func (d diskSet) Stats() VisitedStats {
	s := d.v.Stats()
	return VisitedStats{
		Spilled:              int64(s.Spilled),
		DiskReads:            int64(s.DiskReads),
		FilterFalsePositives: int64(s.FilterFalsePositives),
		MemBytes:             s.MemBytes,
		CollisionProbability: s.CollisionProbability(),
	}
}

// cacheable returns the strategy to run with state caching — s itself, or its stateful
// variant (stateful DPOR) — or an error saying why state caching is refused; faulty says
// whether the system has fault events.
func cacheable(s dpor.Strategy, faulty bool) (dpor.Strategy, dpor.StateCacher, error) {
	if c, ok := s.(dpor.Cacheable); ok {
		r, ok := s.(dpor.Revisiter) // stateful already: run as given
		if !ok {
			r = c.Stateful()
		}
		if faulty {
			f, ok := r.(dpor.Faulty)
			if !ok {
				return nil, nil, fmt.Errorf("state caching with the %s strategy does not handle fault events: its stateful variant has no rules for them; turn faults off, use exhaustive or delay-bounded with caching, or turn caching off", s.Name())
			}
			if r, ok = f.WithFaults().(dpor.Revisiter); !ok {
				return nil, nil, fmt.Errorf("state caching with the %s strategy: its variant for fault events is not stateful", s.Name())
			}
		}
		return r, r, nil
	}
	c, ok := s.(dpor.StateCacher)
	if !ok {
		return nil, nil, fmt.Errorf("state caching is not sound with the %s strategy: cutting a path at a visited state also cuts the backtrack points it would have added, and only dpor keeps the graph of visited states that restores them (stateful DPOR, Yang et al. 2008); use dpor, exhaustive or delay-bounded with caching, or turn caching off", s.Name())
	}
	return s, c, nil
}

// Fingerprint implements dpor.StatePath: the fingerprint of the state at the top of the
// path.
func (e *engine) Fingerprint() uint64 { return e.topFingerprint() }

// topFingerprint is the fingerprint of the state on top of the path: kept by push with
// state caching (fps), computed otherwise.
func (e *engine) topFingerprint() uint64 {
	if d := len(e.states) - 1; len(e.fps) == d+1 {
		return e.fps[d]
	}
	return e.states[len(e.states)-1].fingerprint()
}

// visitKey is the visited set's key of a state with fingerprint fp under cache key key.
func visitKey(fp, key uint64) uint64 { return model.Mix64(fp ^ model.Mix64(key+0x51ed27)) }

// visitKeyAt is the visited set's key of the state at depth d of the path: its
// fingerprint under the strategy's cache key for the path up to it, and, for a strategy
// whose choices depend on it (dpor.Needs.SendOrder), the order of each actor's pending
// messages.
func (e *engine) visitKeyAt(d int) uint64 {
	var fp, key uint64
	if d == len(e.states)-1 {
		fp, key = e.topFingerprint(), e.cacher.CacheKey(e)
	} else {
		fp, key = e.fps[d], e.cacher.CacheKey(pathPrefix{e.nodes[:d+1]})
	}
	if e.needs.SendOrder {
		key = model.Mix64(key ^ e.states[d].sendOrder())
	}
	return visitKey(fp, key)
}

// pathPrefix is the path up to one of its states, for a strategy's CacheKey there.
type pathPrefix struct{ nodes []dpor.Node }

func (p pathPrefix) Nodes() []dpor.Node { return p.nodes }

// Next is not asked of a prefix: CacheKey looks only at the nodes.
func (p pathPrefix) Next(int) *dpor.StepInfo { return nil }

// prefetcher is a visited set that can start fetching the memory that adding a state
// will read, given the state's fingerprint (visited.Set.Prefetch).
type prefetcher interface{ Prefetch(fp uint64) }

// visitHook, when set (by tests), sees every state the search visits with caching.
var visitHook func(*engine, *state)

// visit records the state at the top of the path in the visited set and reports whether
// it is new.
func (e *engine) visit() (bool, error) {
	s := e.states[len(e.states)-1]
	if visitHook != nil {
		visitHook(e, s)
	}
	// A strategy that keeps the visited states looked this one up in its Arrive: its set
	// takes no fingerprint, and computing one would be a second per state.
	k, keeper := e.visited.(keeperSet)
	var fp uint64
	switch {
	case e.early != nil:
		fp = visitKey(e.earlyFP, 0)
	case !keeper:
		fp = e.visitKeyAt(len(e.states) - 1)
	}
	isNew, err := e.visited.Add(fp)
	if err != nil {
		return false, fmt.Errorf("visited set: %w", err)
	}
	switch {
	case isNew && keeper && k.k.ExploredAgain():
		e.stats.ExploredAgain++
	case isNew:
		e.stats.States++
	default:
		e.stats.Revisits++
	}
	return isNew, nil
}
