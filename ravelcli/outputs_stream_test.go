package ravelcli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputIsStdoutFile: `ravel check … --out f > f` lost the text report: the shell
// points stdout at f, --out then replaces f, and the report goes on into the file
// removed. An output that is the regular file stdout (or stderr) is open on — by its
// name or through a link — is refused before any work, with exit 2, and the file is
// left as it was; an output elsewhere, with stdout on a file, is written as ever.
func TestOutputIsStdoutFile(t *testing.T) {
	dir := t.TempDir()
	h := filepath.Join(dir, "h.jsonl")
	line := `{"client":0,"input":{"f":"write","value":1},"output":"ok","call":1,"return":2}` + "\n"
	if err := os.WriteFile(h, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	check := []string{"check", "register", "--quiet", "--max-schedules", "10"}
	tests := []struct {
		name   string
		args   func(f string) []string
		stream string // "stdout" or "stderr": which one is the file
	}{
		{"check --out", func(f string) []string { return append(check, "--out", f) }, "stdout"},
		{"check --histories", func(f string) []string { return append(check, "--histories", f) }, "stdout"},
		{"check --html on stderr's file", func(f string) []string { return append(check, "--html", f) }, "stderr"},
		{"lincheck --out", func(f string) []string { return []string{"lincheck", "--spec", "register", "--out", f, h} }, "stdout"},
		{"check --out through a link", func(f string) []string {
			link := filepath.Join(filepath.Dir(f), "link-"+filepath.Base(f))
			if err := os.Symlink(f, link); err != nil {
				t.Fatal(err)
			}
			return append(check, "--out", link)
		}, "stdout"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := filepath.Join(dir, "out"+string(rune('a'+i)))
			file, err := os.Create(f)
			if err != nil {
				t.Fatal(err)
			}
			defer file.Close()
			if _, err := file.WriteString("kept\n"); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			var stdout, stderr io.Writer = file, &buf
			if tt.stream == "stderr" {
				stdout, stderr = &buf, file
			}
			code := run(tt.args(f), stdout, stderr)
			msg := buf.String()
			if tt.stream == "stderr" {
				b, _ := os.ReadFile(f)
				msg = string(b)
			}
			if code != exitUsage || !strings.Contains(msg, "is the file standard "+map[string]string{"stdout": "output", "stderr": "error"}[tt.stream]+" goes to") {
				t.Errorf("exit %d, want %d and a refusal that names standard %s; message:\n%s", code, exitUsage, tt.stream, msg)
			}
			if b, err := os.ReadFile(f); err != nil || !strings.HasPrefix(string(b), "kept\n") {
				t.Errorf("the file was not left as it was: %.80q, %v", b, err)
			}
		})
	}

	// stdout on one file, --out on another: no clash.
	file, err := os.Create(filepath.Join(dir, "report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var stderr bytes.Buffer
	out := filepath.Join(dir, "v.json")
	if code := run([]string{"check", "register-buggy", "--quiet", "--out", out}, file, &stderr); code != exitViolation {
		t.Errorf("another file: exit %d, want %d; stderr:\n%s", code, exitViolation, stderr.String())
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("--out was not written: %v", err)
	}
}
