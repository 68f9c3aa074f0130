// Package report turns what the explorer found into what people and tools read: the JSON
// of a counterexample that `ravel check --out` writes and `ravel replay` reads, and the
// text that ties a history to the schedule that produced it.
package report

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// RunInfo is what was asked for: enough to rebuild the system and run it again.
type RunInfo struct {
	System       string  `json:"system"`
	Harness      string  `json:"harness"`
	Strategy     string  `json:"strategy"`
	Agents       int     `json:"agents"`
	Retries      int     `json:"retries,omitempty"`
	StateCaching bool    `json:"state_caching"`
	Stateless    bool    `json:"stateless"`
	Seed         int64   `json:"seed"`
	MaxSchedules int64   `json:"max_schedules"`
	MaxDepth     int     `json:"max_depth"`
	Dependence   string  `json:"dependence,omitempty"`
	Delays       *int    `json:"delays,omitempty"`
	Faults       *Faults `json:"faults,omitempty"`
	// Workload names the generated workload the run used instead of the named harness.
	Workload string `json:"workload,omitempty"`
}

// Violation is a counterexample as JSON: its history and its schedule.
type Violation struct {
	Kind     string  `json:"kind"`
	Schedule int64   `json:"schedule_index"`
	Message  string  `json:"message,omitempty"`
	Replayed bool    `json:"replayed"`
	History  History `json:"history"`
	Steps    []Step  `json:"schedule"`
	// OriginalLength is the length of the schedule as found, when Steps was minimized.
	OriginalLength int `json:"original_length,omitempty"`
}

// History is a history as JSON: its events, and the timeline text.
type History struct {
	Events   []Event `json:"events"`
	Timeline string  `json:"timeline"`
}

// Event is one invocation or response.
type Event struct {
	Kind   string `json:"kind"`
	Client string `json:"client"`
	Op     string `json:"op"`
	Output string `json:"output,omitempty"`
}

// Step is one delivery of a schedule, numbered from 1.
type Step struct {
	Step  int    `json:"step"`
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	From  string `json:"from"`
	To    string `json:"to"`
	Msg   string `json:"msg"`
	Timer string `json:"timer,omitempty"`
}

// File is what check --out writes and replay reads.
type File struct {
	Format    string    `json:"format"`
	Run       RunInfo   `json:"run"`
	Violation Violation `json:"violation"`
}

// Format is the value of File.Format.
const Format = "ravel-violation/1"

// NewViolation renders v, found on sys.
func NewViolation(sys *model.System, v *explorer.Violation) Violation {
	return Violation{
		Kind:           v.Kind,
		Schedule:       v.Schedule,
		Message:        v.Message,
		Replayed:       v.Replayed,
		History:        NewHistory(sys, v.Events),
		Steps:          NewSteps(sys, v.Steps),
		OriginalLength: v.OriginalSteps, // 0 (omitted) unless minimized
	}
}

// NewHistory renders the history events of sys.
func NewHistory(sys *model.System, events []histories.Event) History {
	spec := sys.Harness.Spec()
	h := History{Events: make([]Event, len(events)), Timeline: histories.Timeline(sys, events)}
	for i, e := range events {
		in := sys.Harness.InputOf(e.Req)
		ev := Event{Kind: e.Kind.String(), Client: sys.ActorName(e.Req.Client), Op: spec.Input(in)}
		if e.Kind == histories.Return {
			ev.Output = spec.Output(in, e.Output)
		}
		h.Events[i] = ev
	}
	return h
}

// NewSteps renders a schedule of sys.
func NewSteps(sys *model.System, steps []explorer.Delivery) []Step {
	out := make([]Step, len(steps))
	for i, d := range steps {
		out[i] = Step{
			Step:  i + 1,
			ID:    fmt.Sprintf("%016x", d.ID),
			Kind:  d.Kind.String(),
			From:  sys.ActorName(d.From),
			To:    sys.ActorName(d.To),
			Msg:   explorer.DescribeMessage(d.Msg),
			Timer: d.Timer,
		}
		if d.Kind.IsFault() {
			out[i].Msg = explorer.DescribeFault(sys, d)
		}
	}
	return out
}

// WriteFile writes the counterexample v of the run info to path, in the format
// ReadFile and `ravel replay` read.
func WriteFile(path string, info RunInfo, v Violation) error {
	b, err := json.MarshalIndent(File{Format: Format, Run: info, Violation: v}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// ReadFile reads a counterexample written by WriteFile; it fails on anything else.
func ReadFile(path string) (File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, fmt.Errorf("%s: not a violation file: %v", path, err)
	}
	if f.Format != Format {
		return File{}, fmt.Errorf("%s: format %q, want %q (written by ravel check --out)", path, f.Format, Format)
	}
	return f, nil
}

// IDs are the event identities of the schedule, for explorer.Replay.
func (v Violation) IDs() ([]uint64, error) {
	ids := make([]uint64, len(v.Steps))
	for i, s := range v.Steps {
		id, err := strconv.ParseUint(s.ID, 16, 64)
		if err != nil {
			return nil, fmt.Errorf("step %d: bad id %q: want 16 hex digits", i+1, s.ID)
		}
		ids[i] = id
	}
	return ids, nil
}
