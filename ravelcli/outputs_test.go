package ravelcli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// badRegisterHistory is a register history in Ravel's format that is not linearizable:
// a read after a finished write of 1 returns 0.
const badRegisterHistory = `{"client":0,"input":{"f":"write","value":1},"output":"ok","call":1,"return":2}
{"client":1,"input":{"f":"read"},"output":0,"call":3,"return":4}
`

func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// savedViolation runs check on register-buggy and returns the file its --out wrote.
func savedViolation(t *testing.T, dir string) string {
	t.Helper()
	v := filepath.Join(dir, "v.json")
	if code, _, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", v); code != exitViolation {
		t.Fatalf("check --out: exit %d: %s", code, stderr)
	}
	return v
}

// wantSymlink fails unless link is still a symbolic link to target.
func wantSymlink(t *testing.T, link, target string) {
	t.Helper()
	st, err := os.Lstat(link)
	if err != nil {
		t.Fatalf("the link %s is gone: %v", link, err)
	}
	if st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link %s was replaced by a %v", link, st.Mode())
	}
	if got, _ := os.Readlink(link); got != target {
		t.Fatalf("the link %s now leads to %s, want %s", link, got, target)
	}
}

// TestOutputThroughSymlink: an output named by a symbolic link is written to the file the
// link leads to, and the link stays; a stale file there is removed by a run that finds
// nothing, as a stale file named directly is.
func TestOutputThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	// A relative link from a subdirectory: its target is read from where the link is.
	sub, other := filepath.Join(dir, "sub"), filepath.Join(dir, "other")
	for _, d := range []string{sub, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(sub, "link.json")
	const rel = "../other/target.json"
	target := filepath.Join(other, "target.json")
	if err := os.Symlink(rel, link); err != nil {
		t.Fatal(err)
	}

	// A clean run: the previous findings where the link leads are removed, the link stays.
	writeTestFile(t, target, `{"precious":1}`)
	if code, _, stderr := runRavel("check", "register", "--harness", "2r1w", "--quiet", "--out", link); code != exitOK {
		t.Fatalf("clean check: exit %d: %s", code, stderr)
	}
	wantSymlink(t, link, rel)
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("the stale file the link leads to survived a run that found nothing (%v)", err)
	}

	// A violating run: the violation goes where the link leads, and replays through it.
	writeTestFile(t, target, `{"precious":1}`)
	code, stdout, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", link)
	if code != exitViolation {
		t.Fatalf("violating check: exit %d: %s", code, stderr)
	}
	wantSymlink(t, link, rel)
	var vf struct{ Format string }
	if err := json.Unmarshal([]byte(readTestFile(t, target)), &vf); err != nil || !strings.HasPrefix(vf.Format, "ravel-violation/") {
		t.Fatalf("the file the link leads to holds no violation (%v)", err)
	}
	if !strings.Contains(stdout, "saved to "+link+"; re-run it with: ravel replay "+link) {
		t.Errorf("no replay line for the link:\n%s", stdout)
	}
	if code, _, stderr := runRavel("replay", link); code != exitViolation {
		t.Errorf("replay through the link: exit %d: %s", code, stderr)
	}

	// Every other output follows links the same way.
	page, hist := filepath.Join(other, "page.html"), filepath.Join(other, "h.jsonl")
	pageLink, histLink := filepath.Join(sub, "page"), filepath.Join(sub, "hist")
	for _, l := range [][2]string{{page, pageLink}, {hist, histLink}} {
		writeTestFile(t, l[0], "precious")
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--quiet", "--html", pageLink, "--histories", histLink); code != exitViolation {
		t.Fatalf("check --html --histories: exit %d: %s", code, stderr)
	}
	wantSymlink(t, pageLink, page)
	wantSymlink(t, histLink, hist)
	if !strings.Contains(readTestFile(t, page), "<html") || !strings.Contains(readTestFile(t, hist), `"verdict"`) {
		t.Errorf("check's --html or --histories did not reach the files the links lead to")
	}
	in := filepath.Join(dir, "in.jsonl")
	writeTestFile(t, in, badRegisterHistory)
	writeTestFile(t, target, "precious")
	writeTestFile(t, page, "precious")
	if code, _, stderr := runRavel("lincheck", "--spec", "register", "--out", link, "--html", pageLink, in); code != exitViolation {
		t.Fatalf("lincheck: exit %d: %s", code, stderr)
	}
	wantSymlink(t, link, rel)
	wantSymlink(t, pageLink, page)
	if !strings.Contains(readTestFile(t, target), "ravel-lincheck/") || !strings.Contains(readTestFile(t, page), "<html") {
		t.Errorf("lincheck's --out or --html did not reach the files the links lead to")
	}
	v := savedViolation(t, dir)
	writeTestFile(t, page, "precious")
	if code, _, stderr := runRavel("replay", v, "--html", pageLink); code != exitViolation {
		t.Fatalf("replay --html: exit %d: %s", code, stderr)
	}
	wantSymlink(t, pageLink, page)
	if !strings.Contains(readTestFile(t, page), "<html") {
		t.Errorf("replay's --html did not reach the file the link leads to")
	}

	// A link that leads nowhere yet: the file is made where it leads.
	dangling := filepath.Join(sub, "dangling.json")
	fresh := filepath.Join(other, "fresh.json")
	if err := os.Symlink(fresh, dangling); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", dangling); code != exitViolation {
		t.Fatalf("check --out through a dangling link: exit %d: %s", code, stderr)
	}
	wantSymlink(t, dangling, fresh)
	if !strings.Contains(readTestFile(t, fresh), "ravel-violation/") {
		t.Errorf("the violation did not reach the file the dangling link leads to")
	}
}

// TestOutputToDescriptor: an output named /dev/fd/N is written through descriptor N,
// where it stands: a file open for appending keeps what it held, and is neither removed
// nor truncated, by a run that finds something or by one that finds nothing.
// (/dev/stdout is /dev/fd/1; it is not used here.)
func TestOutputToDescriptor(t *testing.T) {
	if st, err := os.Stat("/dev/fd"); err != nil || !st.IsDir() {
		t.Skip("no /dev/fd here")
	}
	log := filepath.Join(t.TempDir(), "log.txt")
	writeTestFile(t, log, "previous line\n")
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := "/dev/fd/" + strconv.Itoa(int(f.Fd()))
	if st, err := os.Stat(name); err != nil || !os.SameFile(st, mustStat(t, log)) {
		t.Skipf("%s does not name the open file here (%v)", name, err)
	}
	if code, _, stderr := runRavel("check", "register", "--harness", "2r1w", "--quiet", "--out", name); code != exitOK {
		t.Fatalf("clean check: exit %d: %s", code, stderr)
	}
	if got := readTestFile(t, log); got != "previous line\n" {
		t.Fatalf("a clean run to %s changed the file it is open on: %q", name, got)
	}
	code, stdout, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", name)
	if code != exitViolation {
		t.Fatalf("violating check: exit %d: %s", code, stderr)
	}
	got := readTestFile(t, log)
	if !strings.HasPrefix(got, "previous line\n{") || !strings.Contains(got, "ravel-violation/") {
		t.Errorf("the violation was not appended through %s:\n%.200s", name, got)
	}
	if strings.Contains(stdout, "replay "+name) || !strings.Contains(stdout, "written to "+name) {
		t.Errorf("the report suggests replaying a descriptor, or does not say where it wrote:\n%s", stdout)
	}
}

func mustStat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestOutputClashes: an output that names another output or an input — by the same
// name, another spelling, a symbolic link or a hard link — is refused with exit 2 before
// any work, naming both, and the files are left as they were.
func TestOutputClashes(t *testing.T) {
	dir := t.TempDir()
	v := savedViolation(t, dir)
	violation := readTestFile(t, v)
	in := filepath.Join(dir, "in.jsonl")
	writeTestFile(t, in, badRegisterHistory)
	same := filepath.Join(dir, "same.json")
	writeTestFile(t, same, "precious")
	dot := dir + "/./same.json" // filepath.Join would clean it
	link, hard := filepath.Join(dir, "link.json"), filepath.Join(dir, "hard.json")
	if err := os.Symlink(v, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(v, hard); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh.json") // not there yet
	check := []string{"check", "register-buggy", "--harness", "2r1w", "--quiet"}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"check --out --html", append(check, "--out", same, "--html", same), "check: --out and --html both name " + same},
		{"check --out --histories", append(check, "--out", same, "--histories", same), "check: --out and --histories both name"},
		{"check --histories --html", append(check, "--histories", same, "--html", same), "check: --histories and --html both name"},
		{"check, two spellings", append(check, "--out", same, "--html", dot), "check: --out " + same + " and --html " + dot + " name the same file"},
		{"check, a file not there yet", append(check, "--out", fresh, "--html", fresh), "check: --out and --html both name"},
		{"check, a link and its target", append(check, "--out", link, "--html", v), "check: --out " + link + " and --html " + v + " name the same file"},
		{"check, a hard link", append(check, "--out", hard, "--html", v), "name the same file"},
		{"check --checkpoint", append(check, "--out", fresh, "--checkpoint", fresh), "check: --out and --checkpoint both name"},
		{"lincheck --out input", []string{"lincheck", "--spec", "register", "--out", in, in}, "lincheck: --out and the history file both name " + in},
		{"lincheck --html input", []string{"lincheck", "--spec", "register", "--html", in, in}, "lincheck: --html and the history file both name"},
		{"lincheck --out --html", []string{"lincheck", "--spec", "register", "--out", same, "--html", same, in}, "lincheck: --out and --html both name"},
		{"replay --html input", []string{"replay", v, "--html", v}, "replay: --html and the violation file both name " + v},
		{"replay --html a link to the input", []string{"replay", v, "--html", link}, "replay: --html " + link + " and the violation file " + v + " name the same file"},
		{"replay --html a hard link to the input", []string{"replay", v, "--html", hard}, "name the same file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runRavel(c.args...)
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, c.want)
			}
			if stdout != "" {
				t.Errorf("work was done:\n%s", stdout)
			}
			if readTestFile(t, v) != violation || readTestFile(t, in) != badRegisterHistory || readTestFile(t, same) != "precious" {
				t.Errorf("a file was changed")
			}
			if _, err := os.Lstat(fresh); !os.IsNotExist(err) {
				t.Errorf("%s was made (%v)", fresh, err)
			}
		})
	}
	// Standard input is no file to clash with.
	if code, _, stderr := runRaveIn(t, badRegisterHistory, "lincheck", "--spec", "register", "--out", fresh, "-"); code != exitViolation {
		t.Errorf("lincheck - --out: exit %d: %s", code, stderr)
	}
}

// runRaveIn runs the command line with stdin as standard input.
func runRaveIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.WriteString(stdin)
		w.Close()
	}()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; r.Close() }()
	return runRavel(args...)
}

// TestOutputDash: "-" is refused as an output, with exit 2 before any work: it is
// standard input to the commands that read files, and no file named - is made.
func TestOutputDash(t *testing.T) {
	dir := t.TempDir()
	v := savedViolation(t, dir)
	in := filepath.Join(dir, "in.jsonl")
	writeTestFile(t, in, badRegisterHistory)
	t.Chdir(dir)
	check := []string{"check", "register-buggy", "--harness", "2r1w", "--quiet"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(check, "--out", "-"), "check: --out -:"},
		{append(check, "--html", "-"), "check: --html -:"},
		{append(check, "--histories", "-"), "check: --histories -:"},
		{[]string{"lincheck", "--spec", "register", "--out", "-", in}, "lincheck: --out -:"},
		{[]string{"lincheck", "--spec", "register", "--html", "-", in}, "lincheck: --html -:"},
		{[]string{"replay", v, "--html", "-"}, "replay: --html -:"},
	} {
		code, stdout, stderr := runRavel(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "./-") || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 before any work, and %q", c.args, code, stdout, stderr, c.want)
		}
		if _, err := os.Lstat(filepath.Join(dir, "-")); !os.IsNotExist(err) {
			t.Fatalf("%q made a file named - (%v)", c.args, err)
		}
	}
	// ./- is a file named -, and the replay line says so.
	code, stdout, stderr := runRavel(append(check, "--out", "./-")...)
	if code != exitViolation || !strings.Contains(stdout, "ravel replay ./-") {
		t.Errorf("--out ./-: exit %d, %s\n%s", code, stdout, stderr)
	}
}

// TestReplayHTMLCheckedFirst: replay's --html is checked before the replay, with check's
// words, so that a bad page is exit 2 with nothing replayed; a good one keeps the
// violation's exit 1.
func TestReplayHTMLCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	v := savedViolation(t, dir)
	adir := filepath.Join(dir, "adir")
	if err := os.Mkdir(adir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ page, want string }{
		{adir, "replay: --html " + adir + ": is a directory"},
		{filepath.Join(dir, "missing", "p.html"), "replay: --html: open " + filepath.Join(dir, "missing", "p.html") + ": no such file or directory"},
	} {
		code, stdout, stderr := runRavel("replay", v, "--html", c.page)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("--html %s: exit %d, stdout %q, stderr %q; want 2 before the replay and %q", c.page, code, stdout, stderr, c.want)
		}
	}
	if code, _, stderr := runRavel("check", "register-buggy", "--html", adir); code != exitUsage || !strings.Contains(stderr, "check: --html "+adir+": is a directory") {
		t.Errorf("check --html DIR: exit %d, %q", code, stderr)
	}
	page := filepath.Join(dir, "p.html")
	var out, errb bytes.Buffer
	if code := run([]string{"replay", v, "--html", page}, &out, &errb); code != exitViolation || !strings.Contains(readTestFile(t, page), "<html") {
		t.Errorf("replay --html: exit %d: %s", code, errb.String())
	}
}
