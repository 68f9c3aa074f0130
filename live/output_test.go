package live

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSetAsideOutput: an output directory used before has the directories the earlier
// session wrote under the names this one writes set aside, and nothing else; Remove
// then removes them, Restore puts them back whole. A second run into ravel-out used to
// leave the first run's iter-001, iter-002 beside its own iter-000.
func TestSetAsideOutput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replay  bool
		restore bool
		moved   []string
	}{
		{"a run sets iter-NNN aside, then removes them", false, false, []string{"iter-000", "iter-001", "iter-1000"}},
		{"a run sets iter-NNN aside, then puts them back", false, true, []string{"iter-000", "iter-001", "iter-1000"}},
		{"a replay sets replay-NNN aside", true, false, []string{"replay-000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			elsewhere := filepath.Join(dir, "elsewhere")
			for _, d := range []string{"iter-000/n0", "iter-001", "iter-1000", "replay-000", "iter-xyz", "iter-01", "my-iter-000", "notes"} {
				if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(elsewhere, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{filepath.Join(out, "iter-002"), filepath.Join(out, "iter-000", "n0", "data"), filepath.Join(elsewhere, "keep")} {
				if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(elsewhere, filepath.Join(out, "iter-005")); err != nil {
				t.Fatal(err)
			}
			cfg := &Config{Output: "out", Dir: dir}
			if tc.replay {
				cfg.Replay = &Schedule{}
			}
			e, err := SetAsideOutput(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(e.Names, tc.moved) {
				t.Errorf("set aside %v, want %v", e.Names, tc.moved)
			}
			all := []string{"iter-000", "iter-001", "iter-002", "iter-005", "iter-01", "iter-1000", "iter-xyz", "my-iter-000", "notes", "replay-000"}
			left := func() []string {
				entries, err := os.ReadDir(out)
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, d := range entries {
					names = append(names, d.Name())
				}
				return names
			}
			for _, name := range all {
				if got, want := slices.Contains(left(), name), !slices.Contains(tc.moved, name); got != want {
					t.Errorf("%s in the output after SetAsideOutput: %v, want %v", name, got, want)
				}
			}
			if tc.restore {
				// What the new session wrote under a name set aside gives way.
				if err := os.MkdirAll(filepath.Join(out, "iter-000", "n0"), 0o755); err != nil {
					t.Fatal(err)
				}
				err = e.Restore()
			} else {
				err = e.Remove()
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range all {
				if got, want := slices.Contains(left(), name), tc.restore || !slices.Contains(tc.moved, name); got != want {
					t.Errorf("%s in the output at the end: %v, want %v", name, got, want)
				}
			}
			if got := slices.Contains(left(), EarlierName); got {
				t.Errorf("%s left in the output", EarlierName)
			}
			want := tc.restore || !slices.Contains(tc.moved, "iter-000")
			if _, err := os.Stat(filepath.Join(out, "iter-000", "n0", "data")); (err == nil) != want {
				t.Errorf("the earlier iter-000's file: %v, want kept: %v", err, want)
			}
			if _, err := os.Stat(filepath.Join(elsewhere, "keep")); err != nil {
				t.Errorf("a symbolic link's target lost its file: %v", err)
			}
		})
	}
}

// TestSetAsideOutputAfterAKill: what a run killed before its nodes were up had set
// aside is put back by the next run, then set aside again with the rest.
func TestSetAsideOutputAfterAKill(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, d := range []string{EarlierName + "/iter-000", EarlierName + "/iter-001", "iter-000", removingName + "/iter-009"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, EarlierName, "iter-000", "verdict.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := SetAsideOutput(&Config{Output: out})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"iter-000", "iter-001"}; !slices.Equal(e.Names, want) {
		t.Errorf("set aside %v, want %v", e.Names, want)
	}
	if err := e.Restore(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "iter-000", "verdict.txt")); err != nil {
		t.Errorf("the earlier iter-000's verdict: %v, want kept", err)
	}
	if _, err := os.Stat(filepath.Join(out, removingName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: %v, want removed", removingName, err)
	}
}

func TestSetAsideOutputRefusesAFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "out.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		output string
		want   error
	}{
		{"out.json", ErrOutputNotDir},
		{"not-yet", nil},
	} {
		t.Run(tc.output, func(t *testing.T) {
			e, err := SetAsideOutput(&Config{Output: tc.output, Dir: dir})
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) || e != nil {
				t.Errorf("set aside %v, error %v; want none and %v", e, err, tc.want)
			}
		})
	}
}

// TestRunKeepsEarlierResults: an earlier run's iterations survive a run whose first
// iteration cannot start its nodes, and go once a run's nodes are up. They used to be
// removed before the nodes were started, so rerunning a config that had found a
// violation, with a node that failed to start, lost the violation.
func TestRunKeepsEarlierResults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	for _, tc := range []struct {
		name string
		cmd  []string // nil: kvnode
		kept bool
	}{
		{"a node command that exits at once", []string{"/bin/sh", "-c", "exit 3"}, true},
		{"nodes that start", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := kvConfig(t, "random", false)
			cfg.Workload.Ops = 3
			if tc.cmd != nil {
				cfg.Nodes.Count, cfg.Nodes.Command = 1, tc.cmd
			}
			out := cfg.OutputDir()
			for _, d := range []string{"iter-000", "iter-007"} {
				if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(out, d, "earlier.txt"), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			e, err := SetAsideOutput(cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Earlier = e
			_, err = Run(context.Background(), cfg, io.Discard)
			var ce *ConfigError
			if got := errors.As(err, &ce); got != tc.kept {
				t.Errorf("Run: %v; want a config error: %v", err, tc.kept)
			}
			for _, d := range []string{"iter-000", "iter-007"} {
				_, err := os.Stat(filepath.Join(out, d, "earlier.txt"))
				if got := err == nil; got != tc.kept {
					t.Errorf("the earlier %s: %v, want kept: %v", d, err, tc.kept)
				}
			}
			if _, err := os.Stat(filepath.Join(out, EarlierName)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: %v, want gone", EarlierName, err)
			}
		})
	}
}
