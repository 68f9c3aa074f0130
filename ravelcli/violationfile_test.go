package ravelcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadViolationFile: the replay-file reader never panics, and a file it accepts
// holds a sensible run whose digest matches its schedule. The seeds are violation files
// that check --out writes for testdata-sized runs.
func FuzzReadViolationFile(f *testing.F) {
	dir := f.TempDir()
	for _, args := range [][]string{
		{"check", "register-buggy", "--harness", "2r1w"},
		{"check", "adr-buggy"},
	} {
		out := filepath.Join(dir, "v.json")
		if code, _, stderr := runRavel(append(args, "--quiet", "--out", out)...); code != exitViolation {
			f.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format":"ravel-violation/2","run":{"system":"register","agents":100000}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		vf, ids, err := readViolationFile(bytes.NewReader(data), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		if vf.Run.Agents < 1 || len(ids) != len(vf.Violation.Steps) || scheduleDigest(vf.Run, ids) != vf.ScheduleDigest {
			t.Errorf("accepted a file with %d agents, %d ids for %d steps, digest %s", vf.Run.Agents, len(ids), len(vf.Violation.Steps), vf.ScheduleDigest)
		}
	})
}
