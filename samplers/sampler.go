// Package samplers holds the randomized schedulers of the seed papers — random walk,
// RAPOS, POS, PCTCP (alias pct), taPCT and d-POS — over a small view of events with their
// causality (docs/samplers.md). It knows nothing of the depth-first engine: the explorer drives
// a Sampler over a model's states, and a live runner can drive the same Sampler over real
// processes, so a fault or any other schedulable event is just one more Event.
package samplers

import (
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/model"
)

// Event is a sampler's view of one schedulable event: the delivery of a message or the
// firing of a timer (or, later, a fault).
type Event struct {
	// ID is the event's identity, stable across runs (docs/design-notes.md, Message identity).
	ID uint64
	// To is the receiver: the "actor" dependence relates events with the same receiver.
	To model.ID
	// Request marks a client's request, whose delivery records an invocation.
	Request bool
	// Key, KeyKnown and Excluded are the event's key, for the "key" dependence.
	Key      string
	KeyKnown bool
	Excluded bool
	// After lists the events this one is directly causally after (docs/samplers.md):
	// the event whose delivery created it — none for events created at the
	// start of a run — and, on a FIFO network, the previous message of its channel. Each
	// must have been Created before. The sampler copies what it keeps.
	After []uint64
	// Racy marks an event of R, the racy set: taPCT and d-POS give labels only to those.
	Racy bool
}

// Sampler chooses the schedule of one run at a time. An engine calls Begin, then Created
// for every event that exists at the start (in harness order), then repeatedly Next with
// the enabled events, Delivered for the one it delivered, and Created for every event that
// delivery created, in creation order.
type Sampler interface {
	// Begin starts run number run, whose only randomness is c.
	Begin(run int, c Chooser)
	// Created tells the sampler of a new event.
	Created(e *Event)
	// Next picks the event to deliver among enabled (not empty), which lists identities in
	// ascending creation order.
	Next(enabled []uint64) uint64
	// Delivered tells the sampler that id was delivered (before the Created calls of the
	// events its delivery created).
	Delivered(id uint64)
	// Run reports what the sampler observed of the run so far.
	Run() RunStats
}

// RunStats is what a sampler observed during one run.
type RunStats struct {
	Events    int // events created
	Racy      int // events created that are in R
	Chains    int // chains the partition created (m); 0 for samplers without chains
	MaxConc   int // 1 + most distinct events co-enabled with one event of the run
	Fired     int // change points fired
	Labelled  int // events that got labels
	Unlabeled int // racy-set samplers: events created outside R
}

// Dependence relates two events that may not commute.
type Dependence interface {
	Name() string
	Dependent(a, b *Event) bool
}

// DependenceByName returns "actor" (same receiver: the papers' relation), "history"
// (same receiver, or either is a client's request — the invocation order against any
// response is not known before the delivery, so requests are taken as dependent on
// everything) or "key" (same receiver and key, excluded types independent); "" is
// "actor", the default.
func DependenceByName(name string) (Dependence, error) {
	switch name {
	case "", "actor":
		return actorDep{}, nil
	case "history":
		return historyDep{}, nil
	case "key":
		return keyDep{}, nil
	}
	return nil, fmt.Errorf("unknown dependence %q (valid: actor, history, key)", name)
}

type actorDep struct{}

func (actorDep) Name() string               { return "actor" }
func (actorDep) Dependent(a, b *Event) bool { return a.To == b.To }

type historyDep struct{}

func (historyDep) Name() string               { return "history" }
func (historyDep) Dependent(a, b *Event) bool { return a.To == b.To || a.Request || b.Request }

type keyDep struct{}

func (keyDep) Name() string { return "key" }
func (keyDep) Dependent(a, b *Event) bool {
	if a.To != b.To || a.Excluded || b.Excluded {
		return false
	}
	return !a.KeyKnown || !b.KeyKnown || a.Key == b.Key
}

// Partition names an online chain partition (Agarwal and Garg's, as Ozkan et al. 2018, Alg. 2, uses it; docs/samplers.md).
type Partition string

// The partitions.
const (
	AG        Partition = "ag"        // Agarwal–Garg with lazy swaps
	AGPaper   Partition = "ag-paper"  // Ozkan et al. 2018's literal rule, for experiments only
	Singleton Partition = "singleton" // every event its own chain (d-POS)
)

// Options are the samplers' parameters (docs/samplers.md).
type Options struct {
	// Depth is d ≥ 1, the bug depth aimed at (d−1 change points); 0 means 3.
	Depth int
	// Events is n, RacyEvents n̂; 0 means measure them by calibration.
	Events, RacyEvents int
	// Calibration is the number of calibration runs; 0 means 16.
	Calibration int
	// Partition is PCTCP's and taPCT's chain partition; empty means AG. d-POS always
	// uses Singleton.
	Partition Partition
	// Dependence is the relation RAPOS, POS, calibration and trace keys use; nil means
	// actor (the papers' "same receiver").
	Dependence Dependence
	// DeclaredRacy takes R from the system's declaration of racy message types instead
	// of calibration.
	DeclaredRacy bool
}

// Config is a sampler chosen with its options: what a session needs to make a Sampler.
type Config struct {
	// Name is the strategy's name: random, rapos, pos, pctcp, tapct or dpos ("pct" is
	// recorded as pctcp).
	Name string
	Options
}

// Names lists the samplers' strategy names, aliases included.
func Names() []string { return []string{"random", "rapos", "pos", "pctcp", "pct", "tapct", "dpos"} }

// New returns the named sampler with o, defaults filled in; the error says what is wrong.
func New(name string, o Options) (*Config, error) {
	if name == "pct" {
		name = "pctcp"
	}
	switch name {
	case "random", "rapos", "pos", "pctcp", "tapct", "dpos":
	default:
		return nil, fmt.Errorf("unknown sampler %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	if o.Depth == 0 {
		o.Depth = 3
	}
	if o.Depth < 1 {
		return nil, fmt.Errorf("depth must be at least 1, got %d", o.Depth)
	}
	if o.Events < 0 || o.RacyEvents < 0 {
		return nil, fmt.Errorf("events and racy events must be positive (or 0 for auto), got %d and %d", o.Events, o.RacyEvents)
	}
	if o.Calibration == 0 {
		o.Calibration = 16
	}
	if o.Calibration < 0 {
		return nil, fmt.Errorf("calibration runs must be positive, got %d", o.Calibration)
	}
	switch o.Partition {
	case "":
		o.Partition = AG
	case AG, AGPaper, Singleton:
	default:
		return nil, fmt.Errorf("unknown partition %q (valid: ag, ag-paper, singleton)", o.Partition)
	}
	if name == "dpos" {
		o.Partition = Singleton
	}
	if o.Dependence == nil {
		o.Dependence = actorDep{}
	}
	return &Config{Name: name, Options: o}, nil
}

// RandomWalk is the uniform random walk (DS2's SR).
func RandomWalk() *Config { return must("random", Options{}) }

// RAPOS is Sen's random partial-order sampler.
// It panics on invalid options; New returns the error instead.
func RAPOS(o Options) *Config { return must("rapos", o) }

// POS is Yuan et al.'s partial-order sampler.
// It panics on invalid options; New returns the error instead.
func POS(o Options) *Config { return must("pos", o) }

// PCTCP is PCT over an online chain partition.
// It panics on invalid options; New returns the error instead.
func PCTCP(o Options) *Config { return must("pctcp", o) }

// TaPCT is trace-aware PCTCP: only racy events carry labels.
// It panics on invalid options; New returns the error instead.
func TaPCT(o Options) *Config { return must("tapct", o) }

// DPOS is d-POS: PCT's change points over singleton chains.
// It panics on invalid options; New returns the error instead.
func DPOS(o Options) *Config { return must("dpos", o) }

func must(name string, o Options) *Config {
	c, err := New(name, o)
	if err != nil {
		panic(err)
	}
	return c
}

// NeedsN reports whether the sampler draws change points over n, the events of a run
// (PCTCP).
func (c *Config) NeedsN() bool { return c.Name == "pctcp" }

// NeedsNHat reports whether the sampler draws change points over n̂, the racy events of
// a run (taPCT, d-POS).
func (c *Config) NeedsNHat() bool { return c.Name == "tapct" || c.Name == "dpos" }

// NeedsRacy reports whether the sampler labels only racy events (taPCT, d-POS).
func (c *Config) NeedsRacy() bool { return c.NeedsNHat() }

// HasBound reports whether the sampler has a stated chance of hitting a bug of its depth
// (PCTCP, taPCT, d-POS), which needs the n or n̂ it draws over.
func (c *Config) HasBound() bool { return c.NeedsN() || c.NeedsNHat() }

// Calibrates reports whether a session runs calibration runs first, to measure what the
// sampler draws over: it has a bound, and either that figure was not given
// (Options.Events for PCTCP, Options.RacyEvents for taPCT and d-POS) or, for taPCT and
// d-POS, the racy types were not declared (Options.DeclaredRacy).
func (c *Config) Calibrates() bool {
	return c.HasBound() && (c.labelRange() == 0 || !c.DeclaredRacy && c.NeedsRacy())
}

func (c *Config) labelRange() int {
	if c.NeedsN() {
		return c.Events
	}
	return c.RacyEvents
}

// Sampler makes a sampler for a session in which change points are drawn from 1..labels
// (n for PCTCP, n̂ for taPCT and d-POS; ignored by the others).
func (c *Config) Sampler(labels int) Sampler {
	switch c.Name {
	case "random":
		return &randomWalk{}
	case "rapos":
		return newRAPOS(c.Dependence)
	case "pos":
		return newPOS(c.Dependence)
	}
	return newPrio(c.Depth, labels, c.NeedsN(), c.Partition)
}

// Summary says in one line what the named sampler does, for listings; "" for a name that
// is not a sampler's.
func Summary(name string) string {
	return map[string]string{
		"random": "uniform random walk: a uniformly random enabled event at every step (DS2's SR)",
		"rapos":  "RAPOS (Sen 2007): random sets of independent schedulable events, delivered in batches",
		"pos":    "POS (Yuan et al. 2018): random priorities, redrawn for the events dependent on each delivery",
		"pctcp":  "PCTCP (Ozkan et al. 2018): PCT over an online chain partition; bound 1/(m·n(n−1)…(n−d+2)) for --depth d, as the report computes it",
		"pct":    "alias of pctcp",
		"tapct":  "taPCT (Ozkan et al. 2019): PCTCP with change points on racy events only; bound 1/(m·n̂(n̂−1)…(n̂−d+2))",
		"dpos":   "d-POS (Ozkan et al. 2019): change points on racy events over singleton chains; bound 1/(maxConc·n̂(n̂−1)…(n̂−d+2))",
	}[name]
}
