package dpor

// Random returns DS2's systematic random sampler: repeated walks from the initial state,
// each delivering a uniformly random enabled event at every state until none is left,
// until the schedule budget runs out. Walk w draws from a generator seeded by (seed, w).
func Random(seed int64) Strategy { return &random{seed: seed} }

type random struct{ seed int64 }

func (r *random) Name() string { return "random" }
func (r *random) Needs() Needs { return Needs{} }
func (r *random) Seed() int64  { return r.seed }

// Arrive is never called for a Sampler; it explores everything if it were.
func (r *random) Arrive(p Path) {
	nodes := p.Nodes()
	top := &nodes[len(nodes)-1]
	top.Backtrack.AddAll(len(top.Enabled))
}
