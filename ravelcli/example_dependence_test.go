package ravelcli_test

import (
	"fmt"
	"io"
	"os"

	"github.com/ravelmc/ravel/depbench"
	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/ravelcli"
	"github.com/ravelmc/ravel/systems/register"
)

// A user's dependence relation, registered by name beside the systems: check --dependence,
// ravel deps and ravel list then know it (docs/dependence.md). Here: history, except that
// the acknowledgements of a write to one coordinator commute; DPOR with it still finds the
// erroneous register's violation.
func ExampleDependence() {
	acks := func() dpor.Dependence {
		return depbench.Marks("acks", dpor.History(), register.WriteReplicaAck{})
	}
	opts := []ravelcli.Option{ravelcli.Builtins(),
		ravelcli.Dependence("acks", "history, but a write's acknowledgements commute", acks)}
	code := ravelcli.Run([]string{"check", "register-buggy", "--strategy", "dpor", "--dependence", "acks", "--max-schedules", "0", "--json"}, io.Discard, os.Stderr, opts...)
	fmt.Println("exit", code)
	// Output: exit 1
}
