package live

import (
	"strings"
	"testing"
	"time"
)

// TestIterationWarnings: an iteration whose verdict says less than it reads gets a
// warning naming the likely causes in the config's terms; an ordinary one gets none.
func TestIterationWarnings(t *testing.T) {
	cfg := &Config{Nodes: NodesConfig{Count: 3}, Network: NetworkConfig{Protocol: "tcp"},
		Workload: WorkloadConfig{Client: "kvnode", OpTimeout: time.Millisecond}}
	msgs := Counts{Intercepted: 40, Delivered: 40}
	cases := []struct {
		name string
		ir   IterationReport
		want []string // a substring of each warning, in order
	}{
		{"ordinary", IterationReport{Ops: 47, Open: 3, Net: msgs}, nil},
		{"half open", IterationReport{Ops: 40, Open: 20, Net: msgs}, nil},
		{"nothing completed", IterationReport{Ops: 41, Open: 41, Net: msgs},
			[]string{"no operation completed (41 open), so nothing was checked: is workload.op_timeout (1ms) too short for the service, or workload.client (kvnode)"}},
		{"no operation", IterationReport{Net: msgs}, []string{"no operation completed (0 open)"}},
		{"most open", IterationReport{Ops: 47, Open: 37, Net: msgs},
			[]string{"37 of 47 operations open (timed out or outcome unknown), more than half: the history constrains little; is workload.op_timeout (1ms) too short?"}},
		{"no message", IterationReport{Ops: 47, Open: 29},
			[]string{"29 of 47 operations open", "no peer message was intercepted, so nothing was scheduled: is network.protocol (tcp) what the nodes speak"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := iterationWarnings(cfg, c.ir)
			if len(got) != len(c.want) {
				t.Fatalf("warnings %q, want %d", got, len(c.want))
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
	// One node has no peers: no message to intercept is no warning.
	one := *cfg
	one.Nodes.Count = 1
	if got := iterationWarnings(&one, IterationReport{Ops: 10}); len(got) != 0 {
		t.Errorf("one node: %q", got)
	}
}
