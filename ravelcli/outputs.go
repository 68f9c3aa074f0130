package ravelcli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The output files — check's --out, --histories and --html, lincheck's --out and --html,
// replay's --html — are checked before any work (checkOutputs, then prepareOutput) and
// written at the end (writeOutput). Where a name leads decides how:
//
//   - A regular file, or a name not taken yet: a stale file there is removed before the
//     run, since a run that finds nothing to write must not leave the previous run's
//     findings behind, as if they were its own; the output is then written as a new file.
//     Through a symbolic link, that file is the one the link leads to; the link stays.
//   - One of the process's own descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N):
//     written through the descriptor, where it stands, whatever it is open on — a
//     terminal, a pipe, or a file the shell opened, which is neither truncated nor removed.
//   - Anything else — a device such as /dev/null, a named pipe, a socket, a file under
//     /proc or /sys — is written in place: never truncated, removed or renamed over, and
//     not even opened before the end (opening a named pipe waits for its reader, and the
//     reader takes the close for the end of the data).

// outputKind is how an output is written, by where its name leads.
type outputKind int

const (
	outputFile       outputKind = iota // a regular file, or nothing yet
	outputDescriptor                   // one of this process's open descriptors
	outputInPlace                      // a device, a pipe, a socket, a file of /proc or /sys
)

// outputTarget is where an output's name leads.
type outputTarget struct {
	path     string // absolute, with every link followed as far as it leads
	kind     outputKind
	fd       int  // outputDescriptor's descriptor
	exists   bool // something is at path
	followed bool // a symbolic link was followed to reach path
}

// maxLinks bounds the links followed from an output's name, as the kernel does.
const maxLinks = 40

// resolveOutput follows name to what it names, one link at a time: a link's target is
// read relative to the directory the link really is in (its own links resolved), and
// the walk stops at a link of /proc, whose target (/proc/self/fd/1 → "pipe:[…]", or the
// name of a file the shell opened) is what the descriptor is open on, not a name to
// follow. A name under a missing directory resolves to itself, not existing; the check
// that creates it says what is missing.
func resolveOutput(name string) (outputTarget, error) {
	p, err := filepath.Abs(name)
	if err != nil {
		return outputTarget{}, err
	}
	t := outputTarget{}
	for range maxLinks {
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			t.path = p
			return t, nil
		}
		p = filepath.Join(dir, filepath.Base(p))
		t.path = p
		if fd, ok := ownDescriptor(p); ok {
			t.kind, t.fd, t.exists = outputDescriptor, fd, true
			return t, nil
		}
		st, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return t, nil
		case err != nil:
			return outputTarget{}, err
		}
		t.exists = true
		if st.Mode()&fs.ModeSymlink == 0 || underKernelFS(p) {
			if !st.Mode().IsRegular() || underKernelFS(p) {
				t.kind = outputInPlace
			}
			return t, nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return outputTarget{}, err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		p, t.followed, t.exists = target, true, false
	}
	return outputTarget{}, &fs.PathError{Op: "open", Path: name, Err: errors.New("too many levels of symbolic links")}
}

// ownDescriptor reports whether p, absolute with its directory's links resolved, names
// one of this process's descriptors: /proc/PID/fd/N (which /proc/self/fd/N and, on Linux,
// /dev/fd/N resolve to; /proc/PID/task/TID/fd/N for /proc/thread-self), or /dev/fd/N
// where /dev/fd is a directory of its own.
func ownDescriptor(p string) (int, bool) {
	dir, base := filepath.Dir(p), filepath.Base(p)
	fd, err := strconv.Atoi(base)
	if err != nil || fd < 0 || strconv.Itoa(fd) != base {
		return 0, false
	}
	own := "/proc/" + strconv.Itoa(os.Getpid()) + "/"
	switch {
	case dir == "/dev/fd" || dir == own+"fd":
		return fd, true
	case strings.HasPrefix(dir, own+"task/") && filepath.Base(dir) == "fd" && filepath.Dir(filepath.Dir(dir)) == own+"task":
		return fd, true
	}
	return 0, false
}

// underKernelFS reports whether p is in /proc or /sys, whose files are the kernel's: a
// link there is no name to follow, and a "regular" file is not one to remove.
func underKernelFS(p string) bool {
	return strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/")
}

// namedPath is a file a command was given: an output's flag (--out) or what an input is
// (the history file), and its name.
type namedPath struct{ what, path string }

// checkOutputs refuses, before any work, outputs that would lose data: "-" (which names
// standard input for the commands that read files, and a file named - is rarely what
// was meant), an output that names another output or one of the inputs — writing it
// would destroy what the other holds —, and a regular file that is where stdout or
// stderr already goes (the shell's > FILE): the output replaces that file, and what the
// command prints goes on into the file removed. Empty outputs were not given, and "-"
// inputs are standard input.
func checkOutputs(cmd string, outs, inputs []namedPath, stdout, stderr io.Writer) error {
	var given []namedPath
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if o.path == "-" {
			return usagef("%s: %s -: an output must be a file: standard output is where the report goes (a file named - is ./-)", cmd, o.what)
		}
		for _, other := range given {
			if sameFile(o.path, other.path) {
				return clashError(cmd, other, o)
			}
		}
		for _, in := range inputs {
			if in.path != "" && in.path != "-" && sameFile(o.path, in.path) {
				return clashError(cmd, o, in)
			}
		}
		for _, st := range []struct {
			name string
			w    io.Writer
		}{{"standard output", stdout}, {"standard error", stderr}} {
			if streamIsFile(st.w, o.path) {
				return usagef("%s: %s %s is the file %s goes to: the output would replace it, and the report written there would be lost; give %s another file, or send %s elsewhere", cmd, o.what, o.path, st.name, o.what, st.name)
			}
		}
		given = append(given, o)
	}
	return nil
}

// streamIsFile reports whether w is an open regular file — stdout redirected to a file —
// that the output name leads to, where prepareOutput would remove it and writeOutput
// write a new one. An output that is one of the process's descriptors (/dev/stdout) is
// written where it stands, beside what the command prints, and is no clash.
func streamIsFile(w io.Writer, name string) bool {
	f, ok := w.(*os.File)
	if !ok || f == nil {
		return false
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	t, err := resolveOutput(name)
	if err != nil || t.kind != outputFile || !t.exists {
		return false
	}
	ost, err := os.Stat(t.path)
	return err == nil && os.SameFile(st, ost)
}

func clashError(cmd string, a, b namedPath) error {
	if a.path == b.path {
		return usagef("%s: %s and %s both name %s", cmd, a.what, b.what, a.path)
	}
	return usagef("%s: %s %s and %s %s name the same file", cmd, a.what, a.path, b.what, b.path)
}

// sameFile reports whether two names lead to one file: the same absolute name once
// their links are followed (so x and ./x, or a link and its target, even before they
// exist), or, when both exist, one file (os.SameFile: a hard link, a bind mount). A
// character device — /dev/null, a terminal — takes two outputs, or is read and written,
// without loss, and is no clash.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && sa.Mode()&fs.ModeCharDevice != 0 || errB == nil && sb.Mode()&fs.ModeCharDevice != 0 {
		return false
	}
	if errA == nil && errB == nil && os.SameFile(sa, sb) {
		return true
	}
	ta, errA := resolveOutput(a)
	tb, errB := resolveOutput(b)
	return errA == nil && errB == nil && ta.path == tb.path
}

// prepareOutputs prepares each output given (prepareOutput), flags named after cmd.
func prepareOutputs(cmd string, outs []namedPath) error {
	for _, o := range outs {
		if o.path != "" {
			if err := prepareOutput(cmd+": "+o.what, o.path); err != nil {
				return err
			}
		}
	}
	return nil
}

// prepareOutput checks, before any work starts, that path can be written, so that a
// long run does not end by failing to save what it found; flag names the flag for the
// message. A stale regular file at path (or where its link leads) is removed: a run that
// finds nothing to write must not leave the previous run's findings behind, as if they
// were its own. Anything else is only checked (see the top of this file).
func prepareOutput(flag, path string) error {
	t, err := resolveOutput(path)
	if err != nil {
		return usagef("%s: %v", flag, err)
	}
	if t.kind != outputFile {
		st, err := os.Stat(path)
		switch {
		case err != nil:
			return usagef("%s: %v", flag, err)
		case st.IsDir():
			return usagef("%s %s: is a directory", flag, path)
		}
		if t.kind == outputDescriptor {
			err = descriptorWritable(t.fd)
		} else {
			err = writable(t.path)
		}
		if err != nil {
			return usagef("%s %s: %v", flag, path, err)
		}
		return nil
	}
	if !t.exists {
		// Nothing is there: create it to see that it can be, and take back what was made.
		f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return usagef("%s: %v", flag, nameIn(err, path, t))
		}
		f.Close()
		if err := os.Remove(t.path); err != nil {
			return usagef("%s: %v", flag, err)
		}
		return nil
	}
	f, err := os.OpenFile(t.path, os.O_WRONLY, 0)
	if err != nil {
		return usagef("%s: %v", flag, nameIn(err, path, t))
	}
	f.Close()
	// Remove only the file the name leads to now: what the kernel follows path to must
	// be what resolveOutput found.
	named, err := os.Stat(path)
	if err != nil {
		return usagef("%s: %v", flag, err)
	}
	found, err := os.Lstat(t.path)
	if err != nil {
		return usagef("%s: %v", flag, err)
	}
	if !os.SameFile(named, found) {
		return usagef("%s %s: it changed while it was checked", flag, path)
	}
	if err := os.Remove(t.path); err != nil {
		return usagef("%s: %v", flag, err)
	}
	return nil
}

// nameIn puts the name the user gave back into err when no link was followed (so that
// a message names missing/v.json, not its absolute form).
func nameIn(err error, name string, t outputTarget) error {
	var pe *fs.PathError
	if !t.followed && errors.As(err, &pe) {
		pe.Path = name
	}
	return err
}

// writeOutput writes data to the output name names, prepared by prepareOutput: a
// regular file is written anew where the name leads, a descriptor of the process
// through itself, and anything else in place.
func writeOutput(name string, data []byte) error {
	t, err := resolveOutput(name)
	if err != nil {
		return err
	}
	var f *os.File
	switch t.kind {
	case outputFile:
		return nameIn(os.WriteFile(t.path, data, 0o644), name, t)
	case outputDescriptor:
		f, err = dupDescriptor(t.fd, name)
	default:
		f, err = os.OpenFile(name, os.O_WRONLY, 0)
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// outputIsFile reports whether the output name leads to a file to read back by that
// name (regular, not a descriptor, a device or a pipe).
func outputIsFile(name string) bool {
	t, err := resolveOutput(name)
	return err == nil && t.kind == outputFile
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
