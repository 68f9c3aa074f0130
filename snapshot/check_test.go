package snapshot

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/ravelmc/ravel/model"
)

// Replica mirrors the actor of DESIGN.md: its acks are unexported.
type Replica struct {
	Value int
	acks  map[int]int
}

func (*Replica) Receive(*model.Ctx, model.Envelope) {}

// ClonedReplica is Replica with a Clone method.
type ClonedReplica struct {
	Value int
	acks  map[int]int
}

func (*ClonedReplica) Receive(*model.Ctx, model.Envelope) {}
func (r *ClonedReplica) Clone() model.Actor {
	c := *r
	c.acks = map[int]int{}
	for k, v := range r.acks {
		c.acks[k] = v
	}
	return &c
}

type Exported struct {
	Value int
	Peers []int
	Acks  map[int][]string
	Next  *Exported
	When  time.Time // copied by copystructure's registered copier
	_     struct{}  // zero-size: nothing to lose
}

type WithFunc struct{ OnDone func() }
type WithChan struct{ C chan int }
type WithUnsafe struct{ P unsafe.Pointer }
type WithShallow struct {
	M map[int]int `copy:"shallow"`
}
type WithIgnore struct {
	M map[int]int `copy:"ignore"`
}
type WithPtrKey struct{ M map[*int]int }
type WithAny struct{ Msg any }

func (*WithAny) Receive(*model.Ctx, model.Envelope) {}

type Inner struct{ X int }
type Outer struct{ In []Inner }
type WithPtrs struct{ A, B *Inner }
type WithMaps struct{ A, B map[int]int }
type WithAnyKey struct{ M map[any]int }
type WithSlices struct {
	Buf, View []int
	Logs      map[string][]int
}
type hidden struct{ x int }

func TestCheckCopyable(t *testing.T) {
	cyclic := &Exported{Value: 1}
	cyclic.Next = cyclic
	shared := &Inner{X: 1}
	sharedMap := map[int]int{1: 1}
	selfSlice := []any{nil}
	selfSlice[0] = selfSlice
	buf := []int{1, 2, 3, 4}
	backing := make([]int, 8)
	tests := []struct {
		name string
		mode Mode
		v    any
		want string // the error; "" for none
	}{
		{"exported fields", Mode{}, &Exported{Value: 1, Peers: []int{1}, Acks: map[int][]string{1: {"a"}}, When: time.Now()}, ""},
		{"acyclic pointers", Mode{}, &Exported{Next: &Exported{Next: &Exported{}}}, ""},
		{"unexported field", Mode{}, &Replica{},
			"snapshot: snapshot.Replica.acks: unexported field; copystructure cannot copy it — give *snapshot.Replica a Clone() model.Actor method or export the field"},
		{"unexported field with Clone", Mode{}, &ClonedReplica{}, ""},
		{"unexported field with Clone, reflective", Mode{Reflective: true}, &ClonedReplica{},
			"snapshot: snapshot.ClonedReplica.acks: unexported field; copystructure cannot copy it — give *snapshot.ClonedReplica a Clone() model.Actor method or export the field"},
		{"func", Mode{}, &WithFunc{},
			"snapshot: snapshot.WithFunc.OnDone: func; copystructure would share it and what it captures — give *snapshot.WithFunc a Clone() model.Actor method or remove the func from the state"},
		{"chan", Mode{}, &WithChan{},
			"snapshot: snapshot.WithChan.C: channel; copystructure would share it — give *snapshot.WithChan a Clone() model.Actor method or remove the channel from the state"},
		{"unsafe.Pointer", Mode{}, &WithUnsafe{},
			"snapshot: snapshot.WithUnsafe.P: unsafe.Pointer; copystructure cannot copy it — give *snapshot.WithUnsafe a Clone() model.Actor method or remove it from the state"},
		{"shallow tag", Mode{}, &WithShallow{},
			`snapshot: snapshot.WithShallow.M: copy:"shallow" tag; the copy would share it — give *snapshot.WithShallow a Clone() model.Actor method or drop the tag`},
		{"ignore tag", Mode{}, &WithIgnore{},
			`snapshot: snapshot.WithIgnore.M: copy:"ignore" tag; the copy would lose it — give *snapshot.WithIgnore a Clone() model.Actor method or drop the tag`},
		{"pointer map key", Mode{}, &WithPtrKey{},
			"snapshot: snapshot.WithPtrKey.M: map key holds a pointer; copystructure copies keys, so the copy's keys would be other pointers — give *snapshot.WithPtrKey a Clone() model.Actor method or key the map by value"},
		{"interface holding an exported struct", Mode{}, &WithAny{Msg: Inner{1}}, ""},
		{"interface holding unexported state", Mode{}, &WithAny{Msg: &hidden{1}},
			"snapshot: snapshot.WithAny.Msg.(*snapshot.hidden).x: unexported field; copystructure cannot copy it — give *snapshot.WithAny a Clone() model.Actor method or export the field"},
		{"interface holding a func", Mode{}, &WithAny{Msg: []any{1, func() {}}},
			"snapshot: snapshot.WithAny.Msg.([]interface {})[1].(func()): func; copystructure would share it and what it captures — give *snapshot.WithAny a Clone() model.Actor method or remove the func from the state"},
		{"interface holding a typed nil", Mode{}, &WithAny{Msg: (*Inner)(nil)},
			"snapshot: snapshot.WithAny.Msg.(*snapshot.Inner): interface holding a nil *snapshot.Inner; copystructure would make it a nil interface — give *snapshot.WithAny a Clone() model.Actor method or store a nil interface instead"},
		{"pointer to a nil pointer", Mode{}, &struct{ P **Inner }{new(*Inner)},
			"snapshot: struct { P **snapshot.Inner }.P: pointer to a nil pointer; copystructure panics on it — drop a level of pointers"},
		{"unexported field deep in the type", Mode{}, &Outer{}, ""},
		{"nested unexported", Mode{}, &struct{ H []hidden }{},
			"snapshot: struct { H []snapshot.hidden }.H[*].x: unexported field; copystructure cannot copy it — export the field"},
		{"cycle", Mode{}, cyclic,
			"snapshot: snapshot.Exported.Next: cycle back to an enclosing value; copystructure would recurse forever — give *snapshot.Exported a Clone() model.Actor method or break the cycle (refer by ID or index)"},
		{"slice that holds itself", Mode{}, &WithAny{Msg: selfSlice},
			"snapshot: snapshot.WithAny.Msg.([]interface {})[0].([]interface {}): cycle back to an enclosing value; copystructure would recurse forever — give *snapshot.WithAny a Clone() model.Actor method or break the cycle (refer by ID or index)"},
		{"shared pointer", Mode{}, &WithPtrs{A: shared, B: shared},
			"snapshot: snapshot.WithPtrs.B: same pointer as snapshot.WithPtrs.A; copystructure would copy it twice and the copies would not share it — give *snapshot.WithPtrs a Clone() model.Actor method or keep a single reference (refer by ID or index)"},
		{"distinct pointers", Mode{}, &WithPtrs{A: &Inner{}, B: &Inner{}}, ""},
		{"shared map", Mode{}, &WithMaps{A: sharedMap, B: sharedMap},
			"snapshot: snapshot.WithMaps.B: same map as snapshot.WithMaps.A; copystructure would copy it twice and the copies would not share it — give *snapshot.WithMaps a Clone() model.Actor method or keep a single reference (refer by ID or index)"},
		{"interface map key holding a pointer", Mode{}, &WithAnyKey{M: map[any]int{&Inner{}: 1}},
			"snapshot: snapshot.WithAnyKey.M[&{0}]: map key holds a pointer; copystructure copies keys, so the copy's keys would be other pointers — give *snapshot.WithAnyKey a Clone() model.Actor method or key the map by value"},
		{"interface map key holding a value", Mode{}, &WithAnyKey{M: map[any]int{Inner{}: 1, "s": 2}}, ""},
		{"slice and a view of it", Mode{}, &WithSlices{Buf: buf, View: buf[:1]},
			"snapshot: snapshot.WithSlices.View: shares a backing array with snapshot.WithSlices.Buf; copystructure would copy the two apart, and a change through one would no longer show through the other — give *snapshot.WithSlices a Clone() model.Actor method or keep one slice and an index into it"},
		{"one slice twice", Mode{}, &WithSlices{Buf: buf, View: buf},
			"snapshot: snapshot.WithSlices.View: shares a backing array with snapshot.WithSlices.Buf; copystructure would copy the two apart, and a change through one would no longer show through the other — give *snapshot.WithSlices a Clone() model.Actor method or keep one slice and an index into it"},
		{"a view in a map", Mode{}, &WithSlices{Buf: buf[2:], Logs: map[string][]int{"k": buf[3:]}},
			`snapshot: snapshot.WithSlices.Logs["k"]: shares a backing array with snapshot.WithSlices.Buf; copystructure would copy the two apart, and a change through one would no longer show through the other — give *snapshot.WithSlices a Clone() model.Actor method or keep one slice and an index into it`},
		{"slices side by side in one array", Mode{}, &WithSlices{Buf: backing[:4:4], View: backing[4:]}, ""},
		{"distinct slices", Mode{}, &WithSlices{Buf: []int{1}, View: []int{1}, Logs: map[string][]int{"a": {1}, "b": {2}}}, ""},
		{"nil", Mode{}, nil, "snapshot: nil value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.mode.CheckCopyable(tt.v)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("CheckCopyable:\n got %s\nwant %s", got, tt.want)
			}
			var ce *CopyError
			if err != nil && tt.v != nil && !errors.As(err, &ce) {
				t.Errorf("error %T, want a *CopyError", err)
			}
		})
	}
}

// A pointer in a map key can hide in an interface inside the key.
func TestCheckCopyableKeyHidingAPointer(t *testing.T) {
	v := &struct{ M map[Env]int }{map[Env]int{{&Inner{}}: 1}}
	var ce *CopyError
	if err := (Mode{}).CheckCopyable(v); !errors.As(err, &ce) {
		t.Fatalf("CheckCopyable: %v, want a *CopyError", err)
	}
	if want := "struct { M map[snapshot.Env]int }.M[{"; !strings.HasPrefix(ce.Path, want) {
		t.Errorf("path %q, want it to start with %q", ce.Path, want)
	}
	if want := issueKeyPointer.problem; ce.Problem != want {
		t.Errorf("problem %q, want %q", ce.Problem, want)
	}
}

func TestCheckHashable(t *testing.T) {
	tests := []struct {
		name string
		mode Mode
		v    any
		want string
	}{
		{"plain state", Mode{}, &Replica{acks: map[int]int{1: 2}}, ""},
		{"func field", Mode{}, &WithFunc{},
			"snapshot: snapshot.WithFunc.OnDone: func(); it has no value to fingerprint — give *snapshot.WithFunc a HashState(*model.Hasher) method that leaves it out, or remove it from the state"},
		{"chan in an interface", Mode{}, Env{Msg: []any{make(chan int)}},
			"snapshot: snapshot.Env.Msg.([]interface {})[0].(chan int): chan int; it has no value to fingerprint — give snapshot.Env a HashState(*model.Hasher) method that leaves it out, or remove it from the state"},
		{"func behind HashState", Mode{}, &funcHider{}, ""},
		{"func behind HashState, reflective", Mode{Reflective: true}, &funcHider{},
			"snapshot: snapshot.funcHider.f: func(); it has no value to fingerprint — give *snapshot.funcHider a HashState(*model.Hasher) method that leaves it out, or remove it from the state"},
		{"cycle", Mode{}, newRing(3, 1), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.mode.CheckHashable(tt.v)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("CheckHashable:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// funcHider keeps a func out of its fingerprint.
type funcHider struct {
	N int
	f func()
}

func (f *funcHider) HashState(h *model.Hasher) { h.Int(f.N) }

// TestFixIsFollowable: the advice never tells the user to give a method to a type that
// cannot take one — an unnamed type, or one of the standard library (state probe, H9).
func TestFixIsFollowable(t *testing.T) {
	for _, c := range []struct {
		name    string
		err     error
		want    string
		notWant string
	}{
		{"an error", func() error { _, err := Mode{}.Copy(errors.New("a")); return err }(), "err.Error()", "give *errors.errorString"},
		{"a func", Mode{}.CheckHashable(func() {}), "remove it from the state", "give func()"},
		{"a chan", Mode{}.CheckHashable(make(chan int)), "remove it from the state", "give chan int"},
		{"a type of the user's", Mode{}.CheckHashable(withFunc{}), "give snapshot.withFunc a HashState(*model.Hasher) method", ""},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) || c.notWant != "" && strings.Contains(c.err.Error(), c.notWant) {
			t.Errorf("%s: %v; want %q and not %q", c.name, c.err, c.want, c.notWant)
		}
	}
}

type withFunc struct{ F func() }
