package report

import (
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/model"
)

// Clients describes sys's harness by what it does — its specification, each client with
// the actor it calls and its operations in order, and the timeouts a client may take:
//
//	spec register; c0 → n0: Write(1); c1 → n1: Read()
//
// Two harnesses with one description send the same requests, so a schedule found under
// one replays under the other; a counterexample file records it (RunInfo.Clients) so that
// a replay under another harness is refused instead of replaying a meaningless schedule.
func Clients(sys *model.System) string {
	h := sys.Harness
	spec := h.Spec()
	parts := make([]string, 0, h.NumClients()+2)
	parts = append(parts, "spec "+spec.Name)
	for c := range h.NumClients() {
		in := make([]string, h.Ops(c))
		for k := range in {
			in[k] = spec.Input(h.Input(c, k))
		}
		parts = append(parts, fmt.Sprintf("%s → %s: %s", sys.ActorName(model.ClientID(c)), sys.ActorName(h.Target(c)), strings.Join(in, " ")))
	}
	if t := h.Timeouts(); t > 0 {
		parts = append(parts, fmt.Sprintf("timeouts %d", t))
	}
	return strings.Join(parts, "; ")
}

// CheckClients refuses to replay f on sys when f records the harness it was found under
// and sys's harness is another one; files that record none (written before the field
// existed) pass.
func (f File) CheckClients(sys *model.System) error {
	if f.Run.Clients == "" {
		return nil
	}
	if now := Clients(sys); now != f.Run.Clients {
		return fmt.Errorf("the counterexample was found under the harness %q, but the system's harness is %q: its schedule means nothing under another harness", f.Run.Clients, now)
	}
	return nil
}
