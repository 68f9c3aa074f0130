package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigUnknownKey: an unknown key is named in the config's terms with the valid
// ones, not as "field foo not found in type live.Config".
func TestConfigUnknownKey(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"top level", "nodes:\n  count: 1\n  command: [/bin/true]\nfoo: 1\n",
			`line 4: unknown key "foo" at the top level (valid: name, nodes, network, workload, scheduler, faults, iterations, seed, output, stop_on_violation, keep_data)`},
		{"in a section", "nodes:\n  count: 1\n  comand: [/bin/true]\n",
			`line 3: unknown key "comand" in nodes (valid: count, command, env, base_port, health, start_timeout)`},
		{"two", "workload:\n  op: 3\nfaults:\n  dorp: 1\n",
			`line 2: unknown key "op" in workload (valid: `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ravel.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadConfig(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "live.") {
				t.Errorf("error %v, want one containing %q and no Go type", err, tc.want)
			}
		})
	}
}

// TestConfigTypeErrors: a value of the wrong type is named by its field with the form
// expected, not as "malformed YAML … cannot unmarshal !!int `5` into time.Duration".
func TestConfigTypeErrors(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"duration", "nodes:\n  count: 1\n  start_timeout: 5\n", "line 3: nodes.start_timeout: write a duration such as 5s or 500ms (got 5)"},
		{"count", "nodes:\n  count: three\n", "line 2: nodes.count: write a whole number (got three)"},
		{"seed", "seed: -1\n", "line 1: seed: write a whole number, not negative (got -1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ravel.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadConfig(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "malformed") {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestLoadScheduleOfACheckFile: a ravel check counterexample given to --replay is named
// as such, with the command that replays it, not as a JSON decoding error.
func TestLoadScheduleOfACheckFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, json, want string }{
		{"check file", `{"format":"ravel-violation/2","run":{"system":"register"},"violation":{}}`, "is a ravel check counterexample (ravel-violation/2): replay it with `ravel replay "},
		{"not a schedule", `[1]`, "not the schedule.json of a ravel run iteration"},
		{"a schedule", `{"seed":3,"run":1,"steps":[{"op":"heal"}]}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tc.json), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := LoadSchedule(path)
			if tc.want == "" {
				if err != nil || s.Seed != 3 || s.Run != 1 {
					t.Errorf("LoadSchedule = %+v, %v; want seed 3, run 1", s, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
