package ravelcli_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/ravelcli"
	"github.com/ravelmc/ravel/systems/register"
)

// MyRegister is a system as the command line knows it: a name, its harnesses (the
// default first), the default number of agents, and Build, which gets what the command
// line asked for with the defaults filled in. Here it wraps a constructor of Ravel's own
// (DS2's erroneous register); a user's wraps theirs (docs/user-guide.md).
var MyRegister = ravelcli.System{
	Name:      "my-register",
	Summary:   "the erroneous register, under a name of my own",
	Harnesses: register.HarnessNames,
	Agents:    3,
	Build: func(c ravelcli.Config) (model.System, error) {
		return register.NewBuggy(c.Agents, c.Harness)
	},
}

// A user's own command is one call; its main is
//
//	func main() { ravelcli.Main(ravelcli.Systems(MyRegister)) }
//
// Run is the same command line with the arguments and outputs passed in.
func Example() {
	catalog := ravelcli.Systems(MyRegister)
	var list bytes.Buffer
	code := ravelcli.Run([]string{"list"}, &list, os.Stderr, catalog)
	systems, _, _ := strings.Cut(list.String(), "\n\n") // the strategies and faults follow
	fmt.Printf("ravel list: exit %d\n%s\n", code, systems)

	var check bytes.Buffer
	code = ravelcli.Run([]string{"check", "my-register", "--quiet"}, &check, os.Stderr, catalog)
	_, violation, _ := strings.Cut(check.String(), "\nVIOLATION")
	violation, _, _ = strings.Cut(violation, "\nwhy")
	fmt.Printf("ravel check my-register: exit %d\nVIOLATION%s", code, violation)

	code = ravelcli.Run([]string{"check", "register-buggy"}, &check, os.Stdout, catalog)
	fmt.Printf("ravel check register-buggy: exit %d\n", code)
	// Output:
	// ravel list: exit 0
	// SYSTEM       HARNESSES       AGENTS  RESTARTS  WHAT
	// my-register  2r1w,2r2w,1r1w  3       yes       the erroneous register, under a name of my own
	// (RESTARTS: whether a crashed actor comes back; where none does, a crash is crash-stop)
	// (ravel list SYSTEM: the agents it accepts, and what each harness runs)
	// ravel check my-register: exit 1
	// VIOLATION: schedule 16 gives a history that is not linearizable
	//
	// history (each operation spans its invocation … its response):
	//   c0  Write(1)  ├──┤ ok
	//   c2  Read()          ├──┤ 0
	// ravel: check: unknown system "register-buggy" (valid: my-register)
	// ravel check register-buggy: exit 2
}
