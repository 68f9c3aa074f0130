package wgl

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl/internal/userspec"
)

// anyQueue is a FIFO queue whose state is an interface holding a []int (or, with
// asMap, a map), which compiles (any is comparable) but cannot be hashed at run time.
// Input n > 0 enqueues n, 0 dequeues; the output is the dequeued value, or 0.
func anyQueue(asMap bool) specs.Spec[any, int, int] {
	wrap := func(q []int) any {
		if asMap {
			m := map[int]int{}
			for i, v := range q {
				m[i] = v
			}
			return m
		}
		return q
	}
	unwrap := func(s any) []int {
		if m, ok := s.(map[int]int); ok {
			q := make([]int, len(m))
			for i, v := range m {
				q[i] = v
			}
			return q
		}
		return s.([]int)
	}
	return specs.Spec[any, int, int]{
		Name: "anyqueue",
		Init: func() any { return wrap([]int{}) },
		Apply: func(s any, in int) (any, int) {
			q := unwrap(s)
			if in > 0 {
				return wrap(append(append([]int{}, q...), in)), 0
			}
			if len(q) == 0 {
				return s, 0
			}
			return wrap(append([]int{}, q[1:]...)), q[0]
		},
	}
}

// A state of interface type holding a slice or a map is named as such: not a panic
// of the specification in Go's runtime, but an *UncomparableStateError naming the type.
func TestUncomparableStateIsNamed(t *testing.T) {
	ops := []histories.Operation[int, int]{
		done(0, 1, 0, 1, 4), done(1, 2, 0, 2, 5), done(2, 0, 2, 6, 7),
	}
	for _, tc := range []struct {
		name  string
		asMap bool
		want  string
	}{{"slice", false, "[]int"}, {"map", true, "map[int]int"}} {
		t.Run(tc.name, func(t *testing.T) {
			res := Check(anyQueue(tc.asMap), ops)
			var u *UncomparableStateError
			if !errors.As(res.Err, &u) {
				t.Fatalf("Err = %v, want an *UncomparableStateError", res.Err)
			}
			if res.Verdict != Unknown {
				t.Errorf("verdict %v, want %v", res.Verdict, Unknown)
			}
			if u.Type != tc.want || u.Spec != "anyqueue" {
				t.Errorf("type %q, spec %q, want %q and %q", u.Type, u.Spec, tc.want, "anyqueue")
			}
			if msg := u.Error(); !strings.Contains(msg, "array") {
				t.Errorf("error %q does not say what to use instead", msg)
			}
		})
	}
}

// An input or output of interface type holding a slice is named before the search.
func TestUncomparableInputIsNamed(t *testing.T) {
	spec := specs.Spec[int, any, any]{
		Name:  "anything",
		Init:  func() int { return 0 },
		Apply: func(s int, in any) (int, any) { return s, in },
	}
	for _, tc := range []struct {
		name string
		op   histories.Operation[any, any]
		want string
	}{
		{"input", done[any, any](0, []int{1}, 0, 1, 2), "operation 0's input (type interface {}) holds a value of dynamic type []int"},
		{"output", done[any, any](0, 1, []string{"x"}, 1, 2), "operation 0's output (type interface {}) holds a value of dynamic type []string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Check(spec, []histories.Operation[any, any]{tc.op})
			if res.Verdict != Unknown || res.Err == nil || !strings.Contains(res.Err.Error(), tc.want) {
				t.Errorf("verdict %v, Err %v, want Unknown and %q", res.Verdict, res.Err, tc.want)
			}
		})
	}
}

// A specification's panic names the full path of its file, which says where the
// specification is even when the function's name does not (a closure of an inlined
// function is named after the function it was inlined into).
func TestSpecPanicNamesTheFile(t *testing.T) {
	var ops []histories.Operation[int, int]
	for i := range 3 {
		ops = append(ops, done(0, i+1, 0, int64(2*i), int64(2*i+1)))
	}
	res := Check(userspec.Stack(), ops)
	var p *SpecPanicError
	if !errors.As(res.Err, &p) {
		t.Fatalf("Err = %v, want a *SpecPanicError", res.Err)
	}
	want := filepath.Join("wgl", "internal", "userspec", "userspec.go")
	if !strings.HasSuffix(p.File, want) || !filepath.IsAbs(p.File) {
		t.Errorf("File = %q, want the full path of %s", p.File, want)
	}
	if msg := p.Error(); !strings.Contains(msg, "(at userspec.go:") || !strings.Contains(msg, ", file "+p.File+")") {
		t.Errorf("error %q, want (at userspec.go:LINE in FUNC, file %s)", msg, p.File)
	}
}
