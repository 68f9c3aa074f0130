package live

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
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
		{"all start-up", `{"seed":1,"steps":[{"op":"heal"}],"startup":1}`, "startup 1: want 0 to 0"},
		{"negative start-up", `{"seed":1,"steps":[{"op":"heal"}],"startup":-1}`, "startup -1"},
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

// TestScheduleJSON: schedule.json writes every field a step's op uses, zeros included
// (omitempty used to drop sender 0, receiver 0 and message 0), reads back the same, and
// still reads a file written the old way.
func TestScheduleJSON(t *testing.T) {
	s := Schedule{Seed: 1, Steps: []Step{
		{Op: "deliver", Msg: 0, From: 0, To: 0, Kind: "k"},
		{Op: "drop", Msg: 3, From: -1, To: 2, Kind: "MsgVote"},
		{Op: "crash", Node: 0},
		{Op: "restart", Node: 0},
		{Op: "partition", Group: []int{0, 1, 0}},
		{Op: "heal"},
	}}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"op":"deliver","msg":0,"from":0,"to":0,"kind":"k"}`,
		`{"op":"drop","msg":3,"from":-1,"to":2,"kind":"MsgVote"}`,
		`{"op":"crash","node":0}`,
		`{"op":"restart","node":0}`,
		`{"op":"partition","group":[0,1,0]}`,
		`{"op":"heal"}`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("schedule.json lacks %s:\n%s", want, b)
		}
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"new": string(b),
		"old": `{"seed":1,"run":0,"steps":[{"op":"deliver","kind":"k"},{"op":"drop","msg":3,"from":-1,"to":2,"kind":"MsgVote"},` +
			`{"op":"crash"},{"op":"restart"},{"op":"partition","group":[0,1,0]},{"op":"heal"}]}`,
	} {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := LoadSchedule(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(*got, s) {
			t.Errorf("%s file read as %+v, want %+v", name, *got, s)
		}
	}
}

// TestUnknownSenderNotation: events.txt and the replay log write an unknown sender the
// same way, ?→n2 (the replay log used to write n-1→n2); a partition is written with its
// sides.
func TestUnknownSenderNotation(t *testing.T) {
	if got := describe(Message{ID: 4, From: -1, To: 2, Summary: "MsgVote"}); got != "m4 ?→n2 MsgVote" {
		t.Errorf("describe = %q", got)
	}
	s := &stepper{cfg: &Config{}, replay: true, script: []Step{{Op: "deliver", From: -1, To: 2, Kind: "MsgVote"}}, t0: time.Now()}
	s.replayStep(nil) // patience 0: skipped at once
	if len(s.events) != 1 || !strings.Contains(s.events[0], "replay: no deliver ?→n2 MsgVote") {
		t.Errorf("replay log %q, want it to name ?→n2", s.events)
	}
	for group, want := range map[string]string{"[0 1 0]": "{n0 n2} | {n1}", "[1 1 0]": "{n0 n1} | {n2}"} {
		var g []int
		for _, c := range strings.Trim(group, "[]") {
			if c != ' ' {
				g = append(g, int(c-'0'))
			}
		}
		if got := partitionString(g); got != want {
			t.Errorf("partitionString(%s) = %q, want %q", group, got, want)
		}
	}
}
