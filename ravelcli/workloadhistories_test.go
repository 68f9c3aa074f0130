package ravelcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// workloadOfLine returns the "workload" a line of a histories file names ("" for none).
func workloadOfLine(t *testing.T, line string) string {
	t.Helper()
	var l struct {
		Workload string `json:"workload"`
	}
	if err := json.Unmarshal([]byte(line), &l); err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	return l.Workload
}

// readLines returns the lines of a file, or fails the test when it is missing.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("--histories file: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestCheckWorkloadsHistories: with --workloads, --histories is written whatever the
// verdict, with the canonical histories of every workload checked, each line naming its
// workload: the lines of one workload are the file that workload checked alone (by its
// name) writes, and lincheck reads the file back to the verdicts check recorded. The
// probe's D5: the file was written only when a workload failed, and then held only the
// failing workload's histories.
func TestCheckWorkloadsHistories(t *testing.T) {
	tests := []struct {
		name, system, gen string
		code              int
		workloads         []string // every workload the file names, sorted
	}{
		{"clean", "register", "all:ops=2,clients=2", exitOK, []string{
			"all:ops=2,clients=2#0", "all:ops=2,clients=2#1", "all:ops=2,clients=2#2", "all:ops=2,clients=2#3", "all:ops=2,clients=2#4",
			"all:ops=2,clients=2#5", "all:ops=2,clients=2#6", "all:ops=2,clients=2#7", "all:ops=2,clients=2#8", "all:ops=2,clients=2#9",
		}},
		{"failing", "register-buggy", "all:ops=2,clients=2", exitViolation, []string{
			"all:ops=2,clients=2#0", "all:ops=2,clients=2#1", "all:ops=2,clients=2#2",
		}},
		{"one by name", "register", "all:ops=3,clients=2#5", exitOK, []string{"all:ops=3,clients=2#5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			h := filepath.Join(dir, "h.jsonl")
			code, _, stderr := runRavel("check", tt.system, "--workloads", tt.gen, "--max-schedules", "0", "--quiet", "--histories", h)
			if code != tt.code {
				t.Fatalf("check: exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			lines := readLines(t, h)
			if !slices.IsSorted(lines) {
				t.Errorf("lines not sorted:\n%s", strings.Join(lines, "\n"))
			}
			byWorkload := map[string][]string{}
			for _, l := range lines {
				w := workloadOfLine(t, l)
				byWorkload[w] = append(byWorkload[w], l)
			}
			var got []string
			for w := range byWorkload {
				got = append(got, w)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.workloads) {
				t.Errorf("workloads named %q, want %q", got, tt.workloads)
			}
			for _, w := range got {
				alone := filepath.Join(dir, "alone.jsonl")
				runRavel("check", tt.system, "--workloads", w, "--max-schedules", "0", "--quiet", "--histories", alone)
				if want := readLines(t, alone); !slices.Equal(byWorkload[w], want) {
					t.Errorf("workload %s: lines\n%s\nwant those of the workload checked alone:\n%s", w, strings.Join(byWorkload[w], "\n"), strings.Join(want, "\n"))
				}
			}
			code, results := lincheckJSON(t, h)
			if code != tt.code || len(results) != len(lines) {
				t.Errorf("lincheck: exit %d, %d results; want %d, %d", code, len(results), tt.code, len(lines))
			}
			for _, r := range results {
				if r.Agrees == nil || !*r.Agrees {
					t.Errorf("lincheck: line %d: %+v, want the verdict recorded", r.Line, r)
				}
			}
		})
	}
}
