package samplers

import (
	"fmt"
	"math"
)

// Bound is a sampler's lower bound on the probability of hitting a bug of depth d in
// one run (docs/samplers.md), with the inputs it was computed from.
type Bound struct {
	// Formula is the bound in the papers' notation, e.g. "1/(m·n(n−1)…(n−d+2))".
	Formula string `json:"formula"`
	// D is the depth; N the number of labels change points are drawn from (n or n̂); K
	// the observed factor in front (max chains m, or maxConc).
	D     int    `json:"d"`
	N     int    `json:"n"`
	NName string `json:"n_name"`
	K     int    `json:"k"`
	KName string `json:"k_name"`
	// P is the bound; Inverse 1/P; For95 ⌈ln 20 / P⌉, the runs that give a 95% chance of
	// a hit at the bound. All three are 0 (absent from JSON) when the bound is undefined.
	P       float64 `json:"p,omitempty"`
	Inverse float64 `json:"inverse,omitempty"`
	For95   float64 `json:"runs_for_95,omitempty"`
	// Undefined, when set, says why there is no bound: more change points (d−1) than
	// labels to draw them from (n or n̂), or no run to observe the factor k in. The
	// formula's falling factorial then passes through 0: no placement of the change
	// points qualifies, and the sampler guarantees nothing.
	Undefined string `json:"undefined,omitempty"`
}

// Bound returns the bound of c's sampler at depth c.Depth with n labels and observed
// factor k (max chains for PCTCP and taPCT, maxConc for d-POS); false for samplers
// without one.
func (c *Config) Bound(n, k int) (Bound, bool) {
	if !c.HasBound() {
		return Bound{}, false
	}
	b := Bound{D: c.Depth, N: n, K: k, NName: "n", KName: "m"}
	if c.NeedsNHat() {
		b.NName = "n̂"
	}
	if c.Name == "dpos" {
		b.KName = "maxConc"
	}
	b.Formula = fmt.Sprintf("1/(%s·%s(%s−1)…(%s−d+2))", b.KName, b.NName, b.NName, b.NName)
	b.P = FallingBound(k, n, c.Depth)
	switch {
	case c.Depth-1 > n:
		b.Undefined = fmt.Sprintf("d−1 = %d change points cannot be placed among %s = %d labels (d may be at most %s+1 = %d)", c.Depth-1, b.NName, n, b.NName, n+1)
	case k < 1:
		b.Undefined = fmt.Sprintf("no run observed %s", b.KName)
	}
	if b.P > 0 {
		b.Inverse = math.Round(1 / b.P) // k·n(n−1)…, an integer
		b.For95 = math.Ceil(math.Log(20) / b.P)
	}
	return b, true
}

// FallingBound is 1/(k·n(n−1)…(n−d+2)): the falling factorial has d−1 factors. It is 0
// when a factor is not positive (fewer labels than change points: no tuple qualifies).
func FallingBound(k, n, d int) float64 {
	den := float64(k)
	for i := 0; i < d-1; i++ {
		if n-i <= 0 {
			return 0
		}
		den *= float64(n - i)
	}
	if den <= 0 {
		return 0
	}
	return 1 / den
}

// Wilson returns the 95% Wilson score interval of hits successes in n trials (0 ≤ hits ≤
// n): [0, 1] for n 0, NaN outside that domain.
func Wilson(hits, n int64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(hits) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return max(0, mid-half), min(1, mid+half)
}
