package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/cespare/xxhash/v2"

	"github.com/ravelmc/ravel/explorer"
)

// scheduleDigest identifies a violation's run and schedule: the system, harness, agents,
// retries and fault budgets it was found with, and the events delivered. A file whose digest does not
// match them was edited or damaged.
func scheduleDigest(info runInfo, ids []uint64) string {
	h := xxhash.New()
	fmt.Fprintf(h, "%q %q %d %d %d\n", info.System, info.Harness, info.Agents, info.Retries, len(ids))
	if info.Faults != nil {
		fmt.Fprintf(h, "faults %+v\n", *info.Faults)
	}
	var b [8]byte
	for _, id := range ids {
		binary.LittleEndian.PutUint64(b[:], id)
		h.Write(b[:])
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// writeViolation writes v, found by the run info describes, for ravel replay.
func writeViolation(path string, info runInfo, v *explorer.Violation, vj violationJSON) error {
	ids := make([]uint64, len(v.Steps))
	for i, s := range v.Steps {
		ids[i] = s.ID
	}
	vf := violationFile{Format: violationFormat, Run: info, ScheduleDigest: scheduleDigest(info, ids),
		Fingerprint: fmt.Sprintf("%016x", v.Fingerprint), Violation: vj}
	b, err := json.MarshalIndent(vf, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// maxViolationFile bounds what replay reads: a violation file of a sensible run is a few
// hundred kilobytes.
const maxViolationFile = 64 << 20

// readViolationFile reads and checks a violation file: every field known (a field replay
// does not know means a file of another version, or an edited one), the format, the run
// sensible, the step identities well formed and the digest matching them. It returns
// the schedule's event identities.
func readViolationFile(r io.Reader, name string) (violationFile, []uint64, error) {
	var vf violationFile
	data, err := io.ReadAll(io.LimitReader(r, maxViolationFile+1))
	if err != nil {
		return vf, nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(data) > maxViolationFile {
		return vf, nil, fmt.Errorf("%s: larger than %d MiB: not a violation file", name, maxViolationFile>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&vf); err != nil {
		return vf, nil, fmt.Errorf("%s: not a violation file: %v", name, err)
	}
	if dec.More() {
		return vf, nil, fmt.Errorf("%s: not a violation file: more after the JSON object", name)
	}
	if vf.Format != violationFormat {
		return vf, nil, fmt.Errorf("%s: format %q, want %q (written by ravel check --out)", name, vf.Format, violationFormat)
	}
	if a := vf.Run.Agents; a < 1 || a > explorer.MaxActors {
		return vf, nil, fmt.Errorf("%s: %d agents: want 1 to %d (%s)", name, a, explorer.MaxActors, explorer.MaxActorsWhy)
	}
	if vf.Run.Retries < 0 {
		return vf, nil, fmt.Errorf("%s: retries %d is negative", name, vf.Run.Retries)
	}
	ids := make([]uint64, len(vf.Violation.Steps))
	for i, s := range vf.Violation.Steps {
		if len(s.ID) != 16 {
			return vf, nil, fmt.Errorf("%s: step %d: bad id %q: want 16 hex digits", name, i+1, s.ID)
		}
		id, err := strconv.ParseUint(s.ID, 16, 64)
		if err != nil {
			return vf, nil, fmt.Errorf("%s: step %d: bad id %q: want 16 hex digits", name, i+1, s.ID)
		}
		if s.Step != i+1 {
			return vf, nil, fmt.Errorf("%s: step %d is numbered %d: the schedule was edited", name, i+1, s.Step)
		}
		ids[i] = id
	}
	if want := scheduleDigest(vf.Run, ids); vf.ScheduleDigest != want {
		return vf, nil, fmt.Errorf("%s: schedule_digest %q does not match the run (system %s, harness %s, agents %d, retries %d) and its %d steps (digest %s): the file was edited or damaged",
			name, vf.ScheduleDigest, vf.Run.System, vf.Run.Harness, vf.Run.Agents, vf.Run.Retries, len(ids), want)
	}
	if _, err := strconv.ParseUint(vf.Fingerprint, 16, 64); err != nil || len(vf.Fingerprint) != 16 {
		return vf, nil, fmt.Errorf("%s: bad fingerprint %q: want 16 hex digits", name, vf.Fingerprint)
	}
	return vf, ids, nil
}
