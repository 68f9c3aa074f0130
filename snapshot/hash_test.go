package snapshot

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
)

type Ack struct{}
type Nack struct{}
type Env struct{ Msg any }
type pair struct{ A, B int }
type priv struct {
	a int
	s string
}
type wrapP struct{ P *pair }
type A1 int
type B1 int

// mapInOrder returns a map of the keys, inserted in the given order.
func mapInOrder(keys ...int) map[int]string {
	m := map[int]string{}
	for _, k := range keys {
		m[k] = strings.Repeat("v", k%7)
	}
	return m
}

func upTo(n int, down bool) []int {
	s := make([]int, n)
	for i := range s {
		if down {
			s[i] = n - i
		} else {
			s[i] = i + 1
		}
	}
	return s
}

type dag struct{ X, Y *pair }

func TestFingerprintEquality(t *testing.T) {
	shared := &pair{1, 2}
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name  string
		a, b  any
		equal bool
	}{
		{"same empty struct", Ack{}, Ack{}, true},
		{"empty structs of different types", Ack{}, Nack{}, false},
		{"different types inside an interface", Env{Ack{}}, Env{Nack{}}, false},
		{"different types inside []any", []any{Ack{}}, []any{Nack{}}, false},
		{"int and int64", int(1), int64(1), false},
		{"named ints", A1(1), B1(1), false},
		{"nil and empty slice", []int(nil), []int{}, false},
		{"nil and empty slice in a struct", struct{ S []int }{nil}, struct{ S []int }{[]int{}}, false},
		{"nil and empty map", map[int]int(nil), map[int]int{}, false},
		{"map insertion order", mapInOrder(upTo(50, false)...), mapInOrder(upTo(50, true)...), true},
		{"map values moved between keys", map[int]int{1: 2, 3: 4}, map[int]int{1: 4, 3: 2}, false},
		{"map key and value swapped", map[int]int{1: 2}, map[int]int{2: 1}, false},
		{"+0 and -0", 0.0, negZero, true},
		{"+0 and -0 in a complex", complex(0, 0), complex(negZero, negZero), true},
		{"NaN and the same NaN", math.NaN(), math.NaN(), true},
		{"field order", pair{1, 2}, pair{2, 1}, false},
		{"string boundaries", [2]string{"ab", "c"}, [2]string{"a", "bc"}, false},
		{"nil and zero pointer", (*pair)(nil), &pair{}, false},
		{"distinct pointers to equal values", &pair{1, 2}, &pair{1, 2}, true},
		{"nil interface and typed nil", Env{nil}, Env{(*pair)(nil)}, false},
		{"unexported fields", priv{1, "x"}, priv{2, "x"}, false},
		{"unexported fields equal", priv{1, "x"}, priv{1, "x"}, true},
		{"shared and separate pointers", dag{shared, shared}, dag{&pair{1, 2}, &pair{1, 2}}, true},
		{"bytes", []byte("ab"), []byte("ac"), false},
		{"empty string and nil in an interface", Env{""}, Env{nil}, false},
		{"arrays of structs", [2]pair{{1, 2}, {3, 4}}, [2]pair{{3, 4}, {1, 2}}, false},
		{"nil and nil", nil, nil, true},
		{"nil and a value", nil, Ack{}, false},
		{"complex parts", complex(1, 2), complex(2, 1), false},
		{"int8 sign", struct{ X int8 }{-1}, struct{ X int8 }{1}, false},
		{"nested maps", map[string]map[int]bool{"a": {1: true}}, map[string]map[int]bool{"a": {1: false}}, false},
		{"float32", float32(1.5), float32(2.5), false},
		{"pointer-shaped struct in an interface", Env{wrapP{&pair{1, 2}}}, Env{wrapP{&pair{1, 2}}}, true},
		{"pointer-shaped structs differ", Env{wrapP{&pair{1, 2}}}, Env{wrapP{&pair{1, 3}}}, false},
		{"pointer-shaped array in an interface", Env{[1]*pair{{1, 2}}}, Env{[1]*pair{{1, 3}}}, false},
		{"map in an interface", Env{map[int]int{1: 2}}, Env{map[int]int{1: 3}}, false},
	}
	for _, mode := range []Mode{{}, {Reflective: true}} {
		for _, tt := range tests {
			t.Run(modeName(mode)+"/"+tt.name, func(t *testing.T) {
				fa, fb := mode.Fingerprint(tt.a), mode.Fingerprint(tt.b)
				if got := fa == fb; got != tt.equal {
					t.Errorf("fingerprints equal = %v, want %v (%#x, %#x)", got, tt.equal, fa, fb)
				}
				if again := mode.Fingerprint(tt.a); again != fa {
					t.Errorf("fingerprint not stable: %#x then %#x", fa, again)
				}
			})
		}
	}
}

func modeName(m Mode) string {
	if m.Reflective {
		return "reflective"
	}
	return "fast"
}

// Fingerprint is Hash into a fresh NewHasher.
func TestFingerprintIsHash(t *testing.T) {
	for _, mode := range []Mode{{}, {Reflective: true}} {
		for i, v := range []any{nil, 1, "s", Env{Ack{}}, mapInOrder(1, 2, 3), newGen(1, 1).world()} {
			h := mode.NewHasher()
			mode.Hash(h, v)
			if got, want := h.Sum64(), mode.Fingerprint(v); got != want {
				t.Errorf("%s value %d: Hash gives %#x, Fingerprint %#x", modeName(mode), i, got, want)
			}
		}
	}
}

type ring struct {
	V    int
	Next *ring
}

// newRing returns the first node of a cycle of n nodes with values vals[i%len(vals)].
func newRing(n int, vals ...int) *ring {
	nodes := make([]*ring, n)
	for i := range nodes {
		nodes[i] = &ring{V: vals[i%len(vals)]}
	}
	for i, r := range nodes {
		r.Next = nodes[(i+1)%n]
	}
	return nodes[0]
}

// newList returns an acyclic list of n nodes, the last with value last.
func newList(n, last int) *ring {
	var head *ring
	for i := range n {
		v := 0
		if i == 0 {
			v = last
		}
		head = &ring{V: v, Next: head}
	}
	return head
}

type viaAny struct {
	V    int
	Next any
}

func TestFingerprintCycles(t *testing.T) {
	selfSlice := []any{nil, 1}
	selfSlice[0] = selfSlice
	otherSlice := []any{nil, 1}
	otherSlice[0] = otherSlice
	selfMap := map[string]any{"n": 1}
	selfMap["me"] = selfMap
	loop := &viaAny{V: 1}
	loop.Next = loop
	tests := []struct {
		name  string
		a, b  any
		equal bool
	}{
		{"self loop", newRing(1, 5), newRing(1, 5), true},
		{"three-node rings", newRing(3, 1, 2, 3), newRing(3, 1, 2, 3), true},
		{"rings with different values", newRing(3, 1, 2, 3), newRing(3, 1, 2, 4), false},
		{"long rings", newRing(100, 1, 2), newRing(100, 1, 2), true},
		{"long rings of different lengths", newRing(100, 1, 2), newRing(101, 1, 2), false},
		{"long lists", newList(200, 7), newList(200, 7), true},
		{"long lists differing at the end", newList(200, 7), newList(200, 8), false},
		{"cycle through an interface", loop, &viaAny{V: 1, Next: loop}, true},
		{"slice that holds itself", selfSlice, otherSlice, true},
		{"map that holds itself", selfMap, selfMap, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fa, fb := Mode{}.Fingerprint(tt.a), Mode{}.Fingerprint(tt.b)
			if got := fa == fb; got != tt.equal {
				t.Errorf("fingerprints equal = %v, want %v", got, tt.equal)
			}
		})
	}
}

// byID hashes itself by its ID alone, like model.Request.
type byID struct {
	ID   int
	Note string
}

func (b byID) HashState(h *model.Hasher) { h.Int(b.ID) }

// byIDPtr is byID with a pointer receiver.
type byIDPtr struct {
	ID   int
	Note string
}

func (b *byIDPtr) HashState(h *model.Hasher) { h.Int(b.ID) }

// sizeOnly is a pointer-shaped type that hashes itself by its size.
type sizeOnly map[int]bool

func (s sizeOnly) HashState(h *model.Hasher) { h.Int(len(s)) }

// ptrWrap is a pointer-shaped struct whose HashState, with a pointer receiver, says
// only whether P is nil.
type ptrWrap struct{ P *pair }

func (w *ptrWrap) HashState(h *model.Hasher) { h.Bool(w.P == nil) }

// delegating hashes a part with h.Value, which falls back to the walker, and leaves
// Skip out.
type delegating struct {
	Part map[int]string
	Skip int
}

func (d *delegating) HashState(h *model.Hasher) { h.Value(d.Part) }

// A HashState method replaces the walk wherever the type appears, unless Reflective.
func TestFingerprintUsesHashState(t *testing.T) {
	tests := []struct {
		name string
		a, b any
	}{
		{"value receiver", byID{1, "a"}, byID{1, "b"}},
		{"pointer receiver", &byIDPtr{1, "a"}, &byIDPtr{1, "b"}},
		{"pointer receiver, value in an interface", Env{byIDPtr{1, "a"}}, Env{byIDPtr{1, "b"}}},
		{"field", struct{ X byID }{byID{1, "a"}}, struct{ X byID }{byID{1, "b"}}},
		{"pointer field", struct{ X *byIDPtr }{&byIDPtr{1, "a"}}, struct{ X *byIDPtr }{&byIDPtr{1, "b"}}},
		{"slice", []byID{{1, "a"}}, []byID{{1, "b"}}},
		{"map value", map[int]byID{0: {1, "a"}}, map[int]byID{0: {1, "b"}}},
		{"interface", Env{byID{1, "a"}}, Env{byID{1, "b"}}},
		{"h.Value of a part", &delegating{mapInOrder(1, 2, 3), 1}, &delegating{mapInOrder(3, 2, 1), 2}},
		{"map type with a value receiver, in an interface", Env{sizeOnly{1: true}}, Env{sizeOnly{2: true}}},
		{"pointer-shaped struct with a pointer receiver, in an interface", Env{ptrWrap{&pair{1, 2}}}, Env{ptrWrap{&pair{3, 4}}}},
		{"model.Request", model.Request[int]{ID: model.RequestID{Client: 2, Seq: 1}, Input: 1},
			model.Request[int]{ID: model.RequestID{Client: 2, Seq: 1}, Input: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if fa, fb := (Mode{}).Fingerprint(tt.a), (Mode{}).Fingerprint(tt.b); fa != fb {
				t.Errorf("fast fingerprints differ, want equal: HashState ignores the difference")
			}
			r := Mode{Reflective: true}
			if fa, fb := r.Fingerprint(tt.a), r.Fingerprint(tt.b); fa == fb {
				t.Errorf("reflective fingerprints equal, want different: the walk sees the difference")
			}
		})
	}
}

// TestHashPanicsOnFuncs: Hash panics with an *UnhashableError naming the type met, which
// a caller recovers to name the part (explorer's findings).
func TestHashPanicsOnFuncs(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string // in the panic message; "" for no panic
	}{
		{"func in an interface", Env{func() {}}, "func()"},
		{"chan in an interface", Env{make(chan int)}, "chan int"},
		{"nil func field", struct{ F func() }{}, ""},
		{"func field", struct{ F func() }{func() {}}, "func()"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := func() (msg string) {
				defer func() {
					if r := recover(); r != nil {
						e, ok := r.(*UnhashableError)
						if !ok {
							t.Fatalf("panicked with a %T (%v); want an *UnhashableError", r, r)
						}
						msg = e.Error()
					}
				}()
				Mode{}.Fingerprint(tt.v)
				return ""
			}()
			if tt.want == "" && got != "" {
				t.Errorf("panicked: %s", got)
			}
			if tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("panic %q, want one naming %q", got, tt.want)
			}
		})
	}
}

// The fallback's results agree with reflect.DeepEqual on the equal cases above; this
// checks the claim the other way on one value: a fingerprint is a function of the value.
func TestFingerprintAfterCopyIsEqual(t *testing.T) {
	for seed := int64(1); seed <= 50; seed++ {
		w := newGen(seed, 1).world()
		c, err := Mode{}.Copy(w)
		if err != nil {
			t.Fatalf("seed %d: Copy: %v", seed, err)
		}
		if !reflect.DeepEqual(w, c) {
			t.Fatalf("seed %d: copy differs from the original", seed)
		}
		if a, b := (Mode{}).Fingerprint(w), (Mode{}).Fingerprint(c); a != b {
			t.Errorf("seed %d: fingerprint of the copy %#x, of the original %#x", seed, b, a)
		}
	}
}

// Fingerprinting a value of a type seen before allocates nothing (the walker is pooled).
func TestFingerprintDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop walkers")
	}
	tests := []struct {
		name string
		v    any
	}{
		{"replica", newBenchReplica()},
		{"envelope", model.Envelope{From: 1, To: 2, Msg: pair{1, 2}}},
		{"world", newGen(5, 5).world()},
		{"request", model.Request[int]{ID: model.RequestID{Client: 3, Seq: 1}, Input: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			Mode{}.Fingerprint(tt.v)
			if n := testing.AllocsPerRun(100, func() { Mode{}.Fingerprint(tt.v) }); n != 0 {
				t.Errorf("%v allocations per fingerprint, want 0", n)
			}
		})
	}
}

// Fingerprints and clones may be taken from many goroutines at once, on types none of
// them has seen before (fresh planners); the results are those of a single goroutine.
func TestConcurrentUse(t *testing.T) {
	const n = 40
	want := make([]uint64, n)
	for i := range want {
		want[i] = Mode{}.Fingerprint(newGen(int64(i), 0).world())
	}
	var pl *planner
	pl = newPlanner(false, func(h *model.Hasher, v any) { hashTop(pl, h, v, nil) })
	done := make(chan string, n)
	for i := range n {
		go func() {
			w := newGen(int64(i), 1).world()
			c, err := Mode{}.Clone(w)
			switch {
			case err != nil:
				done <- err.Error()
			case pl.fingerprint(c) != want[i]:
				done <- "seed " + itoa(int64(i)) + ": fingerprint differs from the sequential one"
			default:
				done <- ""
			}
		}()
	}
	for range n {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}

func TestIsDirect(t *testing.T) {
	tests := []struct {
		v    any
		want bool
	}{
		{&pair{}, true},
		{map[int]int{}, true},
		{wrapP{}, true},
		{[1]*pair{}, true},
		{func() {}, true},
		{1, false},
		{"s", false},
		{pair{}, false},
		{[2]*pair{}, false},
		{struct{ P, Q *pair }{}, false},
		{[]int{}, false},
	}
	for _, tt := range tests {
		if got := isDirect(reflect.TypeOf(tt.v)); got != tt.want {
			t.Errorf("isDirect(%T) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
