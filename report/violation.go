// Package report turns what the explorer found into what people and tools read: the JSON
// of a counterexample that `ravel check --out` writes and `ravel replay` reads, and the
// text that ties a history to the schedule that produced it.
package report

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
)

// RunInfo is what was asked for: enough to rebuild the system and run it again.
type RunInfo struct {
	System       string `json:"system"`
	Harness      string `json:"harness"`
	Strategy     string `json:"strategy"`
	Agents       int    `json:"agents"`
	Retries      int    `json:"retries,omitempty"`
	StateCaching bool   `json:"state_caching"`
	// CanonicalStates: with state caching, a state covered its history's canonical form,
	// not its order (--canonical-states).
	CanonicalStates bool  `json:"canonical_states,omitempty"`
	Stateless       bool  `json:"stateless"`
	Seed            int64 `json:"seed"`
	MaxSchedules    int64 `json:"max_schedules"`
	// MaxStates is the budget of distinct states (--max-states, with state caching); 0
	// means none.
	MaxStates  int64   `json:"max_states,omitempty"`
	MaxDepth   int     `json:"max_depth"`
	Dependence string  `json:"dependence,omitempty"`
	Delays     *int    `json:"delays,omitempty"`
	Faults     *Faults `json:"faults,omitempty"`
	// Workload names the generated workload the run used instead of the named harness.
	Workload string `json:"workload,omitempty"`
	// Clients describes the harness the run used by what it does (report.Clients): a
	// replay refuses a system whose harness differs, and finds the named harness of a
	// file that names none (raveltest's).
	Clients string `json:"clients,omitempty"`
	// Reflective: the run used the reflective copy and fingerprint (--reflective), from
	// which the schedule's event identities come; a replay must use them too
	// (explorer.Replay's reflective). Omitted when false, so older files still read.
	Reflective bool `json:"reflective,omitempty"`
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

// File is what check --out and raveltest write and replay reads. ScheduleDigest and
// Fingerprint identify the violation: Read refuses a file whose digest does not match
// its run and schedule (edited or damaged), and replay one whose replay does not end in
// the saved state.
type File struct {
	Format         string    `json:"format"`
	Run            RunInfo   `json:"run"`
	ScheduleDigest string    `json:"schedule_digest"`
	Fingerprint    string    `json:"fingerprint"`
	Violation      Violation `json:"violation"`
}

// Format is the value of File.Format.
const Format = "ravel-violation/2"

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

// MinimizedNote says how v's reported schedule relates to the one found, for the line
// that reports it: "" when it was not shrunk, else "; minimized from 7 steps to 4", or
// "; minimal: no step could be removed" when minimization kept every step (or, when it
// was interrupted, "; shrunk from 7 steps, minimization interrupted").
func MinimizedNote(v *explorer.Violation) string {
	switch {
	case v.OriginalSteps == 0:
		return ""
	case !v.Minimized && len(v.Steps) == v.OriginalSteps:
		return "; minimization interrupted before it removed a step"
	case !v.Minimized:
		return fmt.Sprintf("; shrunk from %d steps, minimization interrupted", v.OriginalSteps)
	case len(v.Steps) == v.OriginalSteps:
		// Not "minimized from 8 steps to 8" (docs probe).
		return "; minimal: no step could be removed"
	}
	return fmt.Sprintf("; minimized from %d steps to %d", v.OriginalSteps, len(v.Steps))
}

// NotReplayedWarning is the line that reports a violation whose schedule, replayed from
// the initial state, did not reach the same state (explorer.Violation.Replayed false):
// the system or the finding is suspect, as a handler is not deterministic — or an
// actor's Clone method shares memory with the original in a way the explorer's check
// (Violation kind shared-clone) did not see.
const NotReplayedWarning = "WARNING: replaying this schedule from the initial state did not reach the same state: a handler is not deterministic, or an actor's Clone method shares memory with the original (run with --reflective to tell)"

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
			Msg:   explorer.DescribeMessageOf(sys, d.Msg),
			Timer: d.Timer,
		}
		if d.Kind.IsFault() {
			out[i].Msg = explorer.DescribeFault(sys, d)
		}
	}
	return out
}

// ScheduleDigest identifies a violation's run and schedule: the system, harness, agents,
// retries, fault budgets, workload, clients and fingerprint mode (reflective) it was found
// with, and the events delivered. A
// file whose digest does not match them was edited or damaged.
func ScheduleDigest(info RunInfo, ids []uint64) string {
	h := xxhash.New()
	fmt.Fprintf(h, "%q %q %d %d %d\n", info.System, info.Harness, info.Agents, info.Retries, len(ids))
	if info.Faults != nil {
		fmt.Fprintf(h, "faults %+v\n", *info.Faults)
	}
	if info.Workload != "" {
		// Only when set, so that the digests of files without a workload stay as they were.
		fmt.Fprintf(h, "workload %q\n", info.Workload)
	}
	if info.Clients != "" {
		// Likewise only when set.
		fmt.Fprintf(h, "clients %q\n", info.Clients)
	}
	if info.Reflective {
		// Likewise only when set: the event identities are the reflective fingerprint's.
		fmt.Fprintf(h, "reflective\n")
	}
	var b [8]byte
	for _, id := range ids {
		binary.LittleEndian.PutUint64(b[:], id)
		h.Write(b[:])
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// NewFile is the file of the counterexample v of the run info, whose schedule ends in
// the state with the given fingerprint (explorer.Violation.Fingerprint).
func NewFile(info RunInfo, v Violation, fingerprint uint64) (File, error) {
	ids, err := v.IDs()
	if err != nil {
		return File{}, err
	}
	return File{Format: Format, Run: info, ScheduleDigest: ScheduleDigest(info, ids),
		Fingerprint: fmt.Sprintf("%016x", fingerprint), Violation: v}, nil
}

// WriteFile writes the counterexample v of the run info, whose schedule ends in the
// state with the given fingerprint, to path, in the format Read and `ravel replay` read.
func WriteFile(path string, info RunInfo, v Violation, fingerprint uint64) error {
	b, err := Marshal(info, v, fingerprint)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// Marshal is what WriteFile writes: the file's bytes, for a caller that writes them
// itself.
func Marshal(info RunInfo, v Violation, fingerprint uint64) ([]byte, error) {
	f, err := NewFile(info, v, fingerprint)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// MaxFileSize bounds what Read reads: a violation file of a sensible run is a few
// hundred kilobytes.
const MaxFileSize = 64 << 20

// ReadFile reads the counterexample file at path with Read.
func ReadFile(path string) (File, []uint64, error) {
	r, err := os.Open(path)
	if err != nil {
		return File{}, nil, err
	}
	defer r.Close()
	return Read(r, path)
}

// Read reads and checks a counterexample file, naming it name in errors: every field
// known (a field it does not know means a file of another version, or an edited one),
// the format, the run sensible, the step identities well formed and numbered in order,
// the digest matching them and the fingerprint well formed. It returns the schedule's
// event identities, for explorer.Replay.
func Read(r io.Reader, name string) (File, []uint64, error) {
	return ReadKnown(r, name, nil)
}

// ReadKnown is Read, with known (when not nil) saying whether the file's system is one
// the caller can replay, and why not. The checks go from the cause to its effects, so
// that an edited file is told its real fault: every field known and each required one
// present, then the system known, then the run sensible and the digest matching it.
func ReadKnown(r io.Reader, name string, known func(system string) error) (File, []uint64, error) {
	var vf File
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return vf, nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(data) > MaxFileSize {
		return vf, nil, fmt.Errorf("%s: larger than %d MiB: not a violation file", name, MaxFileSize>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&vf); err != nil {
		return vf, nil, fmt.Errorf("%s: not a violation file: %v", name, err)
	}
	if dec.More() {
		return vf, nil, fmt.Errorf("%s: not a violation file: more after the JSON object", name)
	}
	if vf.Format != Format {
		return vf, nil, fmt.Errorf("%s: format %q, want %q (written by ravel check --out)", name, vf.Format, Format)
	}
	if missing := missingField(data); missing != "" {
		return vf, nil, fmt.Errorf("%s: no %s: the file was edited or damaged (ravel check --out writes it)", name, missing)
	}
	if known != nil {
		if err := known(vf.Run.System); err != nil {
			return vf, nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	// 0 agents is a run of a system that takes none (microbench's k = 0): whether the
	// system does is for its catalog entry to say.
	if a := vf.Run.Agents; a < 0 || a > explorer.MaxActors {
		return vf, nil, fmt.Errorf("%s: %d agents: want 0 to %d (%s)", name, a, explorer.MaxActors, explorer.MaxActorsWhy)
	}
	if vf.Run.Retries < 0 {
		return vf, nil, fmt.Errorf("%s: retries %d is negative", name, vf.Run.Retries)
	}
	ids := make([]uint64, len(vf.Violation.Steps))
	for i, s := range vf.Violation.Steps {
		id, err := parseID(s.ID)
		if err != nil {
			return vf, nil, fmt.Errorf("%s: step %d: %v", name, i+1, err)
		}
		if s.Step != i+1 {
			return vf, nil, fmt.Errorf("%s: step %d is numbered %d: the schedule was edited", name, i+1, s.Step)
		}
		ids[i] = id
	}
	if want := ScheduleDigest(vf.Run, ids); vf.ScheduleDigest != want {
		return vf, nil, fmt.Errorf("%s: schedule_digest %q does not match the run (system %s, harness %s, agents %d, retries %d) and its %d steps (digest %s): the file was edited or damaged",
			name, vf.ScheduleDigest, vf.Run.System, vf.Run.Harness, vf.Run.Agents, vf.Run.Retries, len(ids), want)
	}
	if _, err := parseID(vf.Fingerprint); err != nil {
		return vf, nil, fmt.Errorf("%s: bad fingerprint %q: want 16 hex digits", name, vf.Fingerprint)
	}
	return vf, ids, nil
}

// requiredFields are the fields a counterexample file must hold, not null: the others
// may be left out (zero, false or empty). Dotted names are inside an object.
var requiredFields = []string{"run", "run.system", "run.agents", "schedule_digest", "fingerprint",
	"violation", "violation.kind", "violation.history"}

// missingField names the first required field that data, a JSON object already decoded
// into a File, lacks or holds as null, quoted as it is written; "" when none is.
func missingField(data []byte) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return ""
	}
	objects := map[string]map[string]json.RawMessage{"": top}
	for _, f := range requiredFields {
		parent, key, nested := strings.Cut(f, ".")
		obj := top
		if nested {
			if _, ok := objects[parent]; !ok {
				var m map[string]json.RawMessage
				json.Unmarshal(top[parent], &m) // present and not null: checked before
				objects[parent] = m
			}
			obj = objects[parent]
		} else {
			key = parent
		}
		if v, ok := obj[key]; !ok || string(bytes.TrimSpace(v)) == "null" {
			if nested {
				return fmt.Sprintf("%q in %q", key, parent)
			}
			return fmt.Sprintf("%q", key)
		}
	}
	return ""
}

func parseID(s string) (uint64, error) {
	id, err := strconv.ParseUint(s, 16, 64)
	if err != nil || len(s) != 16 {
		return 0, fmt.Errorf("bad id %q: want 16 hex digits", s)
	}
	return id, nil
}

// IDs are the event identities of the schedule, for explorer.Replay.
func (v Violation) IDs() ([]uint64, error) {
	ids := make([]uint64, len(v.Steps))
	for i, s := range v.Steps {
		id, err := parseID(s.ID)
		if err != nil {
			return nil, fmt.Errorf("step %d: %v", i+1, err)
		}
		ids[i] = id
	}
	return ids, nil
}
