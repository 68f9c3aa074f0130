package ravelcli_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/ravelcli"
	"github.com/ravelmc/ravel/specs"
)

// Store is one copy of a primary-backup register whose primary answers a write before
// its backup (n1) has it.
type Store struct{ Value int }

// Update tells the backup the new value.
type Update struct{ Value int }

func (s *Store) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		if m.Input.Write {
			s.Value = m.Input.Value
			ctx.Send(1, Update{Value: m.Input.Value})
			ctx.Respond(m.ID, specs.WriteOK())
			return
		}
		ctx.Respond(m.ID, specs.ReadOK(s.Value))
	case Update:
		s.Value = m.Value
	}
}

// LazyBackup is the system as the command line knows it: a name, its harnesses (the
// default first), the default number of agents, and Build.
var LazyBackup = ravelcli.System{
	Name:      "lazy-backup",
	Summary:   "a primary-backup register that answers writes before the backup has them",
	Harnesses: []string{"read-primary", "read-backup"},
	Agents:    2,
	Build: func(c ravelcli.Config) (model.System, error) {
		reader := map[string]model.ID{"read-primary": 0, "read-backup": 1}
		at, ok := reader[c.Harness]
		if !ok {
			return model.System{}, fmt.Errorf("unknown harness %q (valid: read-primary, read-backup)", c.Harness)
		}
		return model.System{
			Name:   "lazy-backup",
			Actors: []model.Actor{&Store{}, &Store{}},
			Harness: model.Clients(specs.Register(),
				model.Calls(0, specs.Write(1)),
				model.Calls(at, specs.Read()),
			),
		}, nil
	},
}

// A user's own command is one call; its main is
//
//	func main() { ravelcli.Main(ravelcli.Systems(LazyBackup)) }
//
// Run is the same command line with the arguments and outputs passed in.
func Example() {
	catalog := ravelcli.Systems(LazyBackup)
	var list bytes.Buffer
	code := ravelcli.Run([]string{"list"}, &list, os.Stderr, catalog)
	systems, _, _ := strings.Cut(list.String(), "\n\n") // the strategies and faults follow
	fmt.Printf("ravel list: exit %d\n%s\n", code, systems)

	var check bytes.Buffer
	code = ravelcli.Run([]string{"check", "lazy-backup", "--harness", "read-backup", "--quiet"}, &check, os.Stderr, catalog)
	_, violation, _ := strings.Cut(check.String(), "\nVIOLATION")
	violation, _, _ = strings.Cut(violation, "\nwhy")
	fmt.Printf("ravel check lazy-backup --harness read-backup: exit %d\nVIOLATION%s", code, violation)
	// Output:
	// ravel list: exit 0
	// SYSTEM              HARNESSES                 AGENTS  WHAT
	// lazy-backup         read-primary,read-backup  2       a primary-backup register that answers writes before the backup has them
	// ravel check lazy-backup --harness read-backup: exit 1
	// VIOLATION: schedule 1 gives a history that is not linearizable
	//
	// history (each operation spans its invocation … its response):
	//   c0  Write(1)  ├──┤ ok
	//   c1  Read()          ├──┤ 0
}
