package live

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// sessionDir matches the directories Run writes in the output directory: iter-NNN, and
// replay-NNN in a replay.
var sessionDir = regexp.MustCompile(`^(iter|replay)-[0-9]{3,}$`)

// ErrOutputNotDir is SetAsideOutput's and LockOutput's error for an output path that is
// not a directory.
var ErrOutputNotDir = errors.New("not a directory")

// EarlierName is the directory, in the output directory, where SetAsideOutput moves
// what an earlier session left until Run knows whether this one starts.
const EarlierName = ".ravel-earlier"

// removingName is what Earlier.Remove renames EarlierName to before removing it, so
// that a removal cut short (ravel killed) is never taken for results to put back.
const removingName = ".ravel-earlier-removing"

// Earlier is what an earlier session left in the output directory, set aside by
// SetAsideOutput. Run, given it as Config.Earlier, removes it once its first iteration's
// nodes have all become healthy, and puts it back when that iteration fails before (a
// node command that exits at start, a node never healthy, a port in use, an
// interruption): a run that cannot start leaves the earlier results as they were.
type Earlier struct {
	out   string   // the output directory
	Names []string // the directories set aside, in order
}

// SetAsideOutput readies cfg's output directory for a session, before Run: it returns
// an error wrapping ErrOutputNotDir when the path exists and is not a directory, and
// moves the directories an earlier session left there under the names this session
// writes — iter-NNN, or replay-NNN for a replay (which leaves the iterations it may be
// replaying alone) — into EarlierName there, so that the directory holds one session,
// not two mixed. Nothing else is touched: no file, no symbolic link, no directory named
// otherwise. Directories an earlier run set aside and was killed before it could remove
// or put back are put back first (that run never started: it would have removed them).
// The result's Names are those set aside, in order; it is nil when there were none.
func SetAsideOutput(cfg *Config) (*Earlier, error) {
	dir := cfg.OutputDir()
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("live: %w", err)
	case !st.IsDir():
		return nil, fmt.Errorf("%s: %w", dir, ErrOutputNotDir)
	}
	if err := os.RemoveAll(filepath.Join(dir, removingName)); err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	aside := filepath.Join(dir, EarlierName)
	if left, err := os.ReadDir(aside); err == nil {
		e := &Earlier{out: dir}
		for _, d := range left {
			e.Names = append(e.Names, d.Name())
		}
		if err := e.Restore(); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("live: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	prefix := "iter-"
	if cfg.Replay != nil {
		prefix = "replay-"
	}
	e := &Earlier{out: dir}
	for _, d := range entries {
		name := d.Name()
		if !d.IsDir() || !sessionDir.MatchString(name) || !strings.HasPrefix(name, prefix) {
			continue
		}
		if len(e.Names) == 0 {
			if err := os.Mkdir(aside, 0o755); err != nil {
				return nil, fmt.Errorf("live: %w", err)
			}
		}
		if err := os.Rename(filepath.Join(dir, name), filepath.Join(aside, name)); err != nil {
			return e, fmt.Errorf("live: %w", err)
		}
		e.Names = append(e.Names, name)
	}
	if len(e.Names) == 0 {
		return nil, nil
	}
	return e, nil
}

// Remove removes what was set aside, for good. A nil Earlier has nothing to remove.
func (e *Earlier) Remove() error {
	if e == nil {
		return nil
	}
	removing := filepath.Join(e.out, removingName)
	if err := os.Rename(filepath.Join(e.out, EarlierName), removing); err != nil {
		return fmt.Errorf("live: remove what an earlier run left: %w", err)
	}
	if err := os.RemoveAll(removing); err != nil {
		return fmt.Errorf("live: remove what an earlier run left: %w", err)
	}
	return nil
}

// Restore puts what was set aside back under its names, in place of what this session
// wrote there. A nil Earlier has nothing to put back.
func (e *Earlier) Restore() error {
	if e == nil {
		return nil
	}
	aside := filepath.Join(e.out, EarlierName)
	for _, name := range e.Names {
		if err := os.RemoveAll(filepath.Join(e.out, name)); err != nil {
			return fmt.Errorf("live: put back what an earlier run left: %w", err)
		}
		if err := os.Rename(filepath.Join(aside, name), filepath.Join(e.out, name)); err != nil {
			return fmt.Errorf("live: put back what an earlier run left: %w", err)
		}
	}
	if err := os.Remove(aside); err != nil {
		return fmt.Errorf("live: put back what an earlier run left: %w", err)
	}
	return nil
}
