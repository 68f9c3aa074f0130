package model_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// TestNamedOperationsListsOnlyValidNames: the error lists the names the table has, not a
// name of names it lacks — the one refused among them (probe G4).
func TestNamedOperationsListsOnlyValidNames(t *testing.T) {
	_, err := model.NamedOperations(map[string][]int{"a": {1}, "z": {2}}, []string{"a", "b"}, "b")
	if err == nil || !strings.Contains(err.Error(), "(valid: a, z)") {
		t.Errorf("NamedOperations = %v, want valid: a, z", err)
	}
}

// TestOnePerOperationNoActors: n below 1 is a panic that says so, not a division by zero
// (probe G5).
func TestOnePerOperationNoActors(t *testing.T) {
	defer func() {
		if v := recover(); v == nil || !strings.Contains(v.(string), "OnePerOperation over 0 actors") {
			t.Errorf("panic %v, want OnePerOperation's own", v)
		}
	}()
	model.OnePerOperation(specs.Register(), 0, []specs.RegisterInput{specs.Read()})
}

// TestHasherValuePanicNamesType: the panic names the value's type, as the doc says
// (probe G6).
func TestHasherValuePanicNamesType(t *testing.T) {
	defer func() {
		if v := recover(); v == nil || !strings.Contains(v.(string), "int") {
			t.Errorf("panic %v, want the type int named", v)
		}
	}()
	var h model.Hasher
	h.Value(3)
}

// TestKeysNilAndZero: Key and Exclude on a nil Keys return a new one, on a zero Keys make
// its map, and a later declaration of a type replaces an earlier one (probe G5, G19).
func TestKeysNilAndZero(t *testing.T) {
	k := model.Key(nil, func(m int) string { return "k" })
	if key, known, _ := k.Of(1); key != "k" || !known {
		t.Errorf("Of(1) = %q %v on a Keys made from nil", key, known)
	}
	z := model.Exclude[int](&model.Keys{})
	if _, _, ex := z.Of(1); !ex {
		t.Error("Exclude on a zero Keys did not exclude")
	}
	model.Key(z, func(m int) string { return "k" })
	if key, known, ex := z.Of(1); key != "k" || !known || ex {
		t.Errorf("Of(1) = %q %v %v after Key replaced Exclude", key, known, ex)
	}
}
