package lazybackup

import (
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/workloads"
)

func TestLazyBackup(t *testing.T) {
	sys := model.System{
		Name:   "lazy-backup",
		Actors: []model.Actor{&Store{}, &Store{}},
		Harness: model.Clients(specs.Register(),
			model.Calls(0, specs.Write(1)),
			model.Calls(1, specs.Read()),
		),
	}
	// every workload of up to 3 operations over up to 2 clients, on the inputs above
	raveltest.Check(t, sys, raveltest.Workloads(workloads.Generator{Clients: 2, Ops: 3}))
}
