// Package explorer is Ravel's depth-first engine: it explores the orders in which a
// system's pending messages can be delivered, keeping an immutable snapshot of the whole
// system at every depth so that backtracking re-runs nothing, and checks the history of
// every schedule for linearizability.
package explorer

import (
	"errors"
	"fmt"
	"time"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/samplers"
)

// DefaultMaxSchedules is the schedule budget when Options leaves it zero: the DS2
// paper's cutoff.
const DefaultMaxSchedules = 50_000

// DefaultMaxDepth is the depth budget when Options leaves it zero. Schedules of the
// shipped systems are tens of steps long; a system that never quiesces (a timer that
// re-arms itself) is cut here.
const DefaultMaxDepth = 1_000

// Unlimited, as a budget, means no limit.
const Unlimited = -1

// DefaultVisitedMem is the visited set's memory budget when Options leaves it zero:
// 512 MiB hold about 40 million fingerprints before anything spills to disk.
const DefaultVisitedMem = 512 << 20

// Options configure a run. The zero value explores exhaustively with the default budgets.
type Options struct {
	// Strategy decides which schedules to explore; nil means dpor.Exhaustive().
	Strategy dpor.Strategy
	// MaxSchedules stops the search after this many schedules: 0 means
	// DefaultMaxSchedules, Unlimited means no limit.
	MaxSchedules int64
	// MaxDepth ends a schedule after this many steps even if events are still enabled;
	// such a schedule is cut, and counted apart. 0 means DefaultMaxDepth, Unlimited no limit.
	MaxDepth int
	// MaxStates, with StateCaching, stops the search once it has visited this many
	// distinct states (Stats.States), which bounds its memory as no schedule budget can:
	// with caching a schedule may end after one step at a visited state, or visit
	// thousands of new ones. 0 means no limit; Run refuses a positive MaxStates without
	// StateCaching, and a negative one (and the other budgets' values their docs do not
	// define).
	MaxStates int64
	// StopAtFirst ends a sampler session (Sampling, or the random strategy) at the first
	// run that fails or whose history is not linearizable: each new history is then
	// judged before the next run is drawn, not on a goroutine of its own. The statistics,
	// the sampler's hits and hit rate among them, cover the runs drawn until then; a
	// session without a violation runs to MaxSchedules as without it. A search by a
	// Strategy ignores it.
	StopAtFirst bool
	// Reflective forces the reflective deep copy and fingerprint even for actors and
	// messages that have Clone and HashState methods (to measure what those buy).
	Reflective bool
	// StateCaching ends a path at a state already visited (docs/visited-states.md):
	// the fingerprint covers the history so far, so everything reachable from a visited
	// state was already found. Only strategies under which that is sound allow it
	// (dpor.StateCacher); Run refuses the others.
	StateCaching bool
	// VisitedMem bounds the memory of the visited set in bytes; beyond it, fingerprints
	// spill to disk in VisitedDir. 0 means DefaultVisitedMem.
	VisitedMem int64
	// VisitedDir is the directory the visited set spills to, with StateCaching: the
	// system's temporary directory when empty. Run creates it if need be, and a
	// subdirectory of its own in it (removed at the end), and reports one it cannot
	// use before the search starts (docs/visited-states.md).
	VisitedDir string
	// CanonicalStates, with StateCaching, makes a state's fingerprint cover the canonical
	// form of its history — the operations, their outputs, the ones open, and which
	// returned before which was invoked — instead of the history's chronological order
	// (docs/visited-states.md). Paths whose histories differ only in an order no canonical history
	// tells apart then reach one state, not several: the search keeps the same canonical
	// histories and violations in fewer states, but finds fewer chronologically unique
	// histories (Stats.Unique), since it explores fewer paths. Only exhaustive search and
	// stateful DPOR allow it; Run refuses it without StateCaching and with the others.
	CanonicalStates bool
	// Stateless keeps no snapshot to backtrack to: after every schedule, the next one is
	// re-executed from the initial state (the DS2 paper's ST column). It explores exactly
	// what the stateful search explores, slower.
	Stateless bool
	// FaultProbability is the chance that a random walk injects a fault, at a state where
	// both a fault and a delivery are enabled: it then picks one of the faults, otherwise
	// one of the deliveries, uniformly. 0 picks uniformly among all enabled events.
	FaultProbability float64
	// Minimize shrinks the first violation's schedule before reporting it (Minimize:
	// delta debugging, as ravel check --minimize).
	Minimize bool
	// OnSchedule, when set, is called at the end of every schedule. The argument is valid
	// only during the call.
	OnSchedule func(*ScheduleEnd)
	// Progress, when set, is called about every ProgressEvery with the statistics so far.
	Progress func(Stats)
	// ProgressEvery is the interval between Progress calls; 0 (or less) is one second.
	ProgressEvery time.Duration
	// Checkpoint, when its Dir is set, keeps the search resumable after a kill
	// (Checkpointing).
	Checkpoint Checkpointing

	// Sampling, when set, runs a randomized sampler of package samplers instead of a
	// Strategy (docs/samplers.md): independent runs from the initial state, run r drawing only
	// from samplers.RunRand(Seed, r), runs FirstRun, FirstRun+1, … until MaxSchedules.
	// A run replays alone with FirstRun = r and MaxSchedules = 1. Run refuses Sampling
	// with a Strategy, and a sampler (the random strategy too) with MaxSchedules
	// Unlimited: it never ends by itself (NeverEnds).
	Sampling *samplers.Config
	// Seed seeds the random strategies and the samplers (0 is a seed like another).
	Seed int64
	// FirstRun is a sampler's first run, for repeating one run or going on from an
	// earlier session; it should not be negative.
	FirstRun int
	// chooser replaces the seeded generator of run r (exact tests enumerate draws).
	chooser func(run int) samplers.Chooser
}

func (o Options) maxSchedules() int64 {
	switch {
	case o.MaxSchedules == 0:
		return DefaultMaxSchedules
	case o.MaxSchedules < 0:
		return 1<<63 - 1
	}
	return o.MaxSchedules
}

// checkStates refuses budgets the fields' docs give no meaning (a MaxSchedules or
// MaxDepth below Unlimited, a FaultProbability outside 0 to 1), and a state budget that
// cannot be honoured: states are counted only with state caching.
func (o Options) checkStates() error {
	switch {
	case o.MaxSchedules < Unlimited:
		return fmt.Errorf("MaxSchedules must be 0 (the default), Unlimited (-1) or positive, got %d", o.MaxSchedules)
	case o.MaxDepth < Unlimited:
		return fmt.Errorf("MaxDepth must be 0 (the default), Unlimited (-1) or positive, got %d", o.MaxDepth)
	case !(o.FaultProbability >= 0 && o.FaultProbability <= 1):
		return fmt.Errorf("FaultProbability is a chance, from 0 to 1, got %v", o.FaultProbability)
	case o.MaxStates < 0:
		return fmt.Errorf("MaxStates must be 0 (no limit) or positive, got %d", o.MaxStates)
	case o.MaxStates > 0 && !o.StateCaching:
		return errors.New("MaxStates needs StateCaching: without it the search counts no states")
	case o.CanonicalStates && !o.StateCaching:
		return errors.New("CanonicalStates needs StateCaching: it changes what a visited state is")
	}
	return nil
}

// checkStrategy refuses a Strategy and a Sampling both set (the sampler would run and
// Result.Strategy name the strategy), and a sampler session without a schedule budget:
// a sampler draws runs until MaxSchedules, and never ends by itself.
func (o Options) checkStrategy() error {
	if o.Strategy != nil && o.Sampling != nil {
		return fmt.Errorf("both Strategy (%s) and Sampling (%s) are set: a run is a search or a sampler session; leave Strategy nil to sample", o.Strategy.Name(), o.Sampling.Name)
	}
	if _, _, ok := samplingOf(o, o.Strategy); ok && o.MaxSchedules == Unlimited {
		name := ""
		if o.Sampling != nil {
			name = o.Sampling.Name
		} else {
			name = o.Strategy.Name()
		}
		return NeverEnds(name, "MaxSchedules")
	}
	return nil
}

// NeverEnds is the refusal of a sampler (Options.Sampling, or the random strategy) given
// no schedule budget, which would run until killed, its memory growing with every run;
// budget names the schedule budget as the caller sets it: "MaxSchedules" for Run,
// "--max-schedules" for ravel check. One message for both.
func NeverEnds(strategy, budget string) error {
	return fmt.Errorf("the %s strategy never ends by itself: give it a %s budget", strategy, budget)
}

func (o Options) maxDepth() int {
	switch {
	case o.MaxDepth == 0:
		return DefaultMaxDepth
	case o.MaxDepth < 0:
		return 1<<31 - 1
	}
	return o.MaxDepth
}

// ScheduleEnd describes a schedule that just ended, for Options.OnSchedule.
type ScheduleEnd struct {
	// Index is the schedule's number, from 1.
	Index int64
	// Steps are the events delivered, in order.
	Steps []dpor.Event
	// Events are the history.
	Events []histories.Event
	// Fingerprint is the fingerprint of the final state.
	Fingerprint uint64
	// Cut reports that the depth budget ended the schedule.
	Cut bool
	// Cycle is set when the schedule ended, with state caching, by returning to a state
	// earlier on its path: a system that never quiesces repeats the cycle forever.
	Cycle bool
}

// Stats are a run's measurements; the names in comments are the DS2 paper's (Table A1).
type Stats struct {
	Schedules int64 // #S: schedules explored (cut ones included)
	Steps     int64 // handler runs: events delivered
	MaxDepth  int   // the longest schedule
	Cut       int64 // schedules ended by the depth budget
	// Cycles counts the schedules, in Schedules too, that ended, with state caching, by
	// returning to a state earlier on the same path: a lasso, which a system that never
	// quiesces (a timer re-armed on every firing) ends every schedule with. Its history
	// is judged like a final state's: it is the same all around the cycle.
	Cycles int64
	// Crowd is the largest group of like messages pending where a schedule was cut: a
	// sign of a protocol that sends without bound, when large.
	Crowd Crowd
	// Repeat is the step taken most often on a cut schedule, with state caching: a sign
	// of a state that grows without bound, when it is most of the path.
	Repeat Repeat
	// SleepBlocked counts paths abandoned at a state with events enabled, every one of
	// them asleep (sleep sets): work that ends in no schedule. Optimal DPOR has none.
	SleepBlocked int64
	// Answered counts the harness's operations answered in at least one schedule (at
	// most Harness.NumOps). 0 after schedules were explored means that the actors never
	// answered a request: every history was all open, which any specification accepts, so
	// nothing was checked — often a handler whose type switch names another
	// model.Request[I] than the harness sends (Harness.RequestType). After a resumed
	// checkpoint it is at least the checkpoint's figure.
	Answered int64

	Incomplete         int64 // #IH: schedules whose history has an operation not invoked or not answered
	Unique             int64 // #UH: chronologically unique histories
	Canonical          int64 // #CH: canonically unique histories
	Nonlinearizable    int64 // #NL: chronologically unique histories that are not linearizable
	NonlinearizableCan int64 // canonically unique histories that are not linearizable
	Panics             int64 // schedules that ended in a handler's panic, an ill-typed response, or a failed assertion (ctx.Fail)
	BeforeFirst        int64 // #HF: unique histories found before the first violation; −1 if none

	Explore     time.Duration // TS: exploring, checking excluded
	Check       time.Duration // TC: checking histories
	Total       time.Duration // TT
	ToFirst     time.Duration // TF: from the start to the first violation; 0 if none
	Interrupted bool          // the context was cancelled
	// Calibrating and CalibrationRuns are, while a sampler's calibration runs (not
	// counted in Schedules) are under way, how many are done and how many there are to
	// run; both are 0 otherwise (in Progress reports only).
	Calibrating, CalibrationRuns int

	// With state caching: distinct states reached, and arrivals at a state already seen.
	States   int64
	Revisits int64
	// ExploredAgain counts arrivals at a state already seen that were explored again:
	// stateful DPOR's sleep sets (dpor.StateKeeper.ExploredAgain).
	ExploredAgain int64
	// Replayed counts the steps a stateless run re-executed to rebuild states: the
	// path's, and those a peek of stateful DPOR ran, kept only the fingerprint of, and
	// the search then took (counted once in Steps, as with snapshots).
	Replayed int64
	// Peeked counts the steps, in Steps too, that stateful DPOR ran only to learn what
	// an event would send, to choose the event a new state starts with
	// (dpor.Optimal), and that the search then neither explored nor looked at
	// otherwise.
	Peeked int64
	// The visited set's own figures, with state caching.
	Visited VisitedStats
	// CopyTime is the time taken by the reflective copies of actors (those without a
	// Clone method, or all with Options.Reflective) that were timed, and CopiesTimed
	// how many: the first 16 of a run and one in 64 after, so that CopyTime/CopiesTimed
	// estimates what one costs without reading the clock at every step.
	CopyTime    time.Duration
	CopiesTimed int64
}

// Result is what a run found.
type Result struct {
	Stats Stats
	// Complete reports that the search ended by itself: no budget stopped it, no
	// schedule was cut, and it was not cancelled.
	Complete bool
	// First is the first violation found, or nil.
	First *Violation
	// Strategy names the strategy that ran; Dependence the relation it reduced by, if any.
	Strategy   string
	Dependence string
	// Exclusions is the number of message types the system excluded from interleaving,
	// when the strategy honours exclusions (LiViola): a wrong exclusion hides bugs.
	Exclusions int
	// Canonical lists every canonical history found, in the order found, with its verdict.
	Canonical []CanonicalHistory
	// Sampling holds a sampler session's statistics (docs/samplers.md), or nil.
	Sampling *SamplingStats
	// Resumed describes the checkpoint the run continued from (Checkpointing.Resume),
	// or is nil.
	Resumed *Resumed
	// Checkpointed: Checkpointing.Dir holds a checkpoint of this search to resume from —
	// one the run took, or the one it resumed — even when the run failed later (a full
	// disk): the last complete checkpoint stays as it was.
	Checkpointed bool
}

// Violation is a finding: a schedule whose history is not linearizable, or in which a
// handler panicked or answered with a value of the wrong type.
type Violation struct {
	// Kind is "nonlinearizable", "panic", "bad-response", "assertion" (ctx.Fail),
	// "changed-message" (a handler changed the message it received), or one of the
	// kinds of OfModel: KindUncopyable or KindSharedClone.
	Kind string
	// Schedule is the number of the schedule that found it, from 1.
	Schedule int64
	// Steps are the deliveries of the schedule, up to and including the one that
	// panicked.
	Steps []Delivery
	// Events are the history of the schedule.
	Events []histories.Event
	// Message says what went wrong, for panics and bad responses.
	Message string
	// Stack is the handler's stack at a panic.
	Stack string
	// Fingerprint is the fingerprint of the schedule's last state.
	Fingerprint uint64
	// Replayed reports that re-running the schedule from the initial state reached the
	// same fingerprint; false means a handler is not deterministic.
	Replayed bool
	// With Options.Minimize: the length of the schedule as found (Steps is the shrunk
	// one), the replays minimization took, and whether it reached a local minimum (false:
	// the context was cancelled first).
	OriginalSteps   int
	MinimizeReplays int
	Minimized       bool
}

// The kinds of finding that are about how the system is written for Ravel, not about
// its protocol (Violation.OfModel).
const (
	// KindUncopyable: a step left a state, message or timer payload that Ravel cannot
	// copy or fingerprint (an unexported field or an error value behind an interface, two
	// fields made to share a pointer, a func), which the checks before the search could
	// not see.
	KindUncopyable = "uncopyable"
	// KindSharedClone: an actor's Clone method returned a copy that shares memory with
	// the original, and a handler changed the original through it.
	KindSharedClone = "shared-clone"
)

// OfModel reports whether v says that Ravel could not check the system as written — a
// state it cannot copy or fingerprint, or a Clone method that shares memory — rather
// than that the protocol is wrong. The schedule shows where it happened. ravel check
// exits with status 2 for it, as for a system refused before the search, and raveltest
// fails the test without saving the schedule as a counterexample.
func (v *Violation) OfModel() bool {
	return v != nil && (v.Kind == KindUncopyable || v.Kind == KindSharedClone)
}

// Delivery is one step of a reported schedule.
type Delivery struct {
	ID       uint64
	Kind     dpor.EventKind
	From, To model.ID
	Msg      any
	Timer    string
	// Target is, for a fault, what it acts on (dpor.Event.Target).
	Target uint64
}

// deliveryOf is the Delivery of ev: the one place an event becomes a step, so that a
// search's, a replay's and a session's steps carry the same fields.
func deliveryOf(ev dpor.Event) Delivery {
	return Delivery{ID: ev.ID, Kind: ev.Kind, From: ev.From, To: ev.To, Msg: ev.Msg, Timer: ev.Timer, Target: ev.Target}
}
