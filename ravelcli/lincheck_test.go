package ravelcli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var porcupineData = filepath.Join("..", "testdata", "porcupine")

// expected reads porcupine's expected.txt: verdict by file, the files under
// porcupineData.
func expected(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(porcupineData, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		want[filepath.Join(porcupineData, filepath.FromSlash(f[0]))] = f[1]
	}
	return want
}

// TestLincheckPorcupine runs lincheck --json on every history of porcupine's data that
// expected.txt lists, the etcd logs with the default format of cas-register and the
// key-value logs with that of kv, and compares each verdict with expected.txt. The
// documented glob, which also takes the empty etcd_095.log that expected.txt leaves out,
// is run as written by TestDocExamples (README.md, docs/lincheck.md).
func TestLincheckPorcupine(t *testing.T) {
	want := expected(t)
	for _, run := range []struct {
		spec, glob string
		files      int
	}{{"cas-register", "jepsen/etcd_*.log", 102}, {"kv", "kv/*.txt", 6}} {
		files, err := filepath.Glob(filepath.Join(porcupineData, filepath.FromSlash(run.glob)))
		if err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, f := range files {
			if _, ok := want[f]; ok {
				listed = append(listed, f)
			}
		}
		if len(listed) != run.files {
			t.Fatalf("%d %s files listed in expected.txt, want %d", len(listed), run.spec, run.files)
		}
		code, stdout, stderr := runRavel(append([]string{"lincheck", "--spec", run.spec, "--json"}, listed...)...)
		if code != exitViolation {
			t.Errorf("%s: exit %d, want 1 (some histories are not linearizable); stderr:\n%s", run.spec, code, stderr)
		}
		var results []struct {
			File    string   `json:"file"`
			Verdict string   `json:"verdict"`
			Seconds *float64 `json:"seconds"`
		}
		if err := json.Unmarshal([]byte(stdout), &results); err != nil {
			t.Fatalf("%s: output is not a JSON array: %v\n%s", run.spec, err, stdout)
		}
		if len(results) != len(listed) {
			t.Fatalf("%s: %d results for %d files", run.spec, len(results), len(listed))
		}
		for i, r := range results {
			if r.File != listed[i] || r.Verdict != want[r.File] || r.Seconds == nil {
				t.Errorf("result %+v, want file %s, verdict %s and seconds", r, listed[i], want[listed[i]])
			}
		}
	}
}

// TestLincheckText checks the text output: the verdicts, and for a violation the
// longest linearizable prefix and the operation that cannot follow, as a timeline.
func TestLincheckText(t *testing.T) {
	ok := filepath.Join(porcupineData, "jepsen", "etcd_002.log")
	bad := filepath.Join(porcupineData, "jepsen", "etcd_000.log")
	code, stdout, stderr := runRavel("lincheck", "--spec", "cas-register", ok, bad)
	if code != exitViolation {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, w := range []string{ok + "  linearizable", bad + "  not-linearizable", "longest linearizable prefix found has",
		"cannot follow it", "✗", "├", "┤", "but the specification answers", "2 files: 1 linearizable, 1 not linearizable"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s", w, stdout)
		}
	}
	code, stdout, _ = runRavel("lincheck", "--spec", "kv", filepath.Join(porcupineData, "kv", "c01-bad.txt"))
	if code != exitViolation || !strings.Contains(stdout, "of key") {
		t.Errorf("kv: exit %d, output does not name the key:\n%s", code, stdout)
	}
	code, _, stderr = runRavel("lincheck", "--format", "jepsen", ok)
	if code != exitOK {
		t.Errorf("--format jepsen without --spec: exit %d, want 0; stderr:\n%s", code, stderr)
	}
}

// TestLincheckOut checks the --out file: every violation with its prefix and stuck
// operation, in Ravel's format, which read back as a linearizable prefix.
func TestLincheckOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "v.json")
	bad := []string{filepath.Join(porcupineData, "jepsen", "etcd_000.log"), filepath.Join(porcupineData, "jepsen", "etcd_001.log")}
	code, stdout, stderr := runRavel(append([]string{"lincheck", "--spec", "cas-register", "--out", out}, bad...)...)
	if code != exitViolation {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "violations saved to "+out) {
		t.Errorf("output does not say where the violations went:\n%s", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Format     string `json:"format"`
		Spec       string `json:"spec"`
		Violations []struct {
			File     string            `json:"file"`
			Prefix   []json.RawMessage `json:"prefix"`
			Stuck    map[string]any    `json:"stuck"`
			Expected any               `json:"stuck_expected_output"`
			Timeline string            `json:"timeline"`
		} `json:"violations"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	if f.Format != lincheckFormat || f.Spec != "cas-register" || len(f.Violations) != 2 {
		t.Fatalf("format %q, spec %q, %d violations; want %q, cas-register, 2", f.Format, f.Spec, len(f.Violations), lincheckFormat)
	}
	for i, v := range f.Violations {
		if v.File != bad[i] || len(v.Prefix) == 0 || v.Stuck["index"] == nil || v.Stuck["input"] == nil || !strings.Contains(v.Timeline, "✗") {
			t.Errorf("violation %d: %+v", i, v)
		}
		// The prefix, written as a history of its own, as it is (each operation with its
		// index), is linearizable.
		var lines []string
		for _, p := range v.Prefix {
			var b bytes.Buffer
			if err := json.Compact(&b, p); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, b.String())
		}
		prefix := filepath.Join(t.TempDir(), "prefix.jsonl")
		if err := os.WriteFile(prefix, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, stdout, stderr := runRavel("lincheck", "--spec", "cas-register", "--format", "ravel", prefix); code != exitOK {
			t.Errorf("violation %d: its prefix is not linearizable: exit %d\n%s%s", i, code, stdout, stderr)
		}
	}
}

// TestLincheckRavelFormat checks histories in Ravel's format against each
// specification.
func TestLincheckRavelFormat(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		spec, text string
		want       int
	}{
		{"register", `{"client":0,"input":{"f":"write","value":1},"output":"ok","call":1,"return":4}
{"client":1,"input":{"f":"read"},"output":1,"call":2,"return":3}
`, exitOK},
		{"register", `{"client":0,"input":{"f":"write","value":1},"output":"ok","call":1,"return":2}
{"client":1,"input":{"f":"read"},"output":0,"call":3,"return":4}
`, exitViolation},
		{"cas-register", `{"client":0,"input":{"f":"write","value":1},"call":1,"return":2}
{"client":2,"input":{"f":"cas","from":1,"to":2},"call":3,"open":true}
{"client":1,"input":{"f":"read"},"output":2,"call":4,"return":5}
`, exitOK},
		{"kv", `{"client":0,"input":{"f":"append","key":"k","value":"x"},"call":1,"return":4}
{"client":1,"input":{"f":"get","key":"k"},"output":"x","call":2,"return":3}
{"client":1,"input":{"f":"get","key":"j"},"output":"","call":5,"return":6}
`, exitOK},
	} {
		p := write(c.spec+".jsonl", c.text)
		runs := [][]string{{"lincheck", "--spec", c.spec, "--format", "ravel", p}}
		if c.spec == "register" {
			runs = append(runs, []string{"lincheck", "--spec", c.spec, p}) // ravel is its default
		}
		for _, args := range runs {
			if code, stdout, stderr := runRavel(args...); code != c.want {
				t.Errorf("%v: exit %d, want %d\n%s%s", args[1:], code, c.want, stdout, stderr)
			}
		}
	}
}

// TestLincheckBadInput: a malformed file gets its own "error:" verdict line with
// file:line and what was expected, for every format, the other files are still
// checked, and the exit status is 2; bad flags exit 2 with a one-line reason.
func TestLincheckBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jepsen := write("bad.log", "INFO  jepsen.util - 0\t:invoke\t:read\tnil\nINFO  jepsen.util - 0\t:ok\t:cas\t[1 2]\n")
	kv := write("bad.txt", `{:process 0, :type :invoke, :f :get, :key "1", :value nil}`+"\n"+`{:process 0, :type :ok, :f :get}`+"\n")
	rv := write("bad.jsonl", `{"client":0,"input":{"f":"read"},"output":1,"call":1,"return":2}`+"\n\n"+`{"client":0,"input":{"f":"read"},"call":1,"return":2,"output":"one"}`+"\n")
	noOps := write("kv-as-jepsen.log", `{:process 0, :type :invoke, :f :get, :key "1", :value nil}`+"\n")
	bom := write("bom.jsonl", "\xef\xbb\xbf"+`{"client":0,"input":{"f":"read"},"output":0,"call":1,"return":2}`+"\n")
	dup := write("dup.jsonl", `{"client":0,"input":{"f":"read"},"output":0,"call":1,"return":2,"Call":5}`+"\n")
	long := write("long.jsonl", strings.Repeat("x", 64<<20+10)+"\n")
	arr := write("array.jsonl", `[{"client":0}]`+"\n")
	comments := write("comments.jsonl", "# nothing but a comment\n")
	good := filepath.Join(porcupineData, "jepsen", "etcd_002.log")
	for _, c := range []struct {
		name string
		args []string
		want []string
		file bool // the problem is a file's: reported as its verdict line on stdout
	}{
		{"jepsen", []string{"--spec", "cas-register", good, jepsen}, []string{jepsen + "  error: " + jepsen + ":2: ", "expected :read as invoked at line 1", good + "  linearizable"}, true},
		{"porcupine-kv", []string{"--spec", "kv", kv}, []string{kv + ":2: ", "expected a :key"}, true},
		{"ravel", []string{"--spec", "register", rv}, []string{rv + ":3: ", "expected the value read (an integer)"}, true},
		{"no operations", []string{"--spec", "cas-register", "--format", "jepsen", noOps}, []string{noOps + ":1: ", "expected :read, :write or :cas as :f, found \":get\"", "--spec kv, --format porcupine-kv"}, true},
		{"a JSON array", []string{"--spec", "register", arr}, []string{arr + ":1: ", "expected one JSON object", "found a JSON array"}, true},
		{"comments only, the default format", []string{"--spec", "register", comments}, []string{comments + ": no operations found in the ravel format, register's default", "--format (valid for register: ravel, histories)"}, true},
		{"missing file", []string{"--spec", "kv", filepath.Join(dir, "nope.txt")}, []string{"no such file"}, true},
		{"directory", []string{"--spec", "kv", dir}, []string{dir + ": is a directory"}, true},
		{"duplicate JSON key", []string{"--spec", "register", dup}, []string{dup + ":1: ", `"Call" twice`}, true},
		{"overlong line", []string{"--spec", "register", long}, []string{long + ":1: ", "longer than 64 MiB"}, true},
		{"no spec", []string{good}, []string{"needs --spec", "cas-register, kv, register"}, false},
		{"unknown spec", []string{"--spec", "queue", good}, []string{`unknown spec "queue"`, "cas-register, kv, register"}, false},
		// The unknown format is named, not the --spec it would have implied.
		{"unknown format", []string{"--format", "nosuch", good}, []string{`unknown format "nosuch" (valid: histories, jepsen, porcupine-kv, ravel)`}, false},
		{"unknown format with a spec", []string{"--spec", "kv", "--format", "nosuch", good}, []string{`unknown format "nosuch" (valid: histories, jepsen, porcupine-kv, ravel)`}, false},
		{"wrong format", []string{"--spec", "register", "--format", "jepsen", good}, []string{`format "jepsen" does not hold register histories`, "ravel"}, false},
		{"no files", []string{"--spec", "kv"}, []string{"at least one history file"}, false},
		{"bad timeout", []string{"--spec", "kv", "--timeout", "soon", good}, []string{"invalid value"}, false},
		{"negative timeout", []string{"--spec", "kv", "--timeout", "-1s", good}, []string{"--timeout"}, false},
		{"out to a missing directory", []string{"--spec", "kv", "--out", filepath.Join(dir, "no", "v.json"), good}, []string{"--out", "no such file"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runRavel(append([]string{"lincheck"}, c.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want 2; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			where := stderr
			if c.file {
				where = stdout
			}
			for _, w := range c.want {
				if !strings.Contains(where, w) {
					t.Errorf("output lacks %q:\n%s", w, where)
				}
			}
			if c.file {
				if !strings.Contains(stdout, "  error: ") || strings.Contains(stdout, "goroutine") {
					t.Errorf("no error verdict line:\n%s", stdout)
				}
				return
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("reason takes more than one line:\n%s", stderr)
			}
			if stdout != "" {
				t.Errorf("a verdict was printed before the bad usage was found:\n%s", stdout)
			}
		})
	}
	// A byte-order mark is not part of the first line.
	if code, stdout, stderr := runRavel("lincheck", "--spec", "register", bom); code != exitOK {
		t.Errorf("BOM: exit %d, want 0:\n%s%s", code, stdout, stderr)
	}
}

// TestLincheckBatchWorstOutcome: every file gets its verdict line, an empty file is an
// empty (linearizable) history, and the exit status is the worst outcome: a violation
// above a bad file.
func TestLincheckBatchWorstOutcome(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.log")
	bad := filepath.Join(dir, "bad.log")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("INFO  jepsen.util - 0\t:ok\t:read\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(porcupineData, "jepsen", "etcd_002.log")
	nl := filepath.Join(porcupineData, "jepsen", "etcd_000.log")
	for _, c := range []struct {
		name  string
		files []string
		want  int
	}{
		{"empty is linearizable", []string{empty, ok}, exitOK},
		{"bad file", []string{ok, bad, empty}, exitUsage},
		{"violation beats bad file", []string{bad, nl, ok}, exitViolation},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runRavel(append([]string{"lincheck", "--spec", "cas-register"}, c.files...)...)
			if code != c.want {
				t.Errorf("exit %d, want %d:\n%s%s", code, c.want, stdout, stderr)
			}
			for _, f := range c.files {
				if !strings.Contains(stdout, f+"  ") {
					t.Errorf("no verdict line for %s:\n%s", f, stdout)
				}
			}
		})
	}
}

// TestLincheckTimeout: a check cut by --timeout is unknown, and exits 3.
func TestLincheckTimeout(t *testing.T) {
	code, stdout, stderr := runRavel("lincheck", "--spec", "kv", "--timeout", "1ns", "--json", filepath.Join(porcupineData, "kv", "c10-ok.txt"))
	if code != exitUnknown {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUnknown, stderr)
	}
	if !strings.Contains(stdout, `"verdict": "unknown"`) {
		t.Errorf("output does not say unknown:\n%s", stdout)
	}
	code, stdout, _ = runRavel("lincheck", "--spec", "kv", "--timeout", "1ns", filepath.Join(porcupineData, "kv", "c10-ok.txt"))
	if code != exitUnknown || !strings.Contains(stdout, "gave up after --timeout 1ns (raise it, or give --timeout 0 for no limit)") {
		t.Errorf("exit %d, output:\n%s", code, stdout)
	}
	// The page of an unknown history says why.
	page := filepath.Join(t.TempDir(), "u.html")
	runRavel("lincheck", "--spec", "kv", "--timeout", "1ns", "--html", page, filepath.Join(porcupineData, "kv", "c10-ok.txt"))
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "unknown because") || !strings.Contains(string(b), "gave up after --timeout 1ns") {
		t.Errorf("the page of an unknown history does not say why (%v)", err)
	}
}

func TestLincheckHelp(t *testing.T) {
	code, stdout, _ := runRavel("lincheck", "-h")
	if code != exitOK || !strings.Contains(stdout, "porcupine-kv") || !strings.Contains(stdout, "-timeout") {
		t.Errorf("exit %d, help:\n%s", code, stdout)
	}
}

// TestLincheckMemLimit: a check that needs more memory than --mem-limit is unknown,
// exit 3, saying why; a bad limit is a usage error.
func TestLincheckMemLimit(t *testing.T) {
	file := filepath.Join(porcupineData, "kv", "c10-ok.txt")
	code, stdout, stderr := runRavel("lincheck", "--spec", "kv", "--mem-limit", "1MiB", file)
	if code != exitUnknown || !strings.Contains(stdout, "unknown") || !strings.Contains(stdout, "more memory than --mem-limit 1MiB (raise --mem-limit)") {
		t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, exitUnknown, stdout, stderr)
	}
	for _, bad := range []string{"lots", "-1MiB", "1KiB"} {
		if code, _, stderr := runRavel("lincheck", "--spec", "kv", "--mem-limit", bad, file); code != exitUsage || !strings.Contains(stderr, "--mem-limit") {
			t.Errorf("--mem-limit %s: exit %d, %q", bad, code, stderr)
		}
	}
	if code, _, stderr := runRavel("lincheck", "--spec", "kv", "--mem-limit", "2GiB", file); code != exitOK {
		t.Errorf("--mem-limit 2GiB: exit %d: %s", code, stderr)
	}
}

// TestLincheckJepsenLineForms: a log of Jepsen's later form is read, and a file with no
// operation in the jepsen format is told which lines the format reads, rather than only
// sent to --format.
func TestLincheckJepsenLineForms(t *testing.T) {
	dir := t.TempDir()
	later := filepath.Join(dir, "later.log")
	const p = "INFO [2019-04-01 11:25:23,790] jepsen worker 0 - jepsen.util "
	if err := os.WriteFile(later, []byte(p+"0\t:invoke\t:write\t4\n"+p+"0\t:ok\t:write\t4\n"+p+"1\t:invoke\t:read\tnil\n"+p+"1\t:ok\t:read\t4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runRavel("lincheck", "--spec", "cas-register", later); code != exitOK || !strings.Contains(stdout, "linearizable  (2 operations") {
		t.Errorf("later form: exit %d:\n%s%s", code, stdout, stderr)
	}
	noise := filepath.Join(dir, "noise.log")
	if err := os.WriteFile(noise, []byte("INFO [2019-04-01 11:25:23,700] jepsen.core - Running test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runRavel("lincheck", "--spec", "cas-register", noise)
	if code != exitUsage || !strings.Contains(stdout, "INFO  jepsen.util - 3") || !strings.Contains(stdout, "jepsen worker 3 - jepsen.util 3") {
		t.Errorf("no operations: exit %d, want %d and the line forms read:\n%s", code, exitUsage, stdout)
	}
}

// TestLincheckSummaryPlural: the summary says "1 error", not "1 errors".
func TestLincheckSummaryPlural(t *testing.T) {
	nope := filepath.Join(t.TempDir(), "nope.log")
	_, stdout, _ := runRavel("lincheck", "--spec", "cas-register", nope, filepath.Join(porcupineData, "jepsen", "etcd_002.log"))
	if !strings.Contains(stdout, "2 files: 1 linearizable, 0 not linearizable, 0 unknown, 1 error\n") {
		t.Errorf("summary:\n%s", stdout)
	}
}

// TestLincheckExplainsWhy: the explanation of a violation in a Jepsen log gives each
// operation's lines, [call…return], and, the prefix being cut to its last 10 operations,
// still shows the writes of the value the stuck read returned, with the write that real
// time puts between each and the read.
func TestLincheckExplainsWhy(t *testing.T) {
	_, stdout, _ := runRavel("lincheck", "--spec", "cas-register", filepath.Join(porcupineData, "jepsen", "etcd_000.log"))
	for _, want := range []string{
		"✗  c11  Read()   [85…86]",
		"     31  c2  Write(2)  [65…69]",
		"c11 Read() [85…86] answered 2, as it would have right after\n",
		"    c2 Write(2) [65…69] (#31), but c0 Write(1) [74…75] comes after it and before c11's call, in real time, and changes the answer\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("explanation lacks %q:\n%s", want, stdout)
		}
	}
}

// TestLincheckStandardInput: - given twice is refused (standard input is read once; the
// second read was an empty history, silently linearizable), and a run on standard input
// without --spec says that standard input is not looked at for a spec.
func TestLincheckStandardInput(t *testing.T) {
	code, _, stderr := runRavel("lincheck", "--spec", "cas-register", "-", "-")
	if code != exitUsage || !strings.Contains(stderr, "given twice") {
		t.Errorf("- -: exit %d, %q", code, stderr)
	}
	code, _, stderr = runRavel("lincheck", "--format", "histories", "-")
	if code != exitUsage || !strings.Contains(stderr, "standard input is read once, and not looked at for the specification") {
		t.Errorf("--format histories -: exit %d, %q", code, stderr)
	}
}
