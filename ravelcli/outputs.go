package ravelcli

import (
	"fmt"
	"io"
	"os"
)

// prepareOutput checks, before any work starts, that path can be written, so that a
// long run does not end by failing to save what it found; flag names the flag for the
// message. A stale regular file at path is removed: a run that finds nothing to write
// must not leave the previous run's findings behind, as if they were its own. A device
// such as /dev/stdout is only checked.
func prepareOutput(flag, path string) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return usagef("%s %s: is a directory", flag, path)
	case err == nil && !st.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return usagef("%s: %v", flag, err)
		}
		return f.Close()
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return usagef("%s: %v", flag, err)
	}
	if err := f.Close(); err != nil {
		return usagef("%s: %v", flag, err)
	}
	if err := os.Remove(path); err != nil {
		return usagef("%s: %v", flag, err)
	}
	return nil
}

// lateFailure reports, after the report was printed, what could not be done at the end
// (a file not written, a disk store that failed); the exit status stays violation when
// there was one, and is 2 otherwise.
func lateFailure(stderr io.Writer, prog string, code int, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n", prog, err)
	if code == exitViolation {
		return exitViolation
	}
	return exitUsage
}

// openInput opens a named input file, or standard input for "-".
func openInput(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, not a file", name)
	}
	return os.Open(name)
}
