package samplers

// randomWalk delivers a uniformly random enabled event at every step (docs/samplers.md, "How they choose").
// It keeps no book: it is the baseline the other samplers' cost is measured against.
type randomWalk struct {
	c      Chooser
	events int
	racy   int
}

func (r *randomWalk) Begin(_ int, c Chooser) { r.c, r.events, r.racy = c, 0, 0 }

func (r *randomWalk) Created(e *Event) {
	r.events++
	if e.Racy {
		r.racy++
	}
}

func (r *randomWalk) Next(enabled []uint64) uint64 { return enabled[r.c.IntN(len(enabled))] }
func (r *randomWalk) Delivered(uint64)             {}
func (r *randomWalk) Run() RunStats                { return RunStats{Events: r.events, Racy: r.racy} }

// pos is Yuan et al.'s partial-order sampling (docs/samplers.md, "How they choose"): every event gets a
// fresh random priority at creation, and again whenever a dependent event is delivered.
type pos struct {
	book
	dep Dependence
	c   Chooser
}

func newPOS(dep Dependence) *pos { return &pos{dep: dep} }

func (p *pos) Begin(_ int, c Chooser) { p.reset(); p.c = c }

func (p *pos) Created(e *Event) {
	i := p.add(e)
	p.recs[i].pri = p.c.Uint64()
}

func (p *pos) Next(enabled []uint64) uint64 {
	best, bi := enabled[0], int32(-1)
	for _, id := range enabled {
		i, ok := p.idx[id]
		if !ok {
			continue
		}
		if bi < 0 || p.recs[i].pri > p.recs[bi].pri || p.recs[i].pri == p.recs[bi].pri && i < bi {
			best, bi = id, i
		}
	}
	return best
}

func (p *pos) Delivered(id uint64) {
	e := p.delivered(id)
	if e < 0 {
		return
	}
	for f := range p.recs {
		r := &p.recs[f]
		if r.pending && int32(f) != e && p.dep.Dependent(&p.recs[e].ev, &r.ev) {
			r.pri = p.c.Uint64()
		}
	}
}

func (p *pos) Run() RunStats {
	return RunStats{Events: len(p.recs), Racy: p.racy, MaxConc: p.runMaxConc()}
}

// rapos is Sen's random partial-order sampling (docs/samplers.md, "How they choose", decision D11): from the
// schedulable events it picks a random set of pairwise independent ones, delivers them in
// creation order, and makes schedulable next what they sent and what depends on them.
type rapos struct {
	book
	dep   Dependence
	c     Chooser
	first bool
	batch []int32 // the current T
	queue []int32 // T's events not delivered yet, in creation order
	inT   []bool
	s     []int32
	en    []int32
	isEn  []bool
}

func newRAPOS(dep Dependence) *rapos { return &rapos{dep: dep} }

func (r *rapos) Begin(_ int, c Chooser) {
	r.reset()
	r.c, r.first = c, true
	r.batch, r.queue = r.batch[:0], r.queue[:0]
}

func (r *rapos) Created(e *Event) { r.add(e) }
func (r *rapos) Delivered(id uint64) {
	r.delivered(id)
}

func (r *rapos) Run() RunStats { return RunStats{Events: len(r.recs), Racy: r.racy} }

func (r *rapos) Next(enabled []uint64) uint64 {
	for len(r.isEn) < len(r.recs) {
		r.isEn = append(r.isEn, false)
		r.inT = append(r.inT, false)
	}
	r.en = r.en[:0]
	for _, id := range enabled {
		if i, ok := r.idx[id]; ok {
			r.en = append(r.en, i)
			r.isEn[i] = true
		}
	}
	defer func() {
		for _, i := range r.en {
			r.isEn[i] = false
		}
	}()
	for len(r.queue) > 0 {
		i := r.queue[0]
		r.queue = r.queue[1:]
		if r.isEn[i] {
			return r.recs[i].ev.ID
		}
	}
	if len(r.en) == 0 {
		return enabled[0] // events the sampler was not told of: nothing to go by
	}
	// schedulable := what T sent or what depends on T; at the start, everything enabled.
	r.s = r.s[:0]
	if r.first {
		r.first = false
		r.s = append(r.s, r.en...)
	} else {
		for _, t := range r.batch {
			r.inT[t] = true
		}
		for _, f := range r.en {
			if by := r.recs[f].by; by >= 0 && r.inT[by] {
				r.s = append(r.s, f)
				continue
			}
			for _, t := range r.batch {
				if r.dep.Dependent(&r.recs[f].ev, &r.recs[t].ev) {
					r.s = append(r.s, f)
					break
				}
			}
		}
		for _, t := range r.batch {
			r.inT[t] = false
		}
		if len(r.s) == 0 {
			r.s = append(r.s, r.en[r.c.IntN(len(r.en))])
		}
	}
	sortInt32(r.s)
	for i := len(r.s) - 1; i >= 1; i-- {
		j := r.c.IntN(i + 1)
		r.s[i], r.s[j] = r.s[j], r.s[i]
	}
	r.batch = append(r.batch[:0], r.s[0])
	for _, u := range r.s[1:] {
		indep := true
		for _, t := range r.batch {
			if r.dep.Dependent(&r.recs[u].ev, &r.recs[t].ev) {
				indep = false
				break
			}
		}
		if indep && r.c.IntN(2) == 1 {
			r.batch = append(r.batch, u)
		}
	}
	r.queue = append(r.queue[:0], r.batch...)
	sortInt32(r.queue)
	i := r.queue[0]
	r.queue = r.queue[1:]
	return r.recs[i].ev.ID
}

// sortInt32 sorts a short slice in place (insertion sort: the sets here are small and
// mostly sorted already).
func sortInt32(s []int32) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
