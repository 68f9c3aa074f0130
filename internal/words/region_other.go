//go:build !linux

package words

// region is a Growable's memory where mappings cannot be moved: words from Alloc,
// which Grow copies into a new region.
type region struct{ w []uint64 }

func (r *region) alloc(n int) []uint64 {
	r.w = Alloc(n)
	return r.w
}

func (r *region) grow(int) ([]uint64, bool) { return nil, false }

func (r *region) release() {
	if r.w != nil {
		Free(r.w)
		r.w = nil
	}
}
