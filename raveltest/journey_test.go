package raveltest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/raveltest"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/workloads"
)

// Store is the README's primary-backup register: the primary answers a write before its
// backup has it.
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

// testLazyBackup is the body of the README's TestLazyBackup, verbatim.
func testLazyBackup(t testing.TB) {
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

// TestJourney runs the README's test on a recorder (it fails, as the README says), in a
// scratch directory: it saves the counterexample under testdata/ravel/TestLazyBackup.
func TestJourney(t *testing.T) {
	wd, _ := os.Getwd()
	tmp := t.TempDir()
	if err := os.Chdir(tmp); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	r := &named{recorder: recorder{TB: t}, name: "TestLazyBackup"}
	testLazyBackup(r)
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "lazy-backup under workload all:ops=3,clients=2#") {
		t.Fatalf("errors %q, want one naming the workload", r.errors)
	}
	files, _ := filepath.Glob(filepath.Join(tmp, "testdata", "ravel", "TestLazyBackup", "*.json"))
	if len(files) != 1 {
		t.Errorf("saved: %v, want one file", files)
	}
}

type named struct {
	recorder
	name string
}

func (n *named) Name() string { return n.name }
