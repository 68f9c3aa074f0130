// Package usermod builds throwaway Go modules that use Ravel the way a user's module does —
// through a require with a replace to this repository — for the tests of the user's
// journey. testdata/lazybackup is docs/user-guide.md's module: a protocol, its failing
// test, and a main of one call to ravelcli.
package usermod

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// Root is the repository's root directory: the directory of go.mod above this file.
func Root() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("usermod: no caller information")
	}
	return filepath.Abs(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Write writes a module named module under dir: go.mod requiring Ravel with a replace to
// Root, this repository's go.sum, and files (slash-separated paths relative to dir, their
// directories made). The module's other requirements come from Ravel's own: with the
// go.sum copied and Env's -mod=mod, go fills go.mod in from the replaced module, so a
// build needs no network when Ravel's dependencies are in the module cache (as they are
// once Ravel's tests were built), and the module proxy otherwise.
func Write(dir, module string, files map[string]string) error {
	root, err := Root()
	if err != nil {
		return err
	}
	ourMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	goLine := regexp.MustCompile(`(?m)^go [0-9.]+$`).Find(ourMod)
	if goLine == nil {
		return errors.New("usermod: go.mod has no go line")
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	all := map[string]string{
		"go.mod": "module " + module + "\n\n" + string(goLine) + "\n\n" +
			"require github.com/ravelmc/ravel v0.0.0\n\n" +
			"replace github.com/ravelmc/ravel => " + root + "\n",
		"go.sum": string(sum),
	}
	for name, text := range files {
		all[name] = text
	}
	for name, text := range all {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Fixture reads the module under this package's testdata/name — its files by their
// slash-separated paths, for Write.
func Fixture(name string) (map[string]string, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, "internal", "usermod", "testdata", name)
	files := map[string]string{}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("usermod: no fixture %s in %s", name, dir)
	}
	return files, err
}

// Env is the environment go commands run with in a module of Write: no workspace, and
// -mod=mod so that go completes the module's requirements.
func Env() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod -buildvcs=false")
}

// Go runs the go command with args in dir, under Env, and returns its combined output
// and exit status; err is set only when go could not be run at all.
func Go(dir string, args ...string) (out string, code int, err error) {
	return Run(dir, "go", args...)
}

// Run runs name with args in dir, under Env, and returns its combined output and exit
// status; err is set only when the program could not be run at all.
func Run(dir, name string, args ...string) (out string, code int, err error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = Env()
	b, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(b), 0, nil
	case errors.As(err, &exit):
		return string(b), exit.ExitCode(), nil
	default:
		return string(b), 0, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
}
