package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadScheduleRefuses: a file that is not a recorded schedule is refused, the error
// naming the file and what is wrong. `{}` used to be accepted as a replay of nothing (and
// the stepper then sampled afresh, faults on), an unknown op as a delivery.
func TestLoadScheduleRefuses(t *testing.T) {
	cases := []struct {
		name, json, want string
	}{
		{"empty object", `{}`, "no steps"},
		{"empty steps", `{"seed":1,"run":0,"steps":[]}`, "no steps"},
		{"unknown op", `{"seed":1,"run":0,"steps":[{"op":"explode"}]}`, `step 0: unknown op "explode"`},
		{"no op", `{"seed":1,"run":0,"steps":[{"op":"heal"},{"to":1}]}`, `step 1: unknown op ""`},
		{"unknown field", `{"seed":1,"run":0,"steps":[{"op":"deliver","sender":1}]}`, `unknown field "sender"`},
		{"an array", `[]`, "not the schedule.json"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(c.json), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadSchedule(path)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("LoadSchedule(%s) = %v, want an error naming the file and %q", c.json, err, c.want)
			}
		})
	}
}

// TestScheduleValidateNodes: a step naming a node the cluster does not have is refused;
// an unknown sender (-1) is not.
func TestScheduleValidateNodes(t *testing.T) {
	cases := []struct {
		name string
		step Step
		want string // "" for valid
	}{
		{"unknown sender", Step{Op: "deliver", From: -1, To: 2, Kind: "k"}, ""},
		{"from n0 to n0", Step{Op: "drop", From: 0, To: 0}, ""},
		{"sender out of range", Step{Op: "deliver", From: 3, To: 0}, "from 3"},
		{"sender below -1", Step{Op: "deliver", From: -2, To: 0}, "from -2"},
		{"receiver out of range", Step{Op: "deliver", From: 0, To: 5}, "to 5"},
		{"crash out of range", Step{Op: "crash", Node: 3}, "node 3"},
		{"restart negative", Step{Op: "restart", Node: -1}, "node -1"},
		{"partition of 2", Step{Op: "partition", Group: []int{0, 1}}, "one entry per node"},
		{"partition of 3", Step{Op: "partition", Group: []int{0, 1, 0}}, ""},
		{"heal", Step{Op: "heal"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Schedule{Steps: []Step{c.step}}
			err := s.Validate(3)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("Validate: %v, want nil", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("Validate: %v, want %q", err, c.want)
			}
		})
	}
}
