package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snippetDocs are the documents whose Go snippets must be compiled code: the README and
// the user's journey (issue 15: "every snippet compiled as an Example or test").
var snippetDocs = []string{"README.md", "docs/user-guide.md", "docs/dependence.md", "docs/lincheck.md"}

// TestGoSnippetsCompiled: every ```go block of snippetDocs is, line for line (indentation
// aside, in order), part of a Go file of the repository that go test compiles — a
// package's, or one of internal/usermod/testdata's modules, which ravelcli's
// TestUserModule and raveltest's TestJourneyModule build and run — so a snippet cannot
// drift from code that builds.
// The test names the block and its first line found nowhere.
func TestGoSnippetsCompiled(t *testing.T) {
	root := filepath.Join("..", "..")
	var sources []string // each Go file's lines, trimmed, joined by newlines
	var names []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") && path != filepath.Join(root, "internal", "usermod", "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sources = append(sources, trimLines(string(b)))
		names = append(names, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, doc := range snippetDocs {
		bs, err := parseDocBlocks(filepath.Join(root, doc), doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			if b.lang != "go" {
				continue
			}
			blocks++
			want := trimLines(strings.Join(b.text, "\n"))
			found, best := false, ""
			for _, src := range sources {
				missing := containsLinesInOrder(src, want)
				if missing == "" {
					found = true
					break
				}
				if best == "" || strings.Index(want, missing) > strings.Index(want, best) {
					best = missing // the block's line reached furthest in some file
				}
			}
			if !found {
				t.Errorf("%s:%d: the go block is not in any Go file of the repository (the best match stops at %q)", doc, b.line, best)
			}
		}
	}
	if blocks == 0 {
		t.Errorf("no go blocks in %v", snippetDocs)
	}
}

func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, "\n")
}
