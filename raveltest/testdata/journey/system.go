package lazybackup

import (
	"fmt"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/ravelcli"
	"github.com/ravelmc/ravel/specs"
)

// System is lazy-backup for the command line: a name, the harnesses Build knows (the
// default first), the default number of agents, and Build.
var System = ravelcli.System{
	Name:      "lazy-backup",
	Summary:   "a primary-backup register that answers a write before its backup has it",
	Harnesses: []string{"w1-r1"},
	Agents:    2,
	Build: func(c ravelcli.Config) (model.System, error) {
		if c.Harness != "w1-r1" || c.Agents != 2 {
			return model.System{}, fmt.Errorf("lazy-backup has the harness w1-r1 and 2 agents, got %q and %d", c.Harness, c.Agents)
		}
		return model.System{
			Name:   "lazy-backup",
			Actors: []model.Actor{&Store{}, &Store{}},
			Harness: model.Clients(specs.Register(),
				model.Calls(0, specs.Write(1)),
				model.Calls(1, specs.Read()),
			),
		}, nil
	},
}
