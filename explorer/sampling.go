package explorer

import (
	"context"
	"math"
	"time"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/samplers"
)

// samplingStrategy stands for a sampler where the engine expects a dpor.Strategy: it
// names the sampler and asks for keys when its dependence reads them.
type samplingStrategy struct{ cfg *samplers.Config }

func (s samplingStrategy) Name() string { return s.cfg.Name }
func (s samplingStrategy) Needs() dpor.Needs {
	return dpor.Needs{Keys: s.cfg.Dependence != nil && s.cfg.Dependence.Name() == "key"}
}
func (samplingStrategy) Arrive(dpor.Path) {}

// samplingOf says whether the run is a sampler session: Options.Sampling, or the
// dpor.Random strategy, which is the random walk of package samplers.
func samplingOf(o Options, s dpor.Strategy) (*samplers.Config, int64, bool) {
	if o.Sampling != nil {
		return o.Sampling, o.Seed, true
	}
	if r, ok := s.(dpor.Sampler); ok {
		return samplers.RandomWalk(), r.Seed(), true
	}
	return nil, 0, false
}

// SamplingStats are a sampler session's statistics (docs/samplers.md).
type SamplingStats struct {
	// Sampler names the sampler and Version the generator and draw order its runs come
	// from (samplers.Version: a run replays the same only under the same); Seed and
	// FirstRun say which runs were drawn: run r is a function of (Seed, r), from FirstRun
	// on.
	Sampler  string `json:"sampler"`
	Version  string `json:"sampler_version"`
	Seed     int64  `json:"seed"`
	FirstRun int    `json:"first_run"`
	// Depth is the bug depth d the sampler was set for, and Partition its chain
	// partition, for the samplers that have them (PCT's family); Dependence is the
	// relation that decides which events race.
	Depth      int    `json:"depth,omitempty"`
	Partition  string `json:"partition,omitempty"`
	Dependence string `json:"dependence"`
	// Racy says where the racy set R came from: "calibrated" (calibration runs) or
	// "declared" (model.System.Racy); "" when the sampler needs none.
	Racy string `json:"racy,omitempty"`

	// Runs are the runs drawn and Hits those with a violation; HitRate is Hits/Runs,
	// and [WilsonLo, WilsonHi] its 95% Wilson interval.
	Runs     int64   `json:"runs"`
	Hits     int64   `json:"hits"`
	HitRate  float64 `json:"hit_rate"`
	WilsonLo float64 `json:"hit_rate_wilson_lo"`
	WilsonHi float64 `json:"hit_rate_wilson_hi"`
	// FirstHitRun is the run index of the first hit (−1: none); ToFirstHit the schedules
	// run up to and including it; PerHit the mean schedules per hit.
	FirstHitRun int64   `json:"first_hit_run"`
	ToFirstHit  int64   `json:"schedules_to_first_hit"`
	PerHit      float64 `json:"schedules_per_hit"`
	// HitRuns lists the run indices that hit (the first 1,000): each replays alone from
	// (seed, run).
	HitRuns []int64 `json:"hit_runs"`

	// Bound is the sampler's bound at the observed m or maxConc, or nil.
	Bound *samplers.Bound `json:"bound,omitempty"`
	// N and NHat are the n and n̂ the session used (given or calibrated).
	N    int `json:"n,omitempty"`
	NHat int `json:"n_hat,omitempty"`
	// Calibration is what the calibration runs measured, or nil when none ran.
	Calibration *samplers.Calibration `json:"calibration,omitempty"`

	// ObservedN is the most events one run created (the n the bounds assume at most).
	ObservedN int `json:"observed_n"`
	// ObservedNHat and NonRacyPerRun are nil when the racy set R is unknown: no
	// calibration ran and the system's racy types were not declared (pctcp with --events).
	// ObservedNHat is the most events of R one run created; NonRacyPerRun the mean
	// events outside R a run.
	ObservedNHat *int `json:"observed_n_hat,omitempty"`
	// MaxChains and MeanChains are the most and the mean chains a run's partition made
	// (the m of PCTCP's and taPCT's bounds); MaxConc is 1 + the most distinct events
	// co-enabled with one event of a run (d-POS's bound); MaxEnabled the most events
	// enabled at once.
	MaxChains  int     `json:"max_chains"`
	MeanChains float64 `json:"mean_chains"`
	MaxConc    int     `json:"max_conc"`
	MaxEnabled int     `json:"max_enabled"`
	// BeyondN counts the runs that created more events than the n (or n̂) the session
	// used, where the bound does not hold; Cut the runs the depth budget cut; and
	// UnknownRacy the events delivered that calibration never saw (R may miss them).
	BeyondN       int64    `json:"runs_beyond_n"`
	Cut           int64    `json:"cut_runs"`
	UnknownRacy   int64    `json:"unknown_events"`
	NonRacyPerRun *float64 `json:"non_racy_per_run,omitempty"`
	// FiredPerRun is the mean change points fired a run (PCT's family).
	FiredPerRun float64 `json:"change_points_fired_per_run"`
	// Traces counts the distinct traces the runs fell in (runs equal up to the order of
	// independent events: docs/samplers.md), and TraceBucket* how many runs each got:
	// the least, the most, the mean and their standard deviation — how evenly the
	// sampler spreads its runs.
	Traces          int     `json:"distinct_traces"`
	TraceBucketMin  int64   `json:"trace_bucket_min"`
	TraceBucketMax  int64   `json:"trace_bucket_max"`
	TraceBucketMean float64 `json:"trace_bucket_mean"`
	TraceBucketSD   float64 `json:"trace_bucket_stddev"`
}

// session is the engine's state during a sampler session.
type session struct {
	cfg    *samplers.Config
	seed   int64
	stats  SamplingStats
	runs   []runRecord
	traces map[uint64]int64
	cal    *samplers.Calibration
	// sums for means
	chains, fired, nonRacy int64
	// racyKnown: R is known (calibrated or declared); obsNHat the most racy events of a run.
	racyKnown bool
	obsNHat   int
	evbuf     []samplers.Event
}

type runRecord struct {
	run    int64
	entry  *canonEntry // the history's entry; nil when the run failed
	failed bool
}

// hit says whether the run failed or its history is not linearizable: once its verdict
// is known (the checker finished, or judged it inline).
func (r runRecord) hit() bool {
	return r.failed || r.entry != nil && !r.entry.ok && r.entry.err == nil
}

// modelWorld is the samplers.World of a model: the engine's path is the run so far.
type modelWorld struct {
	e           *engine
	sess        *session
	calibrating bool
	failed      bool
	ids         []uint64
	created     []samplers.Event
	after       []uint64
	fifo        map[[2]model.ID]uint64
	racy        func(any) bool
	enabledMax  int
	// faults: fault events are created when they first become enabled in a run; seen
	// holds those already created.
	faults bool
	seen   map[uint64]bool
}

// start puts the initial state on the path and returns the events that exist at the
// start.
func (w *modelWorld) start(init *state) []samplers.Event {
	w.failed = false
	if w.fifo != nil {
		clear(w.fifo)
	}
	w.e.push(init)
	w.created, w.after = w.created[:0], w.after[:0]
	for _, p := range init.pending {
		w.created = append(w.created, w.event(&p.ev, 0))
	}
	if w.faults {
		clear(w.seen)
		w.newFaults(0)
	}
	return w.created
}

// newFaults adds to w.created the fault events enabled at the top of the path that the
// run has not created yet, as created by the delivery of parent (0: at the start).
func (w *modelWorld) newFaults(parent uint64) {
	n := &w.e.nodes[len(w.e.nodes)-1]
	for i := range n.Enabled {
		if ev := &n.Enabled[i]; ev.Kind.IsFault() && !w.seen[ev.ID] {
			w.seen[ev.ID] = true
			w.created = append(w.created, w.event(ev, parent))
		}
	}
}

func (w *modelWorld) Enabled() []uint64 {
	n := &w.e.nodes[len(w.e.nodes)-1]
	w.ids = w.ids[:0]
	for i := range n.Enabled {
		w.ids = append(w.ids, n.Enabled[i].ID)
	}
	w.enabledMax = max(w.enabledMax, len(w.ids))
	return w.ids
}

func (w *modelWorld) Deliver(id uint64) ([]samplers.Event, bool) {
	e := w.e
	d := len(e.states) - 1
	i := e.nodes[d].Find(id)
	next, fail := e.take(d, i)
	if fail != nil {
		w.failed = true
		if !w.calibrating {
			e.stats.Schedules++
			e.stats.Panics++
			e.fail(fail, next, d+1)
		}
		return nil, false
	}
	e.push(next)
	w.created, w.after = w.created[:0], w.after[:0]
	for _, p := range next.pending {
		if p.ev.Parent == d {
			w.created = append(w.created, w.event(&p.ev, id))
		}
	}
	if w.faults {
		w.newFaults(id)
	}
	return w.created, true
}

// event is the sampler's view of ev, created by the delivery of parent (0: at the start).
func (w *modelWorld) event(ev *dpor.Event, parent uint64) samplers.Event {
	s := samplers.Event{ID: ev.ID, To: ev.To, Request: ev.Kind == dpor.Request, Key: ev.Key, KeyKnown: ev.KeyKnown, Excluded: ev.Excluded}
	at := len(w.after)
	if parent != 0 {
		w.after = append(w.after, parent)
	}
	if w.fifo != nil && ev.Kind != dpor.Timer {
		ch := [2]model.ID{ev.From, ev.To}
		if prev, ok := w.fifo[ch]; ok {
			w.after = append(w.after, prev)
		}
		w.fifo[ch] = ev.ID
	}
	s.After = w.after[at:len(w.after):len(w.after)]
	switch {
	case w.racy != nil:
		s.Racy = w.racy(ev.Msg)
	case w.sess != nil && w.sess.cal != nil:
		s.Racy = w.sess.cal.Racy[ev.ID]
	}
	return s
}

// sample runs a sampler session: calibration if the sampler needs it, then runs until
// the schedule budget is spent. It never ends by itself.
func (e *engine) sample(ctx context.Context, cfg *samplers.Config, seed int64) bool {
	s := &session{cfg: cfg, seed: seed, traces: make(map[uint64]int64)}
	e.sess = s
	s.stats = SamplingStats{Sampler: cfg.Name, Version: samplers.Version, Seed: seed, FirstRun: e.opts.FirstRun,
		Dependence: cfg.Dependence.Name(), FirstHitRun: -1}
	if cfg.HasBound() {
		s.stats.Depth, s.stats.Partition, s.stats.Racy = cfg.Depth, string(cfg.Partition), "calibrated"
	}
	init, ok := e.begin()
	if !ok {
		s.runs = append(s.runs, runRecord{run: int64(e.opts.FirstRun), failed: true})
		return true
	}
	w := &modelWorld{e: e, sess: s}
	if e.x.fifo {
		w.fifo = make(map[[2]model.ID]uint64)
	}
	if e.x.faulty {
		w.faults, w.seen = true, make(map[uint64]bool)
	}
	declared := cfg.DeclaredRacy && e.x.sys.Racy != nil
	if declared {
		w.racy = e.x.sys.Racy
		s.stats.Racy = "declared"
	}
	labels := cfg.Events
	if cfg.NeedsNHat() {
		labels = cfg.RacyEvents
	}
	if cfg.Calibrates() {
		if !e.calibrate(ctx, w, init, declared) {
			return false
		}
		if labels == 0 {
			labels = s.cal.N
			if cfg.NeedsNHat() {
				labels = s.cal.NHat
			}
		}
	}
	s.racyKnown = declared || s.cal != nil
	s.stats.N, s.stats.NHat = cfg.Events, cfg.RacyEvents
	if s.cal != nil {
		if s.stats.N == 0 {
			s.stats.N = s.cal.N
		}
		if s.stats.NHat == 0 {
			s.stats.NHat = s.cal.NHat
		}
	}
	sm := cfg.Sampler(labels)
	if cfg.Name == "random" && e.opts.FaultProbability > 0 && e.x.faulty {
		sm = &faultWalk{Sampler: sm, e: e, p: e.opts.FaultProbability}
	}
	lastProgress := time.Now()
	for r := e.opts.FirstRun; e.stats.Schedules < e.maxS; r++ {
		if ctx.Err() != nil {
			e.stats.Interrupted = true
			return false
		}
		if e.checker.broken.Load() != nil {
			return false // the specification panicked: no verdict can be trusted
		}
		if e.opts.Progress != nil && time.Since(lastProgress) >= e.progressEvery() {
			lastProgress = time.Now()
			e.progress()
		}
		var c samplers.Chooser
		if e.opts.chooser != nil {
			c = e.opts.chooser(r)
		} else {
			c = samplers.RunRand(seed, r)
		}
		_, out := samplers.Drive(w, sm, r, c, w.start(init), e.maxDepth)
		rec := runRecord{run: int64(r), failed: out == samplers.Failed}
		if out != samplers.Failed {
			d := len(e.states) - 1
			e.endSchedule(e.states[d], out == samplers.Cut, false)
			rec.entry = e.judged
		}
		if out == samplers.Cut {
			s.stats.Cut++
		}
		s.runs = append(s.runs, rec)
		s.observe(e, w, sm.Run())
		for len(e.states) > 0 {
			e.pop()
		}
		if e.opts.StopAtFirst && rec.hit() {
			break
		}
	}
	s.stats.MaxEnabled = w.enabledMax
	return false
}

// calibrate runs the calibration runs with the random walk; they are not counted. It
// reports progress as it goes, and false when the context ends it (e.stats.Interrupted):
// the session then has no calibration and no run.
func (e *engine) calibrate(ctx context.Context, w *modelWorld, init *state, declared bool) bool {
	cal := samplers.NewCalibrator(e.sess.cfg.Dependence)
	steps := e.stats.Steps
	w.calibrating = true
	defer func() {
		w.calibrating = false
		e.stats.Steps = steps
	}()
	lastProgress := time.Now()
	for c := 0; c < e.sess.cfg.Calibration; c++ {
		if ctx.Err() != nil {
			e.stats.Interrupted = true
			return false
		}
		if e.opts.Progress != nil && time.Since(lastProgress) >= e.progressEvery() {
			lastProgress = time.Now()
			e.stats.Calibrating, e.stats.CalibrationRuns = c, e.sess.cfg.Calibration
			e.progress()
			e.stats.Calibrating, e.stats.CalibrationRuns = 0, 0
		}
		samplers.Drive(w, cal, c, samplers.CalibrationRand(e.sess.seed, c), w.start(init), e.maxDepth)
		for len(e.states) > 0 {
			e.pop()
		}
	}
	res := cal.Result(declared)
	e.sess.cal = &res
	return true
}

// observe adds one run's figures to the session.
func (s *session) observe(e *engine, w *modelWorld, st samplers.RunStats) {
	t := &s.stats
	t.ObservedN = max(t.ObservedN, st.Events)
	s.obsNHat = max(s.obsNHat, st.Racy)
	t.MaxChains = max(t.MaxChains, st.Chains)
	t.MaxConc = max(t.MaxConc, st.MaxConc)
	s.chains += int64(st.Chains)
	s.fired += int64(st.Fired)
	s.nonRacy += int64(st.Events - st.Racy)
	if s.cfg.NeedsN() && st.Events > t.N || s.cfg.NeedsNHat() && st.Racy > t.NHat {
		t.BeyondN++
	}
	// Events of this run that calibration never saw: R may be missing them.
	if s.cal != nil && w.racy == nil {
		for i := range e.nodes {
			if n := &e.nodes[i]; n.Taken >= 0 && !s.cal.Seen[n.Enabled[n.Taken].ID] {
				t.UnknownRacy++
			}
		}
	}
	s.traces[s.traceKey(e)]++
}

// traceKey identifies the run's trace (docs/samplers.md): an order-independent hash of the
// (earlier, later) pairs of dependent events delivered.
func (s *session) traceKey(e *engine) uint64 {
	evs := s.evbuf[:0]
	defer func() { s.evbuf = evs }()
	for i := range e.nodes {
		n := &e.nodes[i]
		if n.Taken < 0 {
			break
		}
		ev := &n.Enabled[n.Taken]
		evs = append(evs, samplers.Event{ID: ev.ID, To: ev.To, Request: ev.Kind == dpor.Request, Key: ev.Key, KeyKnown: ev.KeyKnown, Excluded: ev.Excluded})
	}
	var h uint64
	for i := range evs {
		for j := i + 1; j < len(evs); j++ {
			if s.cfg.Dependence.Dependent(&evs[i], &evs[j]) {
				h += model.Mix64(model.Mix64(evs[i].ID) ^ evs[j].ID)
			}
		}
	}
	return h
}

// finish computes the figures that need the verdicts, once the checker has finished.
func (s *session) finish(e *engine) *SamplingStats {
	t := &s.stats
	t.Runs = int64(len(s.runs))
	for i, r := range s.runs {
		if r.hit() {
			t.Hits++
			if t.FirstHitRun < 0 {
				t.FirstHitRun, t.ToFirstHit = r.run, int64(i+1)
			}
			if len(t.HitRuns) < 1000 {
				t.HitRuns = append(t.HitRuns, r.run)
			}
		}
	}
	if t.Runs > 0 {
		t.HitRate = float64(t.Hits) / float64(t.Runs)
		t.MeanChains = float64(s.chains) / float64(t.Runs)
		t.FiredPerRun = float64(s.fired) / float64(t.Runs)
	}
	if s.racyKnown {
		t.ObservedNHat = &s.obsNHat
		nonRacy := 0.0
		if t.Runs > 0 {
			nonRacy = float64(s.nonRacy) / float64(t.Runs)
		}
		t.NonRacyPerRun = &nonRacy
	}
	t.WilsonLo, t.WilsonHi = samplers.Wilson(t.Hits, t.Runs)
	if t.Hits > 0 {
		t.PerHit = float64(t.Runs) / float64(t.Hits)
	}
	k := t.MaxChains
	if s.cfg.Name == "dpos" {
		k = t.MaxConc
	}
	labels := t.N
	if s.cfg.NeedsNHat() {
		labels = t.NHat
	}
	if b, ok := s.cfg.Bound(labels, k); ok {
		t.Bound = &b
	}
	t.Calibration = s.cal
	t.Traces = len(s.traces)
	if t.Traces > 0 {
		t.TraceBucketMin = math.MaxInt64
		var sum, sq float64
		for _, c := range s.traces {
			t.TraceBucketMin = min(t.TraceBucketMin, c)
			t.TraceBucketMax = max(t.TraceBucketMax, c)
			sum += float64(c)
			sq += float64(c) * float64(c)
		}
		n := float64(t.Traces)
		t.TraceBucketMean = sum / n
		t.TraceBucketSD = math.Sqrt(max(0, sq/n-t.TraceBucketMean*t.TraceBucketMean))
	}
	return t
}

// faultWalk is the random walk with Options.FaultProbability: where faults and
// deliveries are both enabled, it injects a fault with that chance (then a uniform
// fault), else a uniform delivery. The engine lists faults after deliveries.
type faultWalk struct {
	samplers.Sampler
	e *engine
	p float64
	c samplers.Chooser
}

func (f *faultWalk) Begin(run int, c samplers.Chooser) { f.c = c; f.Sampler.Begin(run, c) }

func (f *faultWalk) Next(enabled []uint64) uint64 {
	evs := f.e.nodes[len(f.e.nodes)-1].Enabled
	deliv := len(evs)
	for deliv > 0 && evs[deliv-1].Kind.IsFault() {
		deliv--
	}
	if deliv == len(evs) {
		return enabled[f.c.IntN(len(enabled))]
	}
	if deliv == 0 || float64(f.c.Uint64()>>11)/(1<<53) < f.p {
		return enabled[deliv+f.c.IntN(len(enabled)-deliv)]
	}
	return enabled[f.c.IntN(deliv)]
}
