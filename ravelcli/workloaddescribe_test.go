package ravelcli

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// staleCell is a one-actor register that answers a read with the value before the last
// write.
type staleCell struct{ Value, Prev int }

func (c *staleCell) Receive(ctx *model.Ctx, env model.Envelope) {
	m := env.Msg.(model.Request[specs.RegisterInput])
	if m.Input.Write {
		c.Prev, c.Value = c.Value, m.Input.Value
		ctx.Respond(m.ID, specs.WriteOK())
		return
	}
	ctx.Respond(m.ID, specs.ReadOK(c.Prev))
}

// staleCellSystem is the stale cell under a harness of three distinct inputs, in the
// order given.
func staleCellSystem(name string, a, b, c specs.RegisterInput) System {
	return System{Name: name, Harnesses: []string{"three"}, Agents: 1,
		Build: func(Config) (model.System, error) {
			return model.System{Name: name, Actors: []model.Actor{&staleCell{}},
				Harness: model.Clients(specs.Register(), model.Calls(0, a, b), model.Calls(0, c))}, nil
		}}
}

// historyLine is one operation of a printed history: "  c0  Write(1)  ├──┤ ok".
var historyLine = regexp.MustCompile(`^\s+(c\d+)\s+(\S+)\s+├`)

// TestCheckWorkloadsNamesTheFailingWorkload: with three distinct inputs, check
// --workloads describes the failing workload over the harness's alphabet, which its
// operations index, so it names exactly the inputs the history shows (the workload's own
// system's alphabet lists only the inputs it uses, and indexing it panicked or named
// other inputs).
func TestCheckWorkloadsNamesTheFailingWorkload(t *testing.T) {
	for _, tc := range []struct {
		name string
		sys  System
	}{
		// The first failing workload is Write(1) Read(): operations 0 and 2 of a
		// workload alphabet of two.
		{"index past the workload's inputs", staleCellSystem("stale-w1w2r", specs.Write(1), specs.Write(2), specs.Read())},
		// The first failing workload is Write(2) Read(): operations 1 and 0, which the
		// workload's alphabet reads as Read() Write(2).
		{"inputs in another order", staleCellSystem("stale-rw2w1", specs.Read(), specs.Write(2), specs.Write(1))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run([]string{"check", tc.sys.Name, "--workloads", "all:ops=2,clients=1", "--quiet"}, &stdout, &stderr, Systems(tc.sys))
			if code != exitViolation {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitViolation, stderr.String())
			}
			out := stdout.String()
			first, _, _ := strings.Cut(out, "\n")
			_, desc, ok := strings.Cut(first, " fails: ")
			if !ok {
				t.Fatalf("the first line names no failing workload:\n%s", out)
			}
			header := map[string][]string{}
			for _, part := range strings.Split(desc, "; ") {
				who, ops, _ := strings.Cut(part, ": ")
				client, _, _ := strings.Cut(who, " ")
				header[client] = strings.Fields(ops)
			}
			history := map[string][]string{}
			_, hist, _ := strings.Cut(out, "\nhistory")
			hist, _, _ = strings.Cut(hist, "\n\n")
			for _, l := range strings.Split(hist, "\n") {
				if m := historyLine.FindStringSubmatch(l); m != nil {
					history[m[1]] = append(history[m[1]], m[2])
				}
			}
			if len(history) == 0 {
				t.Fatalf("no history in the output:\n%s", out)
			}
			for c, ops := range history {
				if !slices.Equal(header[c], ops) {
					t.Errorf("header gives %s %v, history shows %v:\n%s", c, header[c], ops, out)
				}
			}
		})
	}
}
