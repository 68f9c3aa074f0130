package explorer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems/register"
)

// TestMinimizeNilViolation: Minimize refuses a nil violation with an error. It used to
// panic with a nil dereference.
func TestMinimizeNilViolation(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	v, err := explorer.Minimize(context.Background(), sys, nil)
	if v != nil || err == nil || !strings.Contains(err.Error(), "no violation") {
		t.Errorf("Minimize(nil) = %v, %v; want nil and an error saying there is no violation", v, err)
	}
}
