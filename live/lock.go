package live

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockName is the file a session holds in its output directory while it runs: it
// holds the pid of the ravel run that owns the directory.
const LockName = ".ravel-lock"

// OutputInUseError is LockOutput's refusal: another ravel run, still alive, holds the
// output directory.
type OutputInUseError struct {
	Dir string
	Pid int
}

// Error names the directory and the pid holding it.
func (e *OutputInUseError) Error() string {
	return fmt.Sprintf("output folder %s is in use by another ravel run (pid %d)", e.Dir, e.Pid)
}

// LockOutput takes cfg's output directory for this process, before SetAsideOutput: it
// creates the directory if need be and the file LockName in it with this process's pid.
// A lock held by a live process is refused with an *OutputInUseError (two sessions in
// one directory would remove each other's iterations); a lock left by a process that
// no longer runs is taken over. A path that is not a directory is refused with an error
// wrapping ErrOutputNotDir. release removes the lock.
func LockOutput(cfg *Config) (release func(), err error) {
	dir := cfg.OutputDir()
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("%s: %w", dir, ErrOutputNotDir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	path := filepath.Join(dir, LockName)
	me := os.Getpid()
	// The lock is written whole under a name of its own, then linked to LockName, so
	// that another run never reads a lock half written.
	tmp := fmt.Sprintf("%s.%d", path, me)
	if err := os.WriteFile(tmp, []byte(strconv.Itoa(me)+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	defer os.Remove(tmp)
	for attempt := 0; ; attempt++ {
		err := os.Link(tmp, path)
		if err == nil {
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("live: %w", err)
		}
		b, rerr := os.ReadFile(path)
		if rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return nil, fmt.Errorf("live: %w", rerr)
		}
		pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
		if rerr == nil && perr == nil && pid > 0 && (pid == me || processAlive(pid)) {
			return nil, &OutputInUseError{Dir: dir, Pid: pid}
		}
		if attempt > 0 {
			// Another run took the stale lock over between our removal and our link.
			return nil, &OutputInUseError{Dir: dir, Pid: pid}
		}
		// A stale lock (its process is gone) or an unreadable one: take it over.
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("live: %w", err)
		}
	}
}
