package words

import "runtime"

// Growable is an array of words that grows keeping its words: for a table that doubles.
// Where the system allows it (Linux), a mapped array grows by moving its mapping
// (mremap), which copies no page, so growing n words to 2n holds 2n words at the peak
// where allocating anew and copying holds 3n. Elsewhere, and in the Go heap below
// mapFrom, Grow allocates anew and copies. A cleanup releases mapped memory once the
// Growable is unreachable, unless Free did first; words from the Go heap are the
// collector's, and a Growable whose words never left it registers no cleanup (a small
// search's few tables paid for theirs in a process of a few milliseconds).
type Growable struct {
	W       []uint64
	r       *region // where W lives; the cleanup's argument, so it must not point back
	cleanup runtime.Cleanup
	watched bool // the cleanup is registered
}

// NewGrowable returns a Growable of n zeroed words.
func NewGrowable(n int) *Growable {
	g := &Growable{r: &region{}}
	g.W = g.r.alloc(n)
	g.watch()
	return g
}

// watch registers the cleanup that releases the region, once it holds memory of its own
// to release (region.owns).
func (g *Growable) watch() {
	if !g.watched && g.r.owns() {
		g.cleanup = runtime.AddCleanup(g, (*region).release, g.r)
		g.watched = true
	}
}

// Grow makes W n words long, keeping its words and zeroing the new ones; W may move.
// It does nothing when W is that long already.
func (g *Growable) Grow(n int) {
	if n <= len(g.W) {
		return
	}
	if w, ok := g.r.grow(n); ok {
		g.W = w
		return
	}
	var r region
	w := r.alloc(n)
	copy(w, g.W)
	g.r.release()
	*g.r = r // the region the cleanup holds
	g.W = w
	g.watch()
}

// Free releases the words now; W must not be used afterwards.
func (g *Growable) Free() {
	g.cleanup.Stop()
	g.r.release()
	g.W = nil
}
