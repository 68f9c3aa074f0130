package snapshot

import (
	"errors"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
)

// seeds is how many random values each property test tries.
const seeds = 300

// A clone equals the original and shares no mutable memory with it, through the Clone
// fast path and through the copystructure fallback.
func TestCloneSharesNothing(t *testing.T) {
	tests := []struct {
		name string
		mode Mode
		make func(*gen) model.Actor
	}{
		{"fallback", Mode{}, func(g *gen) model.Actor { return g.world() }},
		{"fallback, reflective", Mode{Reflective: true}, func(g *gen) model.Actor { return g.world() }},
		{"Clone method", Mode{}, func(g *gen) model.Actor { return g.cworld() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := int64(1); seed <= seeds; seed++ {
				a := tt.make(newGen(seed, seed))
				c, err := tt.mode.Clone(a)
				if err != nil {
					t.Fatalf("seed %d: Clone: %v", seed, err)
				}
				if !reflect.DeepEqual(a, c) {
					t.Fatalf("seed %d: clone differs from the original", seed)
				}
				if where := sharedMemory(a, c); where != "" {
					t.Fatalf("seed %d: clone shares memory with the original at %s", seed, where)
				}
			}
		})
	}
}

// The checker finds sharing where there is some.
func TestSharedMemoryFindsSharing(t *testing.T) {
	w := &World{Ptr: &Leaf{I: 1}}
	shallow := *w
	backing := make([]int, 4)
	tags := map[int]bool{1: true}
	leaves := []*Leaf{{I: 1}}
	other := []*Leaf{leaves[0]}
	tests := []struct {
		name string
		a, b any
	}{
		{"same pointer", w, w},
		{"shallow copy", w, &shallow},
		{"spare capacity", backing[:1:2], backing[1:2:4]},
		{"nested map", &World{ByKey: map[string]*Node{"a": {Tags: tags}}}, &World{ByKey: map[string]*Node{"a": {Tags: tags}}}},
		{"pointer in a slice", leaves, other},
		{"inside an interface", Env{[]any{leaves}}, Env{[]any{other}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if where := sharedMemory(tt.a, tt.b); where == "" {
				t.Errorf("no sharing found")
			}
		})
	}
}

// Two values built independently from one seed, with their maps filled in different
// orders, have equal fingerprints, and so do their clones.
func TestEqualValuesEqualFingerprints(t *testing.T) {
	for _, mode := range []Mode{{}, {Reflective: true}} {
		t.Run(modeName(mode), func(t *testing.T) {
			for seed := int64(1); seed <= seeds; seed++ {
				a, b := newGen(seed, 1).cworld(), newGen(seed, 2).cworld()
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("seed %d: the generator built different values", seed)
				}
				fa, fb := mode.Fingerprint(a), mode.Fingerprint(b)
				if fa != fb {
					t.Fatalf("seed %d: equal values have fingerprints %#x and %#x", seed, fa, fb)
				}
				c, err := Mode{}.Clone(a)
				if err != nil {
					t.Fatalf("seed %d: Clone: %v", seed, err)
				}
				if fc := mode.Fingerprint(c); fc != fa {
					t.Fatalf("seed %d: clone has fingerprint %#x, original %#x", seed, fc, fa)
				}
			}
		})
	}
}

// Changing one leaf (a number, a string, a bool, a map entry added or removed, a pointer
// set to nil) changes the fingerprint, and leaves a clone taken before unchanged.
func TestMutationChangesFingerprint(t *testing.T) {
	for _, mode := range []Mode{{}, {Reflective: true}} {
		t.Run(modeName(mode), func(t *testing.T) {
			for seed := int64(1); seed <= seeds; seed++ {
				if msg := checkMutation(mode, seed, seed); msg != "" {
					t.Fatal(msg)
				}
			}
		})
	}
}

// checkMutation mutates the world of seed at the mutation pick selects, and returns
// what went wrong, or "".
func checkMutation(mode Mode, seed, pick int64) string {
	w := newGen(seed, 1).world()
	muts := mutations(w)
	if len(muts) == 0 {
		return ""
	}
	m := muts[rand.New(rand.NewSource(pick)).Intn(len(muts))]
	before := mode.Fingerprint(w)
	c, err := Mode{}.Clone(w)
	if err != nil {
		return "seed " + itoa(seed) + ": Clone: " + err.Error()
	}
	m.apply()
	if reflect.DeepEqual(c, w) {
		return "seed " + itoa(seed) + ": mutation " + m.where + " changed nothing"
	}
	if after := mode.Fingerprint(w); after == before {
		return "seed " + itoa(seed) + ": mutation " + m.where + " left the fingerprint unchanged"
	}
	if fc := mode.Fingerprint(c); fc != before {
		return "seed " + itoa(seed) + ": mutation " + m.where + " changed the clone's fingerprint"
	}
	return ""
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

// countingClone counts its Clone calls.
type countingClone struct {
	N     int
	calls *int
}

func (*countingClone) Receive(*model.Ctx, model.Envelope) {}
func (c *countingClone) Clone() model.Actor {
	*c.calls++
	return &countingClone{N: c.N, calls: c.calls}
}

func TestCloneUsesCloneMethod(t *testing.T) {
	calls := 0
	a := &countingClone{N: 1, calls: &calls}
	if _, err := (Mode{}).Clone(a); err != nil {
		t.Fatalf("Clone: %v", err)
	}
	if calls != 1 {
		t.Errorf("Clone method called %d times, want 1", calls)
	}
	// Reflective ignores the method, and then the unexported field is a problem.
	_, err := Mode{Reflective: true}.Clone(a)
	var ce *CopyError
	if !errors.As(err, &ce) {
		t.Errorf("reflective Clone: error %v, want a *CopyError", err)
	}
	if calls != 1 {
		t.Errorf("reflective Clone called the method")
	}
}

type badNil struct{ N int }

func (*badNil) Receive(*model.Ctx, model.Envelope) {}
func (*badNil) Clone() model.Actor                 { return nil }

type badType struct{ N int }

func (*badType) Receive(*model.Ctx, model.Envelope) {}
func (*badType) Clone() model.Actor                 { return &badNil{} }

type badSelf struct{ N int }

func (*badSelf) Receive(*model.Ctx, model.Envelope) {}
func (b *badSelf) Clone() model.Actor               { return b }

func TestCloneErrors(t *testing.T) {
	tests := []struct {
		name string
		a    model.Actor
		want string
	}{
		{"nil actor", nil, "snapshot: Clone of a nil actor"},
		{"Clone returns nil", &badNil{}, "snapshot: (*snapshot.badNil).Clone returned nil"},
		{"Clone returns another type", &badType{}, "snapshot: (*snapshot.badType).Clone returned a *snapshot.badNil; it must return its own type"},
		{"Clone returns the receiver", &badSelf{}, "snapshot: (*snapshot.badSelf).Clone returned the receiver itself; it must return a copy"},
		{"unexported state without Clone", &Replica{}, "snapshot: snapshot.Replica.acks: unexported field; copystructure cannot copy it — give *snapshot.Replica a Clone() model.Actor method or export the field"},
		{"func inside an interface", &WithAny{Msg: func() {}}, "snapshot: snapshot.WithAny.Msg.(func()): func; copystructure would share it and what it captures — give *snapshot.WithAny a Clone() model.Actor method or remove the func from the state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Mode{}.Clone(tt.a)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Clone:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

type badPanic struct{ Log []int }

func (*badPanic) Receive(*model.Ctx, model.Envelope) {}
func (b *badPanic) Clone() model.Actor               { return &badPanic{Log: b.Log[:1]} } // badPanic's Clone

// CheckCopyable tries a Clone method once: one that breaks the contract, or panics, is
// refused before a search, with the reason Clone would give; a good one passes.
func TestCheckCopyableTriesCloneOnce(t *testing.T) {
	for _, tt := range []struct {
		name string
		a    model.Actor
		want string
	}{
		{"Clone returns nil", &badNil{}, "snapshot: (*snapshot.badNil).Clone returned nil"},
		{"Clone returns another type", &badType{}, "returned a *snapshot.badNil; it must return its own type"},
		{"Clone returns the receiver", &badSelf{}, "returned the receiver itself"},
		{"Clone panics", &badPanic{}, "snapshot: (*snapshot.badPanic).Clone panicked: runtime error: slice bounds out of range [:1] with capacity 0 (at copy_test.go:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := Mode{}.CheckCopyable(tt.a)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CheckCopyable: %v, want an error with %q", err, tt.want)
			}
		})
	}
	calls := 0
	if err := (Mode{}).CheckCopyable(&countingClone{N: 1, calls: &calls}); err != nil || calls != 1 {
		t.Errorf("CheckCopyable of a good Cloner: %v after %d calls, want nil after 1", err, calls)
	}
}

// Copy copies values that are not actors, and a nil to nil.
func TestCopy(t *testing.T) {
	for _, v := range []any{nil, 1, "s", Env{Inner{1}}, map[string][]int{"a": {1}}, []any{nil, Inner{2}}} {
		c, err := Mode{}.Copy(v)
		if err != nil {
			t.Errorf("Copy(%#v): %v", v, err)
			continue
		}
		if !reflect.DeepEqual(c, v) {
			t.Errorf("Copy(%#v) = %#v", v, c)
		}
	}
}
