package samplers

// Calibrator is a random walk that measures what the chain samplers need to know before
// a session (docs/samplers.md): n, the most events in a run; R, the events racy in some
// run (dependent with another event enabled at the same time); and n̂, the most events of
// R in a run. Drive it over C runs, each with CalibrationRand(seed, c), then call Result.
type Calibrator struct {
	walk   randomWalk
	dep    Dependence
	events map[uint64]*Event
	racy   map[uint64]bool
	runs   [][]uint64 // the events each run created
	cur    []uint64
	buf    []*Event
}

// NewCalibrator returns a calibrator judging races by dep (nil: actor).
func NewCalibrator(dep Dependence) *Calibrator {
	if dep == nil {
		dep = actorDep{}
	}
	return &Calibrator{dep: dep, events: make(map[uint64]*Event), racy: make(map[uint64]bool)}
}

// Begin implements Sampler.
func (c *Calibrator) Begin(run int, ch Chooser) {
	if c.cur != nil {
		c.runs = append(c.runs, c.cur)
	}
	c.cur = []uint64{}
	c.walk.Begin(run, ch)
}

// Created implements Sampler.
func (c *Calibrator) Created(e *Event) {
	c.walk.Created(e)
	c.cur = append(c.cur, e.ID)
	if _, ok := c.events[e.ID]; !ok {
		cp := *e
		cp.After = nil
		c.events[e.ID] = &cp
	}
}

// Next implements Sampler: it marks the enabled events that race, then walks.
func (c *Calibrator) Next(enabled []uint64) uint64 {
	c.buf = c.buf[:0]
	for _, id := range enabled {
		if e, ok := c.events[id]; ok {
			c.buf = append(c.buf, e)
		}
	}
	for i, a := range c.buf {
		for _, b := range c.buf[i+1:] {
			if c.dep.Dependent(a, b) {
				c.racy[a.ID], c.racy[b.ID] = true, true
			}
		}
	}
	return c.walk.Next(enabled)
}

// Delivered implements Sampler.
func (c *Calibrator) Delivered(id uint64) {}

// Run implements Sampler.
func (c *Calibrator) Run() RunStats { return c.walk.Run() }

// Calibration is what calibration measured.
type Calibration struct {
	Runs int `json:"runs"`
	// N is the most events created in one run; NHat the most events of R.
	N    int `json:"n"`
	NHat int `json:"n_hat"`
	// Racy is R: the identities racy in some run (or declared racy, when declared).
	Racy map[uint64]bool `json:"-"`
	// RacyCount is |R|; Seen the identities created in some calibration run.
	RacyCount int             `json:"racy"`
	Seen      map[uint64]bool `json:"-"`
}

// Result returns what the runs so far measured. With declared set, R is the events
// the system declared racy (Event.Racy) instead of those seen racing.
func (c *Calibrator) Result(declared bool) Calibration {
	runs := c.runs
	if c.cur != nil {
		runs = append(runs, c.cur)
	}
	out := Calibration{Runs: len(runs), Racy: c.racy, Seen: make(map[uint64]bool, len(c.events))}
	if declared {
		out.Racy = make(map[uint64]bool)
		for id, e := range c.events {
			if e.Racy {
				out.Racy[id] = true
			}
		}
	}
	for id := range c.events {
		out.Seen[id] = true
	}
	for _, r := range runs {
		out.N = max(out.N, len(r))
		k := 0
		for _, id := range r {
			if out.Racy[id] {
				k++
			}
		}
		out.NHat = max(out.NHat, k)
	}
	out.RacyCount = len(out.Racy)
	return out
}
