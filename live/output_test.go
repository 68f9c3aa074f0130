package live

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestClearOutput: an output directory used before loses the directories the earlier
// session wrote under the names this one writes, and nothing else; an output path that
// is a file is refused. A second run into ravel-out used to leave the first run's
// iter-001, iter-002 beside its own iter-000.
func TestClearOutput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replay  bool
		removed []string
	}{
		{"a run removes iter-NNN", false, []string{"iter-000", "iter-001", "iter-1000"}},
		{"a replay removes replay-NNN", true, []string{"replay-000"}},
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
			removed, err := ClearOutput(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(removed, tc.removed) {
				t.Errorf("removed %v, want %v", removed, tc.removed)
			}
			entries, err := os.ReadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, e := range entries {
				left = append(left, e.Name())
			}
			for _, name := range []string{"iter-000", "iter-001", "iter-002", "iter-005", "iter-01", "iter-1000", "iter-xyz", "my-iter-000", "notes", "replay-000"} {
				if got, want := slices.Contains(left, name), !slices.Contains(tc.removed, name); got != want {
					t.Errorf("%s left: %v, want %v", name, got, want)
				}
			}
			if _, err := os.Stat(filepath.Join(elsewhere, "keep")); err != nil {
				t.Errorf("a symbolic link's target lost its file: %v", err)
			}
		})
	}
}

func TestClearOutputRefusesAFile(t *testing.T) {
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
			removed, err := ClearOutput(&Config{Output: tc.output, Dir: dir})
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) || len(removed) != 0 {
				t.Errorf("removed %v, error %v; want none and %v", removed, err, tc.want)
			}
		})
	}
}
