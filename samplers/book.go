package samplers

// book keeps the events of one run in creation order, with their causal parents, for
// the samplers that need more than the enabled set.
type book struct {
	idx     map[uint64]int32
	recs    []rec
	arena   []int32 // the parents of every event, back to back
	pending int     // events created and not delivered
	maxConc int     // most distinct events co-enabled with one delivered event
	racy    int
	stamp   []uint32 // per event: epoch of the last ancestor walk that saw it
	epoch   uint32
	walk    []int32
}

type rec struct {
	ev         Event // After is nil: the parents are in the arena
	par, npar  int32
	by         int32 // the event whose delivery created this one; −1 at the start
	pending    bool
	chain      int32
	label      int32
	pri        uint64
	pendAt     int32 // events pending when this one was created
	madeBefore int32 // events created before this one
}

func (b *book) reset() {
	if b.idx == nil {
		b.idx = make(map[uint64]int32)
	}
	clear(b.idx)
	b.recs = b.recs[:0]
	b.arena = b.arena[:0]
	b.pending, b.maxConc, b.racy = 0, 0, 0
}

// add records e and returns its creation index (0-based).
func (b *book) add(e *Event) int32 {
	i := int32(len(b.recs))
	r := rec{ev: *e, by: -1, pending: true, chain: -1, par: int32(len(b.arena)), pendAt: int32(b.pending), madeBefore: i}
	r.ev.After = nil
	for k, a := range e.After {
		if j, ok := b.idx[a]; ok {
			b.arena = append(b.arena, j)
			if k == 0 {
				r.by = j
			}
		}
	}
	r.npar = int32(len(b.arena)) - r.par
	b.recs = append(b.recs, r)
	b.idx[e.ID] = i
	b.pending++
	if e.Racy {
		b.racy++
	}
	return i
}

// delivered marks id delivered and returns its index, or −1 for an unknown event.
func (b *book) delivered(id uint64) int32 {
	i, ok := b.idx[id]
	if !ok {
		return -1
	}
	r := &b.recs[i]
	if r.pending {
		r.pending = false
		b.pending--
		b.maxConc = max(b.maxConc, b.conc(i))
	}
	return i
}

// conc is how many distinct events were pending together with event i while it was:
// those pending at its creation and those created since. On an unordered network every
// pending event is enabled, so this is the number co-enabled with it.
func (b *book) conc(i int32) int {
	r := &b.recs[i]
	return int(r.pendAt) + len(b.recs) - int(r.madeBefore) - 1
}

// runMaxConc is 1 + the most events co-enabled with one event of the run so far.
func (b *book) runMaxConc() int {
	m := b.maxConc
	for i := range b.recs {
		if b.recs[i].pending {
			m = max(m, b.conc(int32(i)))
		}
	}
	return m + 1
}

func (b *book) parents(i int32) []int32 {
	r := &b.recs[i]
	return b.arena[r.par : r.par+r.npar]
}

// ancestors calls f once for every event causally before event y.
func (b *book) ancestors(y int32, f func(x int32)) {
	for len(b.stamp) < len(b.recs) {
		b.stamp = append(b.stamp, 0)
	}
	b.epoch++
	if b.epoch == 0 {
		clear(b.stamp)
		b.epoch = 1
	}
	b.walk = append(b.walk[:0], b.parents(y)...)
	for len(b.walk) > 0 {
		x := b.walk[len(b.walk)-1]
		b.walk = b.walk[:len(b.walk)-1]
		if b.stamp[x] == b.epoch {
			continue
		}
		b.stamp[x] = b.epoch
		f(x)
		b.walk = append(b.walk, b.parents(x)...)
	}
}

// before reports whether event x is causally before event y.
func (b *book) before(x, y int32) bool {
	found := false
	b.ancestors(y, func(a int32) { found = found || a == x })
	return found
}
