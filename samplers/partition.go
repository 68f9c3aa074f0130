package samplers

// partitioner assigns each new event to a chain: a set of events totally ordered by
// causality (docs/samplers.md, "How they choose").
type partitioner interface {
	reset()
	// insert puts event y (just added to b) in a chain and says whether the chain is new.
	insert(b *book, y int32) (chain int32, fresh bool)
	chains() int
}

func newPartitioner(p Partition) partitioner {
	if p == Singleton {
		return &singleton{}
	}
	return &agPartition{paper: p == AGPaper}
}

type singleton struct{ n int32 }

func (s *singleton) reset()      { s.n = 0 }
func (s *singleton) chains() int { return int(s.n) }
func (s *singleton) insert(_ *book, _ int32) (int32, bool) {
	s.n++
	return s.n - 1, true
}

// agPartition is Agarwal and Garg's online chain partition (seeds/001 Alg. 2) in levels
// B0, B1, …: |Bi| ≤ i+1, and the tails of one level's chains are pairwise unordered. With
// paper unset it swaps levels only when two or more chains of a level fit (decision D1).
type agPartition struct {
	paper  bool
	levels [][]int32 // chain identities per level
	tails  []int32   // chain → its last event
	fit    []uint32  // chain → epoch of the insertion whose new event it fits
	epoch  uint32
}

func (p *agPartition) reset() {
	for i := range p.levels {
		p.levels[i] = p.levels[i][:0]
	}
	p.levels = p.levels[:0]
	p.tails = p.tails[:0]
}

func (p *agPartition) chains() int { return len(p.tails) }

func (p *agPartition) insert(b *book, y int32) (int32, bool) {
	p.epoch++
	if p.epoch == 0 {
		clear(p.fit)
		p.epoch = 1
	}
	// A chain fits when its tail is causally before y: walk y's ancestors for tails.
	b.ancestors(y, func(x int32) {
		if c := b.recs[x].chain; c >= 0 && p.tails[c] == x {
			p.fit[c] = p.epoch
		}
	})
	for i := 0; ; i++ {
		if i == len(p.levels) {
			c := p.open(y)
			if len(p.levels) < cap(p.levels) {
				p.levels = p.levels[:i+1]
				p.levels[i] = append(p.levels[i][:0], c)
			} else {
				p.levels = append(p.levels, []int32{c})
			}
			if p.paper && i >= 1 {
				p.swap(i, c)
			}
			return c, true
		}
		lvl := p.levels[i]
		best, nf := int32(-1), 0
		for _, c := range lvl {
			if p.fit[c] == p.epoch {
				nf++
				if best < 0 || p.tails[c] < p.tails[best] {
					best = c
				}
			}
		}
		if nf == 0 {
			if len(lvl) <= i {
				c := p.open(y)
				p.levels[i] = append(p.levels[i], c)
				if p.paper && i >= 1 {
					p.swap(i, c)
				}
				return c, true
			}
			continue
		}
		p.tails[best] = y
		if nf >= 2 || p.paper && i >= 1 {
			p.swap(i, best)
		}
		return best, false
	}
}

func (p *agPartition) open(y int32) int32 {
	c := int32(len(p.tails))
	p.tails = append(p.tails, y)
	for len(p.fit) < len(p.tails) {
		p.fit = append(p.fit, 0)
	}
	return c
}

// swap makes (B(i−1), Bi) := (Bi \ {c}, B(i−1) ∪ {c}).
func (p *agPartition) swap(i int, c int32) {
	prev := make([]int32, 0, len(p.levels[i]))
	for _, x := range p.levels[i] {
		if x != c {
			prev = append(prev, x)
		}
	}
	cur := append(make([]int32, 0, len(p.levels[i-1])+1), p.levels[i-1]...)
	cur = append(cur, c)
	p.levels[i-1], p.levels[i] = prev, cur
}
