package lazybackup

import (
	"fmt"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/ravelcli"
	"github.com/ravelmc/ravel/specs"
)

// System is lazy-backup for the command line: client c0 writes at the primary n0, and c1
// reads at the backup n1 (backup-read: the stale read) or at the primary (primary-read:
// linearizable).
var System = ravelcli.System{
	Name:      "lazy-backup",
	Summary:   "a primary-backup register that answers a write before its backup has it",
	Harnesses: []string{"backup-read", "primary-read"},
	Agents:    2,
	Build: func(c ravelcli.Config) (model.System, error) {
		readAt := map[string]model.ID{"backup-read": 1, "primary-read": 0}
		at, ok := readAt[c.Harness]
		if !ok || c.Agents != 2 {
			return model.System{}, fmt.Errorf("lazy-backup: harness %q, %d agents: want backup-read or primary-read, and 2 agents", c.Harness, c.Agents)
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
