package samplers

import "slices"

// prio is the chain-priority sampler of PCTCP, taPCT and d-POS (docs/samplers.md, "How they choose"): every
// chain gets a uniformly random initial priority, the highest chain with an enabled event
// runs, and when the event carrying a change point's label is about to be delivered its
// chain drops to the change point's reduced slot, below every initial priority.
type prio struct {
	book
	part  partitioner
	all   bool // every event gets a label (PCTCP); else only racy ones
	depth int
	n     int // labels drawn from 1..n
	c     Chooser

	cpVal  []int32 // change points: label values, in draw order (draw j → slot j)
	sorted []int32 // cpVal, ascending
	fired  []bool
	nfired int
	order  []int32 // every chain, ascending initial priority
	slot   []int32 // chain → its reduced slot, −1 while not demoted
	pos    []int32 // chain → its position in order
	dirty  bool
	count  int32 // labels given
	// dropDemoted removes a demoted chain from order instead of keeping its place
	// (decision D2 forbids it; tests set it to show why).
	dropDemoted bool
}

func newPrio(depth, n int, all bool, p Partition) *prio {
	return &prio{part: newPartitioner(p), all: all, depth: depth, n: n}
}

func (p *prio) Begin(_ int, c Chooser) {
	p.reset()
	p.part.reset()
	p.c = c
	p.order, p.slot = p.order[:0], p.slot[:0]
	p.count, p.nfired, p.dirty = 0, 0, true
	p.cpVal, p.fired = p.cpVal[:0], p.fired[:0]
	// Draw min(d−1, n) distinct values of 1..n: the j-th is removed at a uniform index
	// of what is left of the pool, kept in ascending order.
	p.sorted = p.sorted[:0]
	k := min(p.depth-1, p.n)
	for j := 0; j < k; j++ {
		v := int32(p.c.IntN(p.n-j) + 1)
		for _, u := range p.sorted { // ascending: skip the values already drawn
			if u <= v {
				v++
			}
		}
		p.cpVal = append(p.cpVal, v)
		p.fired = append(p.fired, false)
		p.sorted = append(p.sorted, v)
		sortInt32(p.sorted)
	}
}

func (p *prio) Created(e *Event) {
	i := p.add(e)
	c, fresh := p.part.insert(&p.book, i)
	p.recs[i].chain = c
	if fresh {
		for int(c) >= len(p.slot) {
			p.slot = append(p.slot, -1)
		}
		at := p.c.IntN(len(p.order) + 1)
		p.order = append(p.order, 0)
		copy(p.order[at+1:], p.order[at:])
		p.order[at] = c
		p.dirty = true
	}
	if p.all || e.Racy {
		p.count++
		p.recs[i].label = p.count
	}
}

func (p *prio) Next(enabled []uint64) uint64 {
	if p.dirty {
		for len(p.pos) < len(p.slot) {
			p.pos = append(p.pos, 0)
		}
		for at, c := range p.order {
			p.pos[c] = int32(at)
		}
		p.dirty = false
	}
	for {
		best, bi := enabled[0], int32(-1)
		var brank int64
		for _, id := range enabled {
			i, ok := p.idx[id]
			if !ok {
				continue
			}
			c := p.recs[i].chain
			rank := int64(p.slot[c]) // demoted chains: by slot, below every undemoted one
			if rank < 0 {
				rank = 1<<32 + int64(p.pos[c])
			}
			if bi < 0 || rank > brank || rank == brank && i < bi {
				best, bi, brank = id, i, rank
			}
		}
		if bi < 0 {
			return best
		}
		if v := p.recs[bi].label; v > 0 {
			if j := p.changePoint(v); j >= 0 {
				p.fired[j] = true
				p.nfired++
				c := p.recs[bi].chain
				p.slot[c] = int32(j)
				if p.dropDemoted { // the Akka code's rule, for the test of decision D2 only
					if at := slices.Index(p.order, c); at >= 0 {
						p.order = slices.Delete(p.order, at, at+1)
						p.dirty = true
					}
				}
				continue
			}
		}
		return best
	}
}

// changePoint returns the index of the unfired change point with label v, or −1.
func (p *prio) changePoint(v int32) int {
	for j, u := range p.cpVal {
		if u == v && !p.fired[j] {
			return j
		}
	}
	return -1
}

func (p *prio) Delivered(id uint64) { p.delivered(id) }

func (p *prio) Run() RunStats {
	return RunStats{Events: len(p.recs), Racy: p.racy, Chains: p.part.chains(), MaxConc: p.runMaxConc(),
		Fired: p.nfired, Labelled: int(p.count), Unlabeled: len(p.recs) - int(p.count)}
}
