package ravelcli

import (
	"strings"
	"testing"
)

// TestDepthCutHintNamesDepth: a search that only the depth budget left incomplete gets
// a hint that names the depth first, and caching only for paths that loop, without
// telling a dpor run to use dpor; one stopped at the schedule budget keeps the caching
// hint.
func TestDepthCutHintNamesDepth(t *testing.T) {
	const cachingHint = "hint: --strategy dpor --state-caching on --max-schedules 0"
	for _, c := range []struct {
		args     string
		want     string // a line the output has; "" for none
		dontWant string
	}{
		{"register-buggy --strategy dpor --max-depth 3", "hint: the depth budget (--max-depth 3) cut the search: raise it until nothing is cut; if the protocol's paths loop, --state-caching on --max-schedules 0", "--strategy dpor --state-caching"},
		{"register-buggy --max-depth 3", "hint: the depth budget (--max-depth 3) cut the search: raise it until nothing is cut; if the protocol's paths loop, --strategy dpor --state-caching on", cachingHint},
		{"gossip --max-schedules 100", cachingHint, "hint: the depth budget"},
	} {
		t.Run(c.args, func(t *testing.T) {
			code, stdout, stderr := runRavel(append([]string{"check", "--quiet"}, strings.Fields(c.args)...)...)
			if code == exitUsage {
				t.Fatalf("exit 2: %s", stderr)
			}
			if !strings.Contains(stdout, c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, stdout)
			}
			if strings.Contains(stdout, c.dontWant) {
				t.Errorf("output has %q:\n%s", c.dontWant, stdout)
			}
		})
	}
}
