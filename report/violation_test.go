package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/systems/register"
)

// TestFileRoundTrip: what WriteFile writes, ReadFile reads back whole, with the schedule's
// identities as found; the oracle for the identities is the explorer's own violation.
func TestFileRoundTrip(t *testing.T) {
	sys, err := register.NewBuggy(3, "2r1w")
	if err != nil {
		t.Fatal(err)
	}
	res, err := explorer.Run(context.Background(), sys, explorer.Options{})
	if err != nil || res.First == nil {
		t.Fatalf("no violation: %v", err)
	}
	for _, tc := range []struct {
		workload   string
		reflective bool
	}{{"", false}, {"all:ops=2,clients=2#1", false}, {"", true}} {
		t.Run(fmt.Sprintf("workload=%s,reflective=%v", tc.workload, tc.reflective), func(t *testing.T) {
			info := report.RunInfo{System: "register-buggy", Harness: "2r1w", Agents: 3, Workload: tc.workload, Reflective: tc.reflective}
			path := filepath.Join(t.TempDir(), "v.json")
			if err := report.WriteFile(path, info, report.NewViolation(&sys, res.First), res.First.Fingerprint); err != nil {
				t.Fatal(err)
			}
			f, ids, err := report.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]uint64, len(res.First.Steps))
			for i, d := range res.First.Steps {
				want[i] = d.ID
			}
			if !reflect.DeepEqual(ids, want) {
				t.Errorf("ids %x, want %x", ids, want)
			}
			if f.Format != "ravel-violation/2" || f.Run != info {
				t.Errorf("format %q, run %+v; want ravel-violation/2, %+v", f.Format, f.Run, info)
			}
		})
	}
	// The workload is part of the digest: the same schedule under another workload is
	// another counterexample.
	ids := []uint64{1, 2}
	a := report.ScheduleDigest(report.RunInfo{System: "s", Agents: 1}, ids)
	b := report.ScheduleDigest(report.RunInfo{System: "s", Agents: 1, Workload: "w"}, ids)
	if a == b {
		t.Errorf("digest %s with and without a workload", a)
	}
	// So is the fingerprint mode, whose identities the schedule's are; a file without it
	// (false, omitted) keeps the digest it had.
	c := report.ScheduleDigest(report.RunInfo{System: "s", Agents: 1, Reflective: true}, ids)
	if a == c {
		t.Errorf("digest %s with and without reflective", a)
	}
}

// TestReadRefuses: Read refuses files that are not what WriteFile writes, naming them.
func TestReadRefuses(t *testing.T) {
	info := report.RunInfo{System: "s", Agents: 1, Workload: "w"}
	v := report.Violation{Kind: "nonlinearizable", Steps: []report.Step{{Step: 1, ID: "0000000000000001"}}}
	good, err := report.NewFile(info, v, 7)
	if err != nil {
		t.Fatal(err)
	}
	encode := func(f any) string {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if _, _, err := report.Read(strings.NewReader(encode(good)), "f"); err != nil {
		t.Fatalf("the good file: %v", err)
	}
	otherWorkload := good
	otherWorkload.Run.Workload = "x"
	badStep := good
	badStep.Violation.Steps = []report.Step{{Step: 2, ID: "0000000000000001"}}
	badFP := good
	badFP.Fingerprint = "7"
	v1 := good
	v1.Format = "ravel-violation/1"
	for _, tc := range []struct{ name, data, want string }{
		{"unknown field", strings.Replace(encode(good), `{"format"`, `{"extra":1,"format"`, 1), "unknown field"},
		{"workload edited", encode(otherWorkload), "schedule_digest"},
		{"step renumbered", encode(badStep), "numbered 2"},
		{"short fingerprint", encode(badFP), "fingerprint"},
		{"version 1", encode(v1), "format"},
		{"trailing data", encode(good) + "{}", "more after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := report.Read(bytes.NewReader([]byte(tc.data)), "f")
			if err == nil || !strings.HasPrefix(err.Error(), "f: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming f and saying %q", err, tc.want)
			}
		})
	}
}

// TestMinimizedNote: the note says what minimization did, and does not claim a
// minimization from N steps to N when no step could be removed (docs probe).
func TestMinimizedNote(t *testing.T) {
	steps := func(n int) []explorer.Delivery { return make([]explorer.Delivery, n) }
	for _, tc := range []struct {
		name string
		v    explorer.Violation
		want string
	}{
		{"not minimized", explorer.Violation{Steps: steps(8)}, ""},
		{"shrunk", explorer.Violation{Steps: steps(4), OriginalSteps: 7, Minimized: true}, "; minimized from 7 steps to 4"},
		{"nothing removed", explorer.Violation{Steps: steps(8), OriginalSteps: 8, Minimized: true}, "; minimal: no step could be removed"},
		{"interrupted", explorer.Violation{Steps: steps(5), OriginalSteps: 7}, "; shrunk from 7 steps, minimization interrupted"},
		{"interrupted, nothing removed", explorer.Violation{Steps: steps(7), OriginalSteps: 7}, "; minimization interrupted before it removed a step"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := report.MinimizedNote(&tc.v); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
