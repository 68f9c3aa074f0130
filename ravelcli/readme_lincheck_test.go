package ravelcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeLincheckExamples runs the README's lincheck commands as written (globs
// expanded as a shell would, from the repository's root; --out into a temporary
// directory): each must check every file it names, and none may end in a usage error.
func TestReadmeLincheckExamples(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "go run ./cmd/ravel lincheck "
	var found int
	for _, line := range strings.Split(string(readme), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		found++
		t.Run(line, func(t *testing.T) {
			args := []string{"lincheck"}
			var files []string
			cmdline, _, _ := strings.Cut(strings.TrimPrefix(line, prefix), " # ") // a comment says the expected exit status (TestDocExamples checks it)
			words := strings.Fields(cmdline)
			for i := 0; i < len(words); i++ {
				w := words[i]
				switch {
				case w == "--out" && i+1 < len(words):
					args = append(args, w, filepath.Join(t.TempDir(), filepath.Base(words[i+1])))
					i++
				case strings.ContainsAny(w, "*?["):
					m, err := filepath.Glob(filepath.Join("..", w))
					if err != nil || len(m) == 0 {
						t.Fatalf("%s matches nothing (%v)", w, err)
					}
					args = append(args, m...)
					files = append(files, m...)
				case strings.HasPrefix(w, "testdata/"):
					args = append(args, filepath.Join("..", w))
					files = append(files, filepath.Join("..", w))
				default:
					args = append(args, w)
				}
			}
			code, stdout, stderr := runRavel(args...)
			if code != exitOK && code != exitViolation {
				t.Fatalf("exit %d, want 0 or 1; stderr:\n%s\nstdout:\n%s", code, stderr, stdout)
			}
			if strings.Contains(stdout, "  error: ") {
				t.Errorf("a file could not be checked:\n%s", stdout)
			}
			if !strings.Contains(line, "--json") {
				for _, f := range files {
					if !strings.Contains(stdout, f+"  ") {
						t.Errorf("no verdict for %s", f)
					}
				}
			}
		})
	}
	if found == 0 {
		t.Fatalf("the README has no %q example", prefix)
	}
}

// TestLincheckDocsSayWhatIsThere: the README's exit status 3 names both limits that give
// it, and docs/lincheck.md documents --json's "error" field, which lincheckResult has.
func TestLincheckDocsSayWhatIsThere(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(readme)), " ")
	if !strings.Contains(flat, "3 (`lincheck`) a check ended as unknown by `--timeout` or `--mem-limit`") {
		t.Errorf("README's exit status 3 does not name --timeout and --mem-limit")
	}
	doc, err := os.ReadFile("../docs/lincheck.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "| `--json` |") && !strings.Contains(line, "has an `error` saying why") {
			t.Errorf("docs/lincheck.md's --json row does not document \"error\": %s", line)
		}
	}
}
