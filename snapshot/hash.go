package snapshot

import (
	"math"
	"reflect"
	"unsafe"

	"github.com/ravelmc/ravel/model"
)

// Mode selects how values are copied and fingerprinted. The zero Mode uses a value's own
// Clone and HashState methods where it has them and the reflective fallbacks elsewhere.
type Mode struct {
	// Reflective ignores Clone and HashState methods, at the top and inside values, and
	// always uses the fallbacks; it exists to measure them and to check the fast paths
	// against them.
	Reflective bool
}

func (m Mode) planner() *planner {
	if m.Reflective {
		return reflectivePlanner
	}
	return fastPlanner
}

// Hash writes v into h: its dynamic type's identity, then its value — through its
// HashState method when it has one (unless m.Reflective), else by the reflective walk
// described in the package documentation, which uses the HashState methods of the parts
// that have one. Values that are reflect.DeepEqual write equal sequences, with the
// exceptions the package documentation lists; a nil v writes a tag of its own.
//
// h should come from m.NewHasher, so that HashState methods can hand parts to h.Value.
//
// Hash panics with an *UnhashableError on a non-nil func, chan or unsafe.Pointer inside
// v: they have no value to hash. Mode.CheckHashable reports them before any hashing is
// done, with the path to the part.
func (m Mode) Hash(h *model.Hasher, v any) {
	hashTop(m.planner(), h, v, nil)
}

// Fingerprint returns the fingerprint of v: the Sum64 of a fresh m.NewHasher after
// m.Hash(h, v). Once v's type has been seen it allocates nothing (the walk's scratch
// state is pooled), unless a HashState method does.
func (m Mode) Fingerprint(v any) uint64 { return m.planner().fingerprint(v) }

func (pl *planner) fingerprint(v any) uint64 {
	w := pl.pool.Get().(*walker)
	w.h.Reset()
	hashTop(pl, &w.h, v, w)
	sum := w.h.Sum64()
	pl.pool.Put(w)
	return sum
}

// NewHasher returns a model.Hasher whose Value method falls back to m's reflective walk
// (as m.Hash) for values without a HashState method.
func (m Mode) NewHasher() *model.Hasher {
	if m.Reflective {
		return model.NewHasher(hashFallbackReflective)
	}
	return model.NewHasher(hashFallback)
}

// hashFallback and hashFallbackReflective are the fallbacks the Hashers of the two modes
// are made with.
func hashFallback(h *model.Hasher, v any)           { hashTop(fastPlanner, h, v, nil) }
func hashFallbackReflective(h *model.Hasher, v any) { hashTop(reflectivePlanner, h, v, nil) }

// hashTop writes v with its type identity, taking a walker from the pool when the walk
// needs one and w is nil.
func hashTop(pl *planner, h *model.Hasher, v any, w *walker) {
	e := words(&v)
	if e.typ == nil {
		h.Uint64(nilTag)
		return
	}
	p := pl.planOf(v)
	h.Uint64(p.id)
	if w == nil && p.needsWalker {
		// A walk that panics does not return its walker, whose state may be left half
		// way; the pool simply makes another.
		w = pl.pool.Get().(*walker)
		p.fromWord(h, e.data, w)
		pl.pool.Put(w)
		return
	}
	p.fromWord(h, e.data, w)
}

// walker is the scratch state of one walk: the map iterators and sub-hashers in use,
// and the references on the current path, for the cycle guard. Walkers are pooled, so a
// walk allocates only the first time it meets a new map type at a new depth.
type walker struct {
	h        model.Hasher  // the Hasher of Fingerprint
	maps     [][]*mapFrame // per map nesting depth, one frame per map type met there
	mapDepth int
	depth    int         // guarded references on the current path
	path     []ref       // guarded references beyond freeDepth, outermost first
	index    map[ref]int // position in path, kept when path is long
	indexed  bool
}

// ref identifies a reference on the current path. The plan tells apart a pointer to a
// struct from a pointer to its first field, and n a slice from its prefixes.
type ref struct {
	addr unsafe.Pointer
	n    int
	pl   *plan
}

const (
	// freeDepth is how many guarded references deep a walk goes before it starts to
	// track them: acyclic values of ordinary depth pay nothing for the guard, and a
	// cycle is unrolled to this depth and then closed by a back-reference.
	freeDepth = 32
	// indexAt is the path length from which the path is also kept in a map, so that
	// deep acyclic values (long lists) cost linear time, not quadratic.
	indexAt = 32
)

// enter puts r on the current path. When r is on it already — a cycle — it reports
// false with the distance back to r's first occurrence, and r is not entered.
func (w *walker) enter(r ref) (back int, ok bool) {
	w.depth++
	if w.depth <= freeDepth {
		return 0, true
	}
	if w.indexed {
		if i, found := w.index[r]; found {
			w.depth--
			return len(w.path) - i, false
		}
	} else {
		for i := len(w.path) - 1; i >= 0; i-- {
			if w.path[i] == r {
				w.depth--
				return len(w.path) - i, false
			}
		}
	}
	w.path = append(w.path, r)
	switch {
	case w.indexed:
		w.index[r] = len(w.path) - 1
	case len(w.path) == indexAt:
		if w.index == nil {
			w.index = map[ref]int{}
		}
		for i, q := range w.path {
			w.index[q] = i
		}
		w.indexed = true
	}
	return 0, true
}

// exit takes the innermost reference off the current path.
func (w *walker) exit() {
	if w.depth > freeDepth {
		n := len(w.path) - 1
		if w.indexed {
			delete(w.index, w.path[n])
			if n < indexAt {
				w.indexed = false
				clear(w.index)
			}
		}
		w.path[n] = ref{} // let the value go
		w.path = w.path[:n]
	}
	w.depth--
}

// mapFrame is the scratch state for iterating one map type at one nesting depth.
type mapFrame struct {
	pl           *plan // the map's plan
	it           reflect.MapIter
	k, v         reflect.Value // addressable scratch for the current key and value
	kAddr, vAddr unsafe.Pointer
	sub          model.Hasher // hashes one entry
}

// pushMap returns the frame for a map of plan p at the next nesting depth.
func (w *walker) pushMap(p *plan) *mapFrame {
	d := w.mapDepth
	w.mapDepth++
	if d == len(w.maps) {
		w.maps = append(w.maps, nil)
	}
	for _, f := range w.maps[d] {
		if f.pl == p {
			return f
		}
	}
	f := &mapFrame{pl: p, k: reflect.New(p.typ.Key()).Elem(), v: reflect.New(p.typ.Elem()).Elem()}
	f.kAddr, f.vAddr = unsafe.Pointer(f.k.UnsafeAddr()), unsafe.Pointer(f.v.UnsafeAddr())
	w.maps[d] = append(w.maps[d], f)
	return f
}

// popMap releases f, dropping what it holds of the map so that the pool keeps no user
// data alive.
func (w *walker) popMap(f *mapFrame) {
	f.it.Reset(reflect.Value{})
	f.k.SetZero()
	f.v.SetZero()
	w.mapDepth--
}

// writeScalar writes the scalar of kind o at q.
func writeScalar(h *model.Hasher, o op, q unsafe.Pointer) {
	switch o {
	case opBool:
		h.Bool(*(*bool)(q))
	case opInt8:
		h.Uint64(uint64(*(*int8)(q)))
	case opInt16:
		h.Uint64(uint64(*(*int16)(q)))
	case opInt32:
		h.Uint64(uint64(*(*int32)(q)))
	case opInt64:
		h.Uint64(uint64(*(*int64)(q)))
	case opUint8:
		h.Uint64(uint64(*(*uint8)(q)))
	case opUint16:
		h.Uint64(uint64(*(*uint16)(q)))
	case opUint32:
		h.Uint64(uint64(*(*uint32)(q)))
	case opUint64:
		h.Uint64(*(*uint64)(q))
	case opFloat32:
		h.Uint64(floatBits(float64(*(*float32)(q))))
	case opFloat64:
		h.Uint64(floatBits(*(*float64)(q)))
	case opComplex64:
		c := *(*complex64)(q)
		h.Uint64(floatBits(float64(real(c))))
		h.Uint64(floatBits(float64(imag(c))))
	case opComplex128:
		c := *(*complex128)(q)
		h.Uint64(floatBits(real(c)))
		h.Uint64(floatBits(imag(c)))
	case opString:
		h.String(*(*string)(q))
	}
}

// floatBits returns f's bits, with −0 made +0: reflect.DeepEqual compares floats with ==.
func floatBits(f float64) uint64 {
	if f == 0 {
		return 0
	}
	return math.Float64bits(f)
}

// UnhashableError is what Mode.Hash panics with when it meets a non-nil func, channel or
// unsafe.Pointer, which has no value to fingerprint. It names only the type met; a caller
// that recovers it names the part at fault with Mode.CheckHashable on the value it was
// hashing.
type UnhashableError struct {
	// Type is the type of the part that could not be fingerprinted.
	Type reflect.Type
}

// Error returns "snapshot: cannot fingerprint a non-nil <type>: …".
func (e *UnhashableError) Error() string {
	return "snapshot: cannot fingerprint a non-nil " + e.Type.String() +
		": funcs, channels and unsafe pointers have no value to hash (Mode.CheckHashable reports them up front)"
}
