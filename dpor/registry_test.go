package dpor_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
)

// named is a relation whose name is chosen by the test: every pair dependent.
type named string

func (n named) Name() string                     { return string(n) }
func (named) Dependent(a, b *dpor.StepInfo) bool { return true }
func (named) NeedsReturns() bool                 { return false }
func (named) NeedsKeys() bool                    { return false }

// other is another type of relation.
type other string

func (o other) Name() string                     { return string(o) }
func (other) Dependent(a, b *dpor.StepInfo) bool { return false }
func (other) NeedsReturns() bool                 { return false }
func (other) NeedsKeys() bool                    { return false }

func newNamed(name string) func() dpor.Dependence {
	return func() dpor.Dependence { return named(name) }
}

func TestRegisterDependence(t *testing.T) {
	if err := dpor.RegisterDependence("test-everything", "every pair dependent", newNamed("test-everything")); err != nil {
		t.Fatalf("register: %v", err)
	}
	d, err := dpor.DependenceByName("test-everything")
	if err != nil {
		t.Fatalf("by name: %v", err)
	}
	if d.Name() != "test-everything" {
		t.Errorf("name %q", d.Name())
	}
	s, err := dpor.New("dpor", dpor.Config{Dependence: "test-everything"})
	if err != nil {
		t.Fatalf("strategy: %v", err)
	}
	if got := dpor.RelationOf(s).Name(); got != "test-everything" {
		t.Errorf("strategy's relation %q", got)
	}
	names := dpor.Dependences()
	if got := strings.Join(names[:3], ","); got != "actor,history,key" {
		t.Errorf("built-ins first: %s", got)
	}
	if names[len(names)-1] != "test-everything" {
		t.Errorf("registered last: %v", names)
	}
	for _, info := range dpor.DependenceInfos() {
		if info.Doc == "" {
			t.Errorf("%s has no doc", info.Name)
		}
		if info.Builtin != (info.Name == "actor" || info.Name == "history" || info.Name == "key") {
			t.Errorf("%s: builtin %v", info.Name, info.Builtin)
		}
	}
}

func TestRegisterDependenceErrors(t *testing.T) {
	for _, tc := range []struct {
		name, reg string
		make      func() dpor.Dependence
		want      string
	}{
		{"empty", "", newNamed(""), "empty name"},
		{"comma", "a,b", newNamed("a,b"), "commas"},
		{"space", "a b", newNamed("a b"), "commas or spaces"},
		{"builtin", "history", newNamed("history"), "taken"},
		{"nil constructor", "x-nil", nil, "no constructor"},
		{"nil relation", "x-nilrel", func() dpor.Dependence { return nil }, "returned nil"},
		{"name mismatch", "x-one", newNamed("x-two"), `calls itself "x-two"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := dpor.RegisterDependence(tc.reg, "doc", tc.make)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	t.Run("twice", func(t *testing.T) {
		if err := dpor.RegisterDependence("test-twice", "doc", newNamed("test-twice")); err != nil {
			t.Fatal(err)
		}
		if err := dpor.RegisterDependence("test-twice", "doc", newNamed("test-twice")); err != nil {
			t.Fatalf("the same relation again: %v", err)
		}
		if err := dpor.RegisterDependence("test-twice", "another doc", newNamed("test-twice")); err == nil || !strings.Contains(err.Error(), "taken") {
			t.Fatalf("another relation of the same name: %v", err)
		}
		if err := dpor.RegisterDependence("test-twice", "doc", func() dpor.Dependence { return other("test-twice") }); err == nil || !strings.Contains(err.Error(), "taken") {
			t.Fatalf("another type of the same name: %v", err)
		}
		n := 0
		for _, name := range dpor.Dependences() {
			if name == "test-twice" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("listed %d times", n)
		}
	})
	if _, err := dpor.DependenceByName("nope"); err == nil || !strings.Contains(err.Error(), "valid: actor, history, key") {
		t.Errorf("unknown name: %v", err)
	}
}
