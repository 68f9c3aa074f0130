package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The documentation's commands are tested as written. TestDocExamples reads every fenced
// code block of README.md and docs/*.md and runs each command of the shell blocks with a
// freshly built ravel, following the conventions of docs/design-notes.md ("Commands in
// the documentation are tested"):
//
//   - a block tagged sh, bash or shell holds commands, one a line (a trailing `\`
//     continues a line; ` # ` starts a comment). A command's expected exit status is 0,
//     or N when its comment says "exit N". `go run ./cmd/ravel` and `ravel` both run the
//     built binary;
//   - `<!-- long: … measured on MACHINE … -->` just before a block: its commands take
//     too long for CI (benchmarks, big explorations); they are not run, and the comment
//     must say which machine the figures beside them were measured on;
//   - `<!-- file: NAME -->` just before a block: its text is the file NAME in the
//     directory the commands run in, so that an example history can be checked;
//   - `<!-- output -->` just before a block: it is what the preceding shell block's
//     commands print. Every non-blank line of it must appear in their standard output,
//     one after the other, in order (other lines may come between), once timings such as
//     0.012s or 17 ns are masked.
//
// Commands run in a temporary directory that links every top-level entry of the
// repository, so relative paths work as from the repository root and files the commands
// write land in the temporary directory. A path under /tmp/, which the documents use for
// the files a reader's run writes (so that they stay out of the checkout), is rewritten
// to the same path under that directory, and back in what the command prints.

// docBlock is one fenced code block of a Markdown file.
type docBlock struct {
	file    string // relative to the repository root
	line    int    // of the opening fence
	lang    string
	text    []string
	markers map[string]string // the HTML comments just before the fence: long, file, output
}

var markerRE = regexp.MustCompile(`^<!--\s*(long|file|output)\s*(?::\s*(.*?))?\s*-->$`)

// parseDocBlocks reads the fenced code blocks of a Markdown file. It reports an indented
// line that looks like a command outside a fenced block, which the runner would not see.
func parseDocBlocks(path, name string) ([]docBlock, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var blocks []docBlock
	var cur *docBlock
	pending := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if cur != nil {
			if strings.HasPrefix(trimmed, "```") {
				blocks = append(blocks, *cur)
				cur = nil
				continue
			}
			cur.text = append(cur.text, line)
			continue
		}
		switch {
		case strings.HasPrefix(line, "```"):
			cur = &docBlock{file: name, line: n, lang: strings.TrimSpace(strings.TrimPrefix(line, "```")), markers: pending}
			pending = map[string]string{}
		case markerRE.MatchString(trimmed):
			m := markerRE.FindStringSubmatch(trimmed)
			pending[m[1]] = m[2]
		case trimmed == "":
		default:
			if strings.HasPrefix(line, "    ") && (strings.HasPrefix(trimmed, "go run ") || strings.HasPrefix(trimmed, "ravel ")) {
				return nil, fmt.Errorf("%s:%d: a command in an indented block; put it in a ```sh block so that it is tested", name, n)
			}
			pending = map[string]string{}
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: code block never closed", name, cur.line)
	}
	return blocks, sc.Err()
}

func isShell(lang string) bool { return lang == "sh" || lang == "bash" || lang == "shell" }

// docCommand is one command of a shell block, with its expected exit status.
type docCommand struct {
	line int
	cmd  string
	exit int
}

var exitRE = regexp.MustCompile(`\bexit (\d+)\b`)

// commands splits a shell block into commands.
func (b docBlock) commands() []docCommand {
	var cmds []docCommand
	var acc string
	start := 0
	for i, l := range b.text {
		if acc == "" {
			start = b.line + 1 + i
		}
		if strings.HasSuffix(l, `\`) {
			acc += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		acc += l
		cmd, comment, _ := strings.Cut(acc, " # ")
		acc = ""
		cmd = strings.TrimSpace(cmd)
		if cmd == "" || strings.HasPrefix(cmd, "#") {
			continue
		}
		c := docCommand{line: start, cmd: cmd}
		if m := exitRE.FindStringSubmatch(comment); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// timingRE matches the figures that change from run to run: durations and rates.
var timingRE = regexp.MustCompile(`\d[\d,]*(\.\d+)?\s?(s|ms|µs|ns|m|h)\b`)

func maskTimings(s string) string { return strings.TrimRight(timingRE.ReplaceAllString(s, "T"), " ") }

// containsLinesInOrder reports the first line of want that is not in got after the
// lines matched before it (timings masked), or "" when all are.
func containsLinesInOrder(got, want string) string {
	g := strings.Split(got, "\n")
	i := 0
	for _, w := range strings.Split(want, "\n") {
		if strings.TrimSpace(w) == "" {
			continue
		}
		mw := maskTimings(w)
		for i < len(g) && maskTimings(g[i]) != mw {
			i++
		}
		if i == len(g) {
			return w
		}
		i++
	}
	return ""
}

func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	for i, f := range files {
		files[i], _ = filepath.Rel(root, f)
	}
	return files
}

// TestDocExamples runs the commands of README.md and docs/*.md (above).
func TestDocExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ravel and runs the documentation's commands; skipped with -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "ravel"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var ran, compared int
	for _, name := range docFiles(t, root) {
		blocks, err := parseDocBlocks(filepath.Join(root, name), name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			r, c := runDocBlocks(t, root, bin, blocks)
			ran, compared = ran+r, compared+c
		})
	}
	if ran == 0 || compared == 0 {
		t.Errorf("ran %d commands and compared %d outputs: the documentation's blocks were not found", ran, compared)
	}
}

// workDir makes the directory a document's commands run in: links to the repository's
// top-level entries, and the document's example files.
func workDir(t *testing.T, root string, blocks []docBlock) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range blocks {
		name, ok := b.markers["file"]
		if !ok {
			continue
		}
		if name == "" || strings.Contains(name, "/") {
			t.Fatalf("%s:%d: file marker needs a plain file name, got %q", b.file, b.line, name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(b.text, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runDocBlocks runs a document's commands and compares the outputs it shows; it returns
// how many commands it ran and how many outputs it compared.
func runDocBlocks(t *testing.T, root, bin string, blocks []docBlock) (ran, compared int) {
	dir := workDir(t, root, blocks)
	var lastStdout string // of the last shell block's commands, one after the other
	var lastCmd *docCommand
	lastLong := false
	for _, b := range blocks {
		if _, ok := b.markers["output"]; ok {
			if lastLong {
				continue // the output of a command too long to run here
			}
			if lastCmd == nil {
				t.Errorf("%s:%d: an output block with no command run before it", b.file, b.line)
				continue
			}
			compared++
			if missing := containsLinesInOrder(lastStdout, strings.Join(b.text, "\n")); missing != "" {
				t.Errorf("%s:%d: the output shown is not what the block above printed: no line %q (in order); it printed:\n%s",
					b.file, b.line, missing, lastStdout)
			}
			continue
		}
		if !isShell(b.lang) {
			for i, l := range b.text {
				if l = strings.TrimSpace(l); strings.HasPrefix(l, "go run ") || strings.HasPrefix(l, "go test ") || strings.HasPrefix(l, "/usr/bin/time ") || strings.HasPrefix(l, "$ ") {
					t.Errorf("%s:%d: a command in a block tagged %q, not sh: it would not be tested", b.file, b.line+1+i, b.lang)
				}
			}
			continue
		}
		if long, ok := b.markers["long"]; ok {
			if !strings.Contains(long, "measured on") {
				t.Errorf("%s:%d: a long block must say which machine it was measured on (<!-- long: measured on … -->), got %q", b.file, b.line, long)
			}
			lastCmd, lastLong = nil, true
			continue
		}
		lastLong, lastStdout = false, ""
		for _, c := range b.commands() {
			lastCmd = &c
			lastStdout += runDocCommand(t, b.file, c, dir, bin)
			ran++
		}
	}
	return ran, compared
}

// scratchRE matches a path under /tmp/ at the start of a word, after = or a quote.
var scratchRE = regexp.MustCompile(`(^|[\s='"])/tmp/`)

// scratchPaths rewrites the /tmp/ paths of a command to the same paths under dir, so that
// what a documented command writes for the reader lands in the test's directory.
func scratchPaths(cmd, dir string) string {
	return scratchRE.ReplaceAllStringFunc(cmd, func(m string) string {
		return strings.TrimSuffix(m, "/tmp/") + dir + "/"
	})
}

// runDocCommand runs one command with bash and checks its exit status; it returns its
// standard output.
func runDocCommand(t *testing.T, file string, c docCommand, dir, bin string) string {
	t.Helper()
	var stdout string
	t.Run(fmt.Sprintf("line%d", c.line), func(t *testing.T) {
		script := scratchPaths(strings.ReplaceAll(c.cmd, "go run ./cmd/ravel", "ravel"), dir)
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		stdout = strings.ReplaceAll(out.String(), dir+"/", "/tmp/") // as the document shows it
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s:%d: %s: %v", file, c.line, c.cmd, err)
		}
		if code != c.exit {
			t.Errorf("%s:%d: %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", file, c.line, c.cmd, code, c.exit, stdout, errb.String())
		}
	})
	return stdout
}

// TestDocRunnerParts checks the runner's own parts: commands and their exit statuses,
// markers, and the output comparison.
func TestDocRunnerParts(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "x.md")
	text := "text\n\n<!-- long: measured on a laptop -->\n```sh\ngo test ./... # exit 3\n```\n\n" +
		"<!-- file: h.jsonl -->\n```\n{}\n```\n\n```sh\nravel check a \\\n  --b   # finds it (exit 1)\n# a comment\nravel list\n```\n"
	if err := os.WriteFile(md, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks, err := parseDocBlocks(md, "x.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 || blocks[0].markers["long"] != "measured on a laptop" || blocks[1].markers["file"] != "h.jsonl" || len(blocks[2].markers) != 0 {
		t.Fatalf("blocks %+v", blocks)
	}
	got := blocks[2].commands()
	want := []docCommand{{line: 14, cmd: "ravel check a    --b", exit: 1}, {line: 17, cmd: "ravel list", exit: 0}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("commands %+v, want %+v", got, want)
	}

	if err := os.WriteFile(md, []byte("a\n\n    go run ./cmd/ravel list\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parseDocBlocks(md, "x.md"); err == nil {
		t.Error("a command in an indented block was accepted")
	}

	if got, want := scratchPaths("ravel check r --out /tmp/v.json --visited-dir=/tmp/vd --checkpoint '/tmp/ck' a/tmp/b", "/d"),
		"ravel check r --out /d/v.json --visited-dir=/d/vd --checkpoint '/d/ck' a/tmp/b"; got != want {
		t.Errorf("scratchPaths: %q, want %q", got, want)
	}

	out := "head\n  TS  exploring  1.234s\n  #S  schedules  4,200\nstates 17\ntail\n"
	for _, c := range []struct {
		shown, missing string
	}{
		{"  TS  exploring  0.011s\n  #S  schedules  4,200\n", ""},
		{"\n  #S  schedules  4,200\ntail\n", ""},
		{"  #S  schedules  4,201\n", "  #S  schedules  4,201"},
		{"tail\nhead\n", "head"}, // out of order
		{"states 18\n", "states 18"},
	} {
		if got := containsLinesInOrder(out, c.shown); got != c.missing {
			t.Errorf("containsLinesInOrder(%q): missing %q, want %q", c.shown, got, c.missing)
		}
	}
}

// TestReadmeQuickStart: the output README.md's quick start shows is what the complete
// program it names, model/example_test.go (run by go test ./model), checks as its
// Output.
func TestReadmeQuickStart(t *testing.T) {
	root := filepath.Join("..", "..")
	blocks, err := parseDocBlocks(filepath.Join(root, "README.md"), "README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile(filepath.Join(root, "model", "example_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	_, output, ok := strings.Cut(string(example), "// Output:\n")
	if !ok {
		t.Fatal("model/example_test.go has no Output")
	}
	var want []string
	for _, l := range strings.Split(output, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "//") {
			want = append(want, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
		}
	}
	for i, b := range blocks {
		if b.lang != "go" || !strings.Contains(strings.Join(b.text, "\n"), "histories.Timeline") {
			continue
		}
		if i+1 == len(blocks) || blocks[i+1].lang != "" {
			t.Fatalf("README.md:%d: no output block after the quick start", b.line)
		}
		if missing := containsLinesInOrder(strings.Join(want, "\n"), strings.Join(blocks[i+1].text, "\n")); missing != "" {
			t.Errorf("README.md:%d: line %q is not in model/example_test.go's Output:\n%s", blocks[i+1].line, missing, strings.Join(want, "\n"))
		}
		return
	}
	t.Fatal("README.md has no quick start calling histories.Timeline")
}
