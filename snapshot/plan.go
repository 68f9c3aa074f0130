package snapshot

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ravelmc/ravel/model"
)

// A plan says how to fingerprint values of one type. Plans are compiled once per type
// (and per Mode: the reflective one ignores HashState methods) and then run without
// consulting reflect.Type: a struct's plan is a list of field offsets with the scalar
// fields inlined, so hashing a small struct is a loop of loads and hasher rounds.

// hashFn writes the value at p (or, for a plan's fromWord, the value held in an
// interface's data word p) into h. w is the walk's scratch state; it is nil when the
// plan's needsWalker is false.
type hashFn func(h *model.Hasher, p unsafe.Pointer, w *walker)

// op is how a scalar is read and written inline, without a call through a plan.
type op uint8

const (
	opCall op = iota // not a scalar (or one with a HashState method): call the plan
	opBool
	opInt8
	opInt16
	opInt32
	opInt64
	opUint8
	opUint16
	opUint32
	opUint64
	opFloat32
	opFloat64
	opComplex64
	opComplex128
	opString
)

// Tags written in place of, or in front of, values.
const (
	nilTag  uint64 = 0                  // a nil pointer, map, slice, interface, func, chan
	ptrTag  uint64 = 1                  // a non-nil pointer, before its pointee
	backTag uint64 = 0xb7e151628aed2a6b // a back-reference in a cyclic value, before its distance
)

// plan is the compiled fingerprinting of one type.
type plan struct {
	typ     reflect.Type
	id      uint64 // typeID(typ)
	size    uintptr
	scalar  op             // inline op for scalars without HashState, else opCall
	direct  bool           // isDirect(typ)
	tw      unsafe.Pointer // type word of typ
	ptrWord unsafe.Pointer // type word of *typ
	// hash writes the value stored at p.
	hash hashFn
	// fromWord writes the value held in an interface: the data word itself when direct,
	// else the value it points to (then it is hash).
	fromWord hashFn
	// needsWalker says whether the walk needs scratch state: for maps, interfaces and the
	// cycle guard.
	needsWalker bool
}

// planner compiles and caches the plans of one Mode.
type planner struct {
	reflective bool
	// plans maps type words to finished plans; it is replaced, never modified, so that
	// lookups take no lock.
	plans atomic.Pointer[map[unsafe.Pointer]*plan]
	mu    sync.Mutex             // serialises compilation
	done  map[reflect.Type]*plan // finished plans, under mu
	pool  sync.Pool              // of *walker
}

// The planners of the two modes, made in init: their Hashers fall back to them.
var fastPlanner, reflectivePlanner *planner

func init() {
	fastPlanner = newPlanner(false, hashFallback)
	reflectivePlanner = newPlanner(true, hashFallbackReflective)
}

// newPlanner returns an empty planner whose walkers' Hashers fall back to fallback.
func newPlanner(reflective bool, fallback func(*model.Hasher, any)) *planner {
	pl := &planner{reflective: reflective, done: map[reflect.Type]*plan{}}
	pl.pool.New = func() any { return &walker{h: *model.NewHasher(fallback)} }
	return pl
}

// lookup returns the finished plan for the type word tw, or nil.
func (pl *planner) lookup(tw unsafe.Pointer) *plan {
	if m := pl.plans.Load(); m != nil {
		return (*m)[tw]
	}
	return nil
}

// planOf returns the plan of v's dynamic type; v is not nil.
func (pl *planner) planOf(v any) *plan {
	if p := pl.lookup(words(&v).typ); p != nil {
		return p
	}
	return pl.compile(reflect.TypeOf(v))
}

// compile returns t's plan, compiling it and every plan it needs, and publishes them.
func (pl *planner) compile(t reflect.Type) *plan {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pending := map[reflect.Type]*plan{}
	p := pl.make(t, pending)
	if len(pending) > 0 {
		next := map[unsafe.Pointer]*plan{}
		if old := pl.plans.Load(); old != nil {
			for k, v := range *old {
				next[k] = v
			}
		}
		for t, q := range pending {
			pl.done[t] = q
			next[q.tw] = q
		}
		pl.plans.Store(&next)
	}
	return p
}

var stateHasherType = reflect.TypeFor[model.StateHasher]()

// opaque reports whether values of type t are hashed by their own HashState method.
// Pointers and interfaces never are: the pointee's or dynamic value's plan decides.
func (pl *planner) opaque(t reflect.Type) bool {
	if pl.reflective || t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return false
	}
	return reflect.PointerTo(t).Implements(stateHasherType) // includes T's own methods
}

// make returns t's plan: finished, pending (being compiled higher up the recursion, so
// its functions may not be set yet: callers must reach them through the plan at run
// time), or new.
func (pl *planner) make(t reflect.Type, pending map[reflect.Type]*plan) *plan {
	if p := pl.done[t]; p != nil {
		return p
	}
	if p := pending[t]; p != nil {
		return p
	}
	p := &plan{
		typ: t, id: typeID(t), size: t.Size(),
		direct: isDirect(t), tw: typeWord(t), ptrWord: typeWord(reflect.PointerTo(t)),
	}
	pending[t] = p
	p.needsWalker = pl.needsWalker(t)
	if pl.opaque(t) {
		p.hash, p.fromWord = hashStateAt(p), hashStateAt(p)
		if p.direct {
			p.fromWord = hashStateWord(p, t.Implements(stateHasherType))
		}
		return p
	}
	var word hashFn // for pointer-shaped kinds: hash from the data word
	switch {
	case scalarOp(t) != opCall:
		o := scalarOp(t)
		p.scalar = o
		p.hash = func(h *model.Hasher, q unsafe.Pointer, _ *walker) { writeScalar(h, o, q) }
	default:
		switch t.Kind() {
		case reflect.Struct:
			p.hash = pl.structHash(t, pending)
		case reflect.Array:
			p.hash = arrayHash(t.Len(), pl.make(t.Elem(), pending))
		case reflect.Slice:
			p.hash = sliceHash(p, pl.make(t.Elem(), pending), pl.mayCycle(t))
		case reflect.Pointer:
			word = pointerWord(p, pl.make(t.Elem(), pending), pl.mayCycle(t))
		case reflect.Map:
			word = mapWord(p, pl.make(t.Key(), pending), pl.make(t.Elem(), pending), pl.mayCycle(t))
		case reflect.Interface:
			p.hash = pl.interfaceHash(p)
		default: // Func, Chan, UnsafePointer: no value to hash
			word = unhashableWord(p)
		}
	}
	switch {
	case word != nil:
		p.fromWord = word
		p.hash = func(h *model.Hasher, q unsafe.Pointer, w *walker) { word(h, *(*unsafe.Pointer)(q), w) }
	case p.direct:
		// A struct or array wrapping one pointer-shaped value, whose data word is that
		// value: hash it as the wrapped value, which is all the wrapper's plan writes.
		inner := pl.make(wrapped(t), pending)
		p.fromWord = func(h *model.Hasher, d unsafe.Pointer, w *walker) { inner.fromWord(h, d, w) }
	default:
		p.fromWord = p.hash
	}
	return p
}

// wrapped returns the one part of non-zero size of a struct or array type.
func wrapped(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Array {
		return t.Elem()
	}
	for i := range t.NumField() {
		if f := t.Field(i); f.Type.Size() != 0 {
			return f.Type
		}
	}
	panic("snapshot: " + t.String() + " wraps no value") // unreachable: isDirect saw one
}

// children returns the types a value of type t holds directly (not through an interface).
func children(t reflect.Type) []reflect.Type {
	switch t.Kind() {
	case reflect.Struct:
		out := make([]reflect.Type, t.NumField())
		for i := range out {
			out[i] = t.Field(i).Type
		}
		return out
	case reflect.Array, reflect.Slice, reflect.Pointer:
		return []reflect.Type{t.Elem()}
	case reflect.Map:
		return []reflect.Type{t.Key(), t.Elem()}
	}
	return nil
}

// reaches reports whether some type reachable from t's parts (t itself included only
// when it recurs) satisfies pred, without looking inside types with HashState methods.
func (pl *planner) reaches(t reflect.Type, pred func(reflect.Type) bool) bool {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type) bool
	walk = func(u reflect.Type) bool {
		if pred(u) {
			return true
		}
		if seen[u] || pl.opaque(u) {
			return false
		}
		seen[u] = true
		for _, c := range children(u) {
			if walk(c) {
				return true
			}
		}
		return false
	}
	for _, c := range children(t) {
		if walk(c) {
			return true
		}
	}
	return false
}

// mayCycle reports whether a value of the reference type t (pointer, slice, map) can be
// reached from itself: when t recurs, or when its parts hold an interface, which can hold
// anything. Only such references pay for the cycle guard.
func (pl *planner) mayCycle(t reflect.Type) bool {
	return pl.reaches(t, func(u reflect.Type) bool { return u == t || u.Kind() == reflect.Interface })
}

// needsWalker reports whether hashing a t needs the walker's scratch state.
func (pl *planner) needsWalker(t reflect.Type) bool {
	if pl.opaque(t) {
		return false
	}
	needs := func(u reflect.Type) bool {
		switch u.Kind() {
		case reflect.Map, reflect.Interface:
			return true
		case reflect.Pointer, reflect.Slice:
			return pl.mayCycle(u)
		}
		return false
	}
	return needs(t) || pl.reaches(t, func(u reflect.Type) bool { return !pl.opaque(u) && needs(u) })
}

// scalarOp returns the inline op for t, or opCall.
func scalarOp(t reflect.Type) op {
	switch t.Kind() {
	case reflect.Bool:
		return opBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return [...]op{1: opInt8, 2: opInt16, 4: opInt32, 8: opInt64}[t.Size()]
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return [...]op{1: opUint8, 2: opUint16, 4: opUint32, 8: opUint64}[t.Size()]
	case reflect.Float32:
		return opFloat32
	case reflect.Float64:
		return opFloat64
	case reflect.Complex64:
		return opComplex64
	case reflect.Complex128:
		return opComplex128
	case reflect.String:
		return opString
	}
	return opCall
}

// hashStateAt calls the HashState method of the value at q, through *T, whose method set
// holds T's methods too, so that nothing is copied or boxed.
func hashStateAt(p *plan) hashFn {
	return func(h *model.Hasher, q unsafe.Pointer, _ *walker) {
		makeAny(p.ptrWord, q).(model.StateHasher).HashState(h)
	}
}

// hashStateWord calls the HashState method of a direct value held in an interface.
func hashStateWord(p *plan, valueMethod bool) hashFn {
	if valueMethod {
		return func(h *model.Hasher, d unsafe.Pointer, _ *walker) {
			makeAny(p.tw, d).(model.StateHasher).HashState(h)
		}
	}
	return func(h *model.Hasher, d unsafe.Pointer, _ *walker) {
		cp := d // a pointer method needs an address; rare enough to allocate
		makeAny(p.ptrWord, unsafe.Pointer(&cp)).(model.StateHasher).HashState(h)
	}
}

// field is one struct field of a struct plan.
type field struct {
	off    uintptr
	scalar op
	pl     *plan
}

func (pl *planner) structHash(t reflect.Type, pending map[reflect.Type]*plan) hashFn {
	var fields []field
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type.Size() == 0 {
			continue // every value of a zero-size type is equal to every other
		}
		fp := pl.make(f.Type, pending)
		fields = append(fields, field{off: f.Offset, scalar: fp.scalar, pl: fp})
	}
	return func(h *model.Hasher, q unsafe.Pointer, w *walker) {
		for i := range fields {
			f := &fields[i]
			if f.scalar != opCall {
				writeScalar(h, f.scalar, unsafe.Add(q, f.off))
			} else {
				f.pl.hash(h, unsafe.Add(q, f.off), w)
			}
		}
	}
}

func arrayHash(n int, ep *plan) hashFn {
	if n == 0 || ep.size == 0 {
		return func(*model.Hasher, unsafe.Pointer, *walker) {}
	}
	return func(h *model.Hasher, q unsafe.Pointer, w *walker) { writeElems(h, ep, q, n, w) }
}

// writeElems writes n consecutive values of ep's type starting at q.
func writeElems(h *model.Hasher, ep *plan, q unsafe.Pointer, n int, w *walker) {
	switch ep.scalar {
	case opUint8:
		h.Bytes(unsafe.Slice((*byte)(q), n))
	case opInt64, opUint64:
		for _, x := range unsafe.Slice((*uint64)(q), n) {
			h.Uint64(x)
		}
	case opCall:
		for i := range n {
			ep.hash(h, unsafe.Add(q, uintptr(i)*ep.size), w)
		}
	default:
		for i := range n {
			writeScalar(h, ep.scalar, unsafe.Add(q, uintptr(i)*ep.size))
		}
	}
}

func sliceHash(p, ep *plan, guarded bool) hashFn {
	return func(h *model.Hasher, q unsafe.Pointer, w *walker) {
		s := *(*[]byte)(q) // every slice header has this layout
		data, n := unsafe.Pointer(unsafe.SliceData(s)), len(s)
		if data == nil {
			h.Uint64(nilTag) // nil, as reflect.Value.IsNil sees it
			return
		}
		h.Uint64(uint64(n) + 1)
		if n == 0 || ep.size == 0 {
			return
		}
		if guarded {
			if back, ok := w.enter(ref{data, n, p}); !ok {
				h.Uint64(backTag)
				h.Uint64(uint64(back))
				return
			}
			writeElems(h, ep, data, n, w)
			w.exit()
			return
		}
		writeElems(h, ep, data, n, w)
	}
}

func pointerWord(p, ep *plan, guarded bool) hashFn {
	return func(h *model.Hasher, d unsafe.Pointer, w *walker) {
		if d == nil {
			h.Uint64(nilTag)
			return
		}
		h.Uint64(ptrTag)
		if guarded {
			if back, ok := w.enter(ref{d, 0, p}); !ok {
				h.Uint64(backTag)
				h.Uint64(uint64(back))
				return
			}
			ep.hash(h, d, w)
			w.exit()
			return
		}
		ep.hash(h, d, w)
	}
}

// mapWord hashes a map as its length and the sum of the mixed hashes of its entries, each
// hashed by a fresh sub-hasher: a sum does not depend on the order of iteration.
func mapWord(p, kp, vp *plan, guarded bool) hashFn {
	return func(h *model.Hasher, d unsafe.Pointer, w *walker) {
		if d == nil {
			h.Uint64(nilTag)
			return
		}
		if guarded {
			if back, ok := w.enter(ref{d, 0, p}); !ok {
				h.Uint64(backTag)
				h.Uint64(uint64(back))
				return
			}
			defer w.exit()
		}
		m := reflect.ValueOf(makeAny(p.tw, d))
		h.Uint64(uint64(m.Len()) + 1)
		f := w.pushMap(p)
		f.it.Reset(m)
		var sum uint64
		for f.it.Next() {
			f.k.SetIterKey(&f.it)
			f.v.SetIterValue(&f.it)
			f.sub = h.Sub()
			writePart(&f.sub, kp, f.kAddr, w)
			writePart(&f.sub, vp, f.vAddr, w)
			sum += model.Mix64(f.sub.Sum64())
		}
		w.popMap(f)
		h.Uint64(sum)
	}
}

// writePart writes the value at q of plan p, inline when it is a scalar.
func writePart(h *model.Hasher, p *plan, q unsafe.Pointer, w *walker) {
	if p.scalar != opCall {
		writeScalar(h, p.scalar, q)
		return
	}
	p.hash(h, q, w)
}

// interfaceHash writes the dynamic type's identity and then the dynamic value.
func (pl *planner) interfaceHash(p *plan) hashFn {
	if p.typ.NumMethod() == 0 {
		return func(h *model.Hasher, q unsafe.Pointer, w *walker) {
			pl.writeDynamic(h, *(*any)(q), w)
		}
	}
	return func(h *model.Hasher, q unsafe.Pointer, w *walker) {
		// Read a non-empty interface through reflect, which knows its layout.
		pl.writeDynamic(h, reflect.ValueOf(makeAny(p.ptrWord, q)).Elem().Interface(), w)
	}
}

// writeDynamic writes v with its type identity.
func (pl *planner) writeDynamic(h *model.Hasher, v any, w *walker) {
	e := words(&v)
	if e.typ == nil {
		h.Uint64(nilTag)
		return
	}
	dp := pl.planOf(v)
	h.Uint64(dp.id)
	dp.fromWord(h, e.data, w)
}

func unhashableWord(p *plan) hashFn {
	return func(h *model.Hasher, d unsafe.Pointer, _ *walker) {
		if d == nil {
			h.Uint64(nilTag)
			return
		}
		panic(&UnhashableError{Type: p.typ})
	}
}
