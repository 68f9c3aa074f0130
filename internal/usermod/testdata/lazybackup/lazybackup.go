// Package lazybackup is the user's module of docs/user-guide.md: a primary-backup register
// whose primary answers a write before its backup has it, its test, and (cmd/lazybackup)
// its command line. ravelcli's TestUserModule and raveltest's TestJourneyModule build it
// as a module of its own (internal/usermod) and run them.
package lazybackup

import (
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

type Store struct{ Value int }
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
