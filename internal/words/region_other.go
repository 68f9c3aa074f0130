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

// mapped reports whether the region is a mapping rather than words from the Go heap:
// Alloc's mappings are not told apart from the heap here, so never.
func (r *region) mapped() bool { return false }

// owns reports whether release may have memory to give back: Alloc's words may be a
// mapping that Free unmaps, which is not told apart here, so always.
func (r *region) owns() bool { return true }

func (r *region) release() {
	if r.w != nil {
		Free(r.w)
		r.w = nil
	}
}
