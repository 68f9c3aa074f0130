package model_test

import (
	"context"
	"fmt"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// Store is one copy of a primary-backup register. The primary (n0) answers a write
// before its backup (n1) has heard of it: a classic lost-update bug.
type Store struct{ Value int } // an actor: its fields are its state

// Update tells the backup the new value.
type Update struct{ Value int } // a message: any Go value

func (s *Store) Receive(ctx *model.Ctx, env model.Envelope) {
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]: // a client's invocation
		if m.Input.Write {
			s.Value = m.Input.Value
			ctx.Send(1, Update{Value: m.Input.Value}) // tell the backup…
			ctx.Respond(m.ID, specs.WriteOK())        // …but answer before it knows
			return
		}
		ctx.Respond(m.ID, specs.ReadOK(s.Value))
	case Update:
		s.Value = m.Value
	}
}

// A whole system in the DSL: two actors, two clients, the register specification, and
// an exhaustive search that finds the stale read.
func Example() {
	sys := model.System{
		Name:   "lazy-backup",
		Actors: []model.Actor{&Store{}, &Store{}},
		Harness: model.Clients(specs.Register(),
			model.Calls(0, specs.Write(1)), // client c0 writes at the primary
			model.Calls(1, specs.Read()),   // client c1 reads at the backup
		),
	}
	res, err := explorer.Run(context.Background(), sys, explorer.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("schedules:", res.Stats.Schedules, "complete:", res.Complete)
	if res.First == nil {
		fmt.Println("no violation")
		return
	}
	// res.First is the violation: its history and its schedule
	fmt.Print(histories.Timeline(&sys, res.First.Events))
	fmt.Print(explorer.DescribeSchedule(&sys, res.First.Steps))
	// Output:
	// schedules: 3 complete: true
	//   c0  Write(1)  ├──┤ ok
	//   c1  Read()          ├──┤ 0
	//    1  c0 → n0  Request{c0.0 Write(1)}
	//    2  c1 → n1  Request{c1.0 Read()}
	//    3  n0 → n1  Update{Value:1}
}
