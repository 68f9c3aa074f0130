package ravelcli

import (
	"strings"
	"testing"
)

// TestListSystem: ravel list SYSTEM shows the numbers of agents the system's Build
// accepts and each harness's clients, read from the system itself: leader's exactly 3
// agents, abd's 3 and up, and harnesses whose names say only their size (leader's 1rw:
// one client, a write then a read; abd's 2w2r: one client writes twice).
func TestListSystem(t *testing.T) {
	for _, c := range []struct {
		system string
		want   []string
	}{
		{"register", []string{"agents: 2 by default; accepted: 1–48", "2r1w  c0 Write(1) at n0; c1 Read() at n1; c2 Read() at n0"}},
		{"leader", []string{"accepted: 3\n", "1rw   c0 Write(1) then Read() at n1"}},
		{"abd", []string{"accepted: 3–48", "2w2r      c0 Write(1) then Write(2) at n0; c1 Read() at n1; c2 Read() at n2"}},
		{"register-idempotent", []string{"accepted: 1–48"}},
	} {
		code, stdout, stderr := runRavel("list", c.system)
		if code != exitOK {
			t.Fatalf("list %s: exit %d, stderr %q", c.system, code, stderr)
		}
		for _, w := range append(c.want, "name the reads first") {
			if !strings.Contains(stdout, w) {
				t.Errorf("list %s does not say %q:\n%s", c.system, w, stdout)
			}
		}
	}
}
