package explorer

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/visited"
)

// DefaultCheckpointEvery is the interval between checkpoints when Checkpointing.Every
// is 0.
const DefaultCheckpointEvery = time.Minute

// Checkpointing makes a search resumable after a kill (docs/visited-states.md). The
// directory holds a badger store with the visited set and, beside it, the last complete
// checkpoint: the depth-first frontier (every node on the path as the index of the event
// it explores, with the strategy's sets: backtrack, done, sleep, what each explored event
// did, delays spent), the statistics, the canonical histories found (as the schedules
// that found them) and Identity. A checkpoint is taken every Every, when the search is
// cancelled, and when it ends. A search stopped by a budget (MaxSchedules, MaxStates)
// keeps its frontier too: resumed with a larger budget, it goes on exactly as a run
// given that budget from the start.
type Checkpointing struct {
	// Dir is the checkpoint directory; empty means no checkpoints.
	Dir string
	// Every is the interval between checkpoints; 0 means DefaultCheckpointEvery.
	Every time.Duration
	// Identity describes the run ("key=value" or "key value" items: system, harness,
	// strategy, depth budget, faults, version, …): everything that changes what the search
	// explores or what its result means. A resume refuses a checkpoint whose identity
	// differs, naming the first item that does, as written. MaxSchedules and MaxStates only stop the search, and do
	// not belong in it: a resume may change them (Resumed).
	Identity []string
	// Resume continues from the checkpoint in Dir instead of starting afresh: Dir must
	// exist and hold one, and nothing is written into it before that is known. Without
	// it, Dir must not exist, be empty, or be a checkpoint directory whose run left no
	// checkpoint (visited.Options.Durable); anything else is refused.
	Resume bool
	// OnResume, when set, is called once a resume has succeeded — the checkpoint read,
	// its path replayed — before the search goes on from it, with what Result.Resumed
	// will hold. It is not called when nothing goes on: the checkpoint's search had ended
	// or had spent this run's budgets.
	OnResume func(Resumed)
}

// ErrCheckpointMismatch is the cause of a resume refused because the checkpoint is of
// another run.
var ErrCheckpointMismatch = errors.New("the checkpoint is of another run")

const checkpointFormat = "ravel-checkpoint/1"

// checkpointRecord is what a checkpoint keeps beside the visited set.
type checkpointRecord struct {
	Format   string
	Identity []string
	Elapsed  time.Duration // exploring time so far
	Stats    Stats
	Done     bool // the search had ended; Complete says how
	Complete bool
	Path     []nodeRecord
	Canon    []canonRecord
	Chrono   []chronoRecord
	First    *violationRecord
	// Habits are what deliveries have always sent (sendsto.go): the search's choices
	// depend on them.
	Habits map[uint64]sendsHabit
	// StrategyLen is the length of a dpor.Resumable strategy's own state (SaveState),
	// saved when the search goes on: it follows the record's encoding in the
	// checkpoint, rather than being a field of it, which would copy it once more.
	StrategyLen int
}

// nodeRecord is one node of the path; sets are lists of indices into Enabled.
type nodeRecord struct {
	Enabled              int // len(Enabled), checked on resume
	Taken                int
	Backtrack, Done, Slp []int
	Cycled               []int `json:",omitempty"`
	Tried, SleepInfo     []stepRecord
	Freeze               bool
	Delays               int
	Cost                 []int
}

// stepRecord is a dpor.StepInfo whose event is Enabled[Index] of its node; its clock is
// recomputed on resume.
type stepRecord struct {
	Index            int
	Invokes, Returns bool
	Answers          []model.RequestID
	Before           []int
}

type canonRecord struct {
	Steps       []uint64 // the event identities of the schedule that found it first
	Schedule    int64
	At          time.Duration
	UniqueSeen  int64
	Fingerprint uint64
	Chrono      int64
}

type chronoRecord struct {
	Hash  uint64
	Entry int
}

type violationRecord struct {
	Kind, Message, Stack string
	Schedule             int64
	Steps                []uint64
	Fingerprint          uint64
	Replayed             bool
}

// checkpointer is the engine's checkpoint state.
type checkpointer struct {
	set    *visited.Set
	every  time.Duration
	last   time.Time
	resume *checkpointRecord
	// strategy is the resumed checkpoint's strategy state (checkpointRecord.StrategyLen).
	strategy []byte
	// spent: the resumed checkpoint had already spent this run's budgets, so the run
	// explored nothing and leaves the checkpoint as it was.
	spent bool
	// readOnly: the resumed checkpoint's search had ended or had spent this run's
	// budgets, so its store was opened read-only and nothing is saved.
	readOnly bool
	// saved: the run has taken a checkpoint (Result.Checkpointed).
	saved bool
}

// Resumed describes the checkpoint a run continued from (Result.Resumed).
type Resumed struct {
	// Schedules and States are the search's figures at the checkpoint.
	Schedules, States int64
	// Ended: the checkpoint's search had ended, by itself or by a failure, not by a
	// budget: the run explored nothing, whatever its budget, and reports that end.
	Ended bool
	// Spent: the checkpoint had already spent this run's MaxSchedules or MaxStates, so
	// the run stopped at once with the checkpoint's result. A larger budget goes on.
	Spent bool
}

// resumed describes the checkpoint the run continued from, or returns nil.
func (e *engine) resumed() *Resumed {
	if e.ckpt == nil || e.ckpt.resume == nil {
		return nil
	}
	rec := e.ckpt.resume
	return &Resumed{Schedules: rec.Stats.Schedules, States: rec.Stats.States, Ended: rec.Done, Spent: e.ckpt.spent}
}

// openCheckpoint opens the checkpoint directory of a run: its visited set is the run's
// (with state caching), and with Resume the last checkpoint is read and checked.
func (e *engine) openCheckpoint() error {
	c := e.opts.Checkpoint
	if _, _, ok := samplingOf(e.opts, e.strat); ok {
		return fmt.Errorf("checkpoints: the %s strategy samples independent runs, each replayable from its seed; re-run it with the same --seed instead", e.strat.Name())
	}
	keeper, _ := e.strat.(dpor.StateKeeper)
	if _, ok := e.strat.(dpor.Resumable); keeper != nil && !ok {
		// A strategy that keeps its own record of the visited states must save it, or a
		// resumed run would cut paths at visited states without the backtrack points
		// the record restores, and lose histories.
		return fmt.Errorf("checkpoints: %s keeps a record of the visited states that checkpoints do not save", e.strat.Name())
	}
	if _, picker := e.strat.(dpor.Picker); picker {
		// Its wakeup trees are not in the checkpoint record: a resumed run would lose
		// what they hold still to explore.
		return fmt.Errorf("checkpoints: %s keeps wakeup trees that checkpoints do not save yet; checkpoint dpor-source (source sets without wakeup trees: a superset of its schedules)", e.strat.Name())
	}
	mem := e.opts.VisitedMem
	if mem == 0 {
		mem = DefaultVisitedMem
	}
	// A resume reads the record, and refuses another run's, before it opens the store;
	// one that will stop at once (its search had ended, or had spent this run's budget)
	// opens the store read-only and leaves the directory as it was.
	var rec *checkpointRecord
	var raw []byte
	readOnly := false
	if c.Resume {
		var err error
		if raw, err = visited.ReadCheckpoint(c.Dir); err != nil {
			return checkpointDirError(c, err)
		}
		rec = new(checkpointRecord)
		if derr := gob.NewDecoder(bytes.NewReader(raw)).Decode(rec); derr != nil || rec.Format != checkpointFormat ||
			rec.StrategyLen < 0 || rec.StrategyLen > len(raw) {
			return fmt.Errorf("checkpoint: %s: the checkpoint record is not one this Ravel can read (%v)", c.Dir, derr)
		}
		if err := sameRun(rec.Identity, c.Identity); err != nil {
			return fmt.Errorf("checkpoint: --resume %s: %w", c.Dir, err)
		}
		readOnly = rec.Done || e.spentAt(rec.Stats)
	}
	set, err := visited.Open(visited.Options{MemBytes: mem, Durable: c.Dir, Resume: c.Resume, ReadOnly: readOnly})
	if err != nil {
		return checkpointDirError(c, err)
	}
	e.ckpt = &checkpointer{set: set, every: c.Every, last: time.Now(), readOnly: readOnly}
	if e.ckpt.every <= 0 {
		e.ckpt.every = DefaultCheckpointEvery
	}
	if c.Resume {
		if again, err := set.LastCheckpoint(); err != nil || !bytes.Equal(again, raw) {
			err = errors.Join(fmt.Errorf("the checkpoint in %s changed while it was opened", c.Dir), err)
		} else if rec.StrategyLen > 0 {
			e.ckpt.strategy = raw[len(raw)-rec.StrategyLen:]
		}
		if err == nil {
			err = set.Resume()
		}
		if err != nil {
			_ = set.Close()
			e.ckpt = nil
			return fmt.Errorf("checkpoint: %w", err)
		}
		e.ckpt.resume = rec
	}
	switch {
	case keeper != nil:
		// Its record of the visited states is in the checkpoint record (Resumable); the
		// store holds only the record.
		e.visited = keeperSet{keeper}
	case e.opts.StateCaching:
		e.visited = diskSet{set}
	}
	return nil
}

// checkpointDirError words the refusal of a checkpoint directory, naming the flag that
// gave it.
func checkpointDirError(c Checkpointing, err error) error {
	flag := "--checkpoint"
	if c.Resume {
		flag = "--resume"
	}
	switch {
	case errors.Is(err, visited.ErrHasCheckpoint):
		return fmt.Errorf("checkpoint: %s already holds a checkpoint: continue it with --resume, or give an empty directory", c.Dir)
	case errors.Is(err, visited.ErrNoCheckpoint):
		return fmt.Errorf("checkpoint: --resume %s: %w", c.Dir, visited.ErrNoCheckpoint)
	}
	var de *visited.DirError
	if errors.As(err, &de) {
		return fmt.Errorf("checkpoint: %s %w", flag, err)
	}
	return fmt.Errorf("checkpoint: %w", err)
}

// sameRun returns an error naming the first item in which two identities differ.
func sameRun(was, is []string) error {
	key := func(s string) string { return s[:strings.IndexAny(s+"=", "= ")] }
	for i := 0; i < max(len(was), len(is)); i++ {
		switch {
		case i >= len(was):
			return fmt.Errorf("%w: this run has %s, the checkpoint does not", ErrCheckpointMismatch, is[i])
		case i >= len(is):
			return fmt.Errorf("%w: the checkpoint has %s, this run does not", ErrCheckpointMismatch, was[i])
		case was[i] != is[i]:
			if key(was[i]) == key(is[i]) {
				return fmt.Errorf("%w: the checkpoint was taken with %s, this run has %s", ErrCheckpointMismatch, was[i], is[i])
			}
			return fmt.Errorf("%w: the checkpoint has %s where this run has %s", ErrCheckpointMismatch, was[i], is[i])
		}
	}
	return nil
}

// maybeCheckpoint takes a checkpoint when the interval has passed.
func (e *engine) maybeCheckpoint() {
	if e.ckpt != nil && time.Since(e.ckpt.last) >= e.ckpt.every {
		e.checkpoint(false, false)
	}
}

// checkpoint saves the search as it stands at the top of the search loop (every node on
// the path arrived at, the next event not chosen), or, with done, a search that ended.
// A failure ends the run with the error.
func (e *engine) checkpoint(done, complete bool) {
	if e.ckpt == nil || e.err != nil {
		return
	}
	rec := e.record(done, complete)
	var strat []byte
	if r, ok := e.strat.(dpor.Resumable); ok && !done {
		strat = r.SaveState(nil)
		rec.StrategyLen = len(strat)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(rec); err != nil {
		e.err = fmt.Errorf("checkpoint: %w", err)
		return
	}
	if err := e.ckpt.set.Checkpoint(buf.Bytes(), strat); err != nil {
		e.err = fmt.Errorf("checkpoint: %w", err)
		return
	}
	e.ckpt.last = time.Now()
	e.ckpt.saved = true
}

func (e *engine) record(done, complete bool) *checkpointRecord {
	rec := &checkpointRecord{
		Format:   checkpointFormat,
		Identity: e.opts.Checkpoint.Identity,
		Elapsed:  time.Since(e.start),
		Stats:    e.stats,
		Done:     done,
		Complete: complete,
		Habits:   e.habits,
	}
	if !done {
		for d := range e.nodes {
			rec.Path = append(rec.Path, nodeToRecord(&e.nodes[d], d))
		}
	}
	c := e.checker
	index := make(map[*canonEntry]int, len(c.entries))
	for i, en := range c.entries {
		index[en] = i
		ids := make([]uint64, len(en.first.steps))
		for j, s := range en.first.steps {
			ids[j] = s.ID
		}
		rec.Canon = append(rec.Canon, canonRecord{Steps: ids, Schedule: en.first.schedule, At: en.first.at,
			UniqueSeen: en.first.uniqueSeen, Fingerprint: en.first.fingerprint, Chrono: en.chrono})
	}
	for h, en := range c.chrono {
		rec.Chrono = append(rec.Chrono, chronoRecord{Hash: h, Entry: index[en]})
	}
	if v := e.first; v != nil {
		ids := make([]uint64, len(v.Steps))
		for i, s := range v.Steps {
			ids[i] = s.ID
		}
		rec.First = &violationRecord{Kind: v.Kind, Message: v.Message, Stack: v.Stack, Schedule: v.Schedule,
			Steps: ids, Fingerprint: v.Fingerprint, Replayed: v.Replayed}
	}
	return rec
}

func nodeToRecord(n *dpor.Node, depth int) nodeRecord {
	k := len(n.Enabled)
	r := nodeRecord{Enabled: k, Taken: n.Taken, Backtrack: members(&n.Backtrack, k), Done: members(&n.Done, k),
		Slp: members(&n.Sleep, k), Cycled: members(&n.Cycled, k), Freeze: n.Freeze, Delays: n.Delays, Cost: append([]int(nil), n.Cost...)}
	step := func(s *dpor.StepInfo) stepRecord {
		return stepRecord{Index: n.Find(s.Event.ID), Invokes: s.Invokes, Returns: s.Returns,
			Answers: append([]model.RequestID(nil), s.Answers...), Before: members(&s.Before, depth)}
	}
	for i := range n.Tried {
		r.Tried = append(r.Tried, step(&n.Tried[i]))
	}
	for i := range n.SleepInfo {
		r.SleepInfo = append(r.SleepInfo, step(&n.SleepInfo[i]))
	}
	return r
}

// members lists the elements of s below n.
func members(s *dpor.Set, n int) []int {
	var out []int
	for i := range n {
		if s.Has(i) {
			out = append(out, i)
		}
	}
	return out
}

func setOf(xs []int) dpor.Set {
	var s dpor.Set
	for _, x := range xs {
		s.Add(x)
	}
	return s
}

// restore rebuilds the search from the checkpoint being resumed: the path by re-running
// the events taken from the initial state, each node's strategy state from the record
// (no Arrive: the strategy saw these states before the checkpoint), the statistics and
// the canonical histories (re-checked). It reports whether the search goes on, and, when
// it does not, whether it is complete; a checkpoint that does not replay is an error.
// A checkpoint whose search a budget stopped goes on under a larger budget: the budgets
// are this run's, and only a search that had ended stays ended.
func (e *engine) restore() (more, complete bool, err error) {
	rec := e.ckpt.resume
	e.stats = rec.Stats
	e.stats.Interrupted = false // this run goes on from there
	e.start = time.Now().Add(-rec.Elapsed)
	if rec.Habits != nil { // gob leaves out an empty map
		e.habits = rec.Habits
	}
	if err := e.restoreChecker(rec); err != nil {
		return false, false, err
	}
	switch {
	case rec.Done:
		return false, rec.Complete, nil
	case e.spent():
		// As the uninterrupted search does once its budget is spent: it stops, and the
		// checkpoint stays as it was, to be resumed with a larger budget.
		e.ckpt.spent = true
		return false, false, nil
	case len(rec.Path) == 0:
		return false, rec.Complete, nil // no frontier to go on from
	}
	bad := func(d int, why string) error {
		return fmt.Errorf("checkpoint: the path does not replay at depth %d (%s): the system or a handler is not deterministic", d, why)
	}
	init, fail, err := e.x.initial()
	if err != nil || fail != nil {
		return false, false, bad(0, "the initial state fails")
	}
	e.push(init)
	for d, nr := range rec.Path {
		n := &e.nodes[d]
		if len(n.Enabled) != nr.Enabled || nr.Taken >= nr.Enabled || (nr.Taken < 0 && d+1 < len(rec.Path)) {
			return false, false, bad(d, fmt.Sprintf("%d events enabled, the checkpoint has %d", len(n.Enabled), nr.Enabled))
		}
		n.Taken, n.Freeze, n.Delays = nr.Taken, nr.Freeze, nr.Delays
		n.Backtrack, n.Done, n.Sleep, n.Cycled = setOf(nr.Backtrack), setOf(nr.Done), setOf(nr.Slp), setOf(nr.Cycled)
		n.Cost = append(n.Cost[:0], nr.Cost...)
		toInfo := func(sr stepRecord) (dpor.StepInfo, bool) {
			if sr.Index < 0 || sr.Index >= len(n.Enabled) {
				return dpor.StepInfo{}, false
			}
			return dpor.StepInfo{Event: n.Enabled[sr.Index], Invokes: sr.Invokes, Returns: sr.Returns,
				Answers: sr.Answers, Before: setOf(sr.Before)}, true
		}
		n.Tried, n.SleepInfo = n.Tried[:0], n.SleepInfo[:0]
		for _, sr := range nr.Tried {
			info, ok := toInfo(sr)
			if !ok {
				return false, false, bad(d, "an explored event is not enabled")
			}
			n.Tried = append(n.Tried, info)
		}
		for _, sr := range nr.SleepInfo {
			info, ok := toInfo(sr)
			if !ok {
				return false, false, bad(d, "a sleeping event is not enabled")
			}
			n.SleepInfo = append(n.SleepInfo, info)
		}
		if e.needs.Clocks && n.Taken >= 0 {
			c := e.clock(d, &n.Enabled[n.Taken])
			for i := range n.Tried {
				n.Tried[i].Clock = c
			}
		}
		if d+1 == len(rec.Path) {
			break
		}
		next, log, fail := e.x.step(e.states[d], e.idx[d][n.Taken], d, e.log)
		e.log = log
		if fail != nil || next == nil {
			return false, false, bad(d, "the step taken fails")
		}
		e.push(next)
	}
	if r, ok := e.strat.(dpor.Resumable); ok {
		err := r.RestoreState(e.ckpt.strategy, e.nodes)
		e.ckpt.strategy = nil
		if err != nil {
			return false, false, fmt.Errorf("checkpoint: %s: %w", e.strat.Name(), err)
		}
	}
	e.stats.MaxDepth = rec.Stats.MaxDepth
	return true, false, nil
}

// restoreChecker gives the checker the canonical histories of the checkpoint, in the
// order found, by replaying the schedule that found each; their verdicts are checked
// again.
func (e *engine) restoreChecker(rec *checkpointRecord) error {
	c := e.checker
	for i, cr := range rec.Canon {
		ex, err := replay(e.x, cr.Steps, nil)
		if err != nil || ex.Failure != "" {
			return fmt.Errorf("checkpoint: canonical history %d does not replay: %v%s", i+1, err, ex.Failure)
		}
		steps := make([]dpor.Event, len(ex.Steps))
		for j, s := range ex.Steps {
			steps[j] = dpor.Event{ID: s.ID, Kind: s.Kind, From: s.From, To: s.To, Msg: s.Msg, Timer: s.Timer, Target: s.Target}
		}
		c.scratch.Reset(ex.Events)
		h := c.scratch.Hash()
		entry := &canonEntry{c: c.scratch.Clone(), chrono: cr.Chrono, first: found{schedule: cr.Schedule, steps: steps,
			events: ex.Events, fingerprint: cr.Fingerprint, at: cr.At, uniqueSeen: cr.UniqueSeen}}
		entry.ops = entry.c.Operations(c.x.harness)
		c.canon[h] = append(c.canon[h], entry)
		c.entries = append(c.entries, entry)
		c.work <- entry
	}
	for _, ch := range rec.Chrono {
		if ch.Entry < 0 || ch.Entry >= len(c.entries) {
			return fmt.Errorf("checkpoint: a chronological history refers to canonical history %d of %d", ch.Entry, len(c.entries))
		}
		c.chrono[ch.Hash] = c.entries[ch.Entry]
	}
	if v := rec.First; v != nil {
		ex, err := replay(e.x, v.Steps, nil)
		if err != nil {
			return fmt.Errorf("checkpoint: the first violation does not replay: %w", err)
		}
		e.first = &Violation{Kind: v.Kind, Schedule: v.Schedule, Steps: ex.Steps, Events: ex.Events,
			Message: v.Message, Stack: v.Stack, Fingerprint: v.Fingerprint, Replayed: v.Replayed}
	}
	return nil
}

// finalCheckpoint saves the search as it ended: its frontier if it was cancelled or
// stopped by a budget (so that it resumes, with a larger budget in the second case), else
// the finished figures. A resume that found its budget spent, or its search ended,
// opened the store read-only, changed nothing and saves nothing.
func (e *engine) finalCheckpoint(complete bool) {
	switch {
	case e.ckpt == nil || e.ckpt.spent || e.ckpt.readOnly:
	case e.stats.Interrupted || e.stoppedByBudget(complete):
		// The search loop stopped at its top, every node on the path arrived at and the
		// next event not chosen: where a checkpoint resumes.
		e.checkpoint(false, false)
	default:
		e.checkpoint(true, complete)
	}
}

// stoppedByBudget reports that a budget (MaxSchedules, MaxStates) ended a search that
// had not ended by itself, rather than a failure: the specification's, or Ravel's own.
func (e *engine) stoppedByBudget(complete bool) bool {
	return !complete && e.err == nil && e.checker.broken.Load() == nil && e.spent()
}

// closeCheckpoint releases the checkpoint's store (the directory stays).
func (e *engine) closeCheckpoint() error {
	if e.ckpt == nil {
		return nil
	}
	if _, ok := e.visited.(diskSet); ok {
		return nil // the visited set is the store; Run closes it
	}
	return e.ckpt.set.Close()
}

// pollMask sets how often the search loop looks at its context, its progress report and
// its checkpoint clock: when the step count masked by it is 0. A variable so that tests
// of small systems can interrupt anywhere (export_test.go).
var pollMask int64 = 63
