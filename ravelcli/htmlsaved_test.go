package ravelcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHTMLPageSavedLine: check, replay and lincheck say where --html's page went, as
// check says it for --out: "saved to" a file, "written to" a descriptor, on standard
// output, and not under --json.
func TestHTMLPageSavedLine(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.html")
	in := filepath.Join(dir, "in.jsonl")
	writeTestFile(t, in, badRegisterHistory)
	v := savedViolation(t, dir)
	saved := "HTML page saved to " + page
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"check, clean", []string{"check", "register", "--harness", "2r1w", "--quiet", "--html", page}, exitOK},
		{"check, violation", []string{"check", "register-buggy", "--harness", "2r1w", "--quiet", "--html", page}, exitViolation},
		{"check, violation and --out", []string{"check", "register-buggy", "--harness", "2r1w", "--quiet", "--out", filepath.Join(dir, "w.json"), "--html", page}, exitViolation},
		{"replay", []string{"replay", v, "--html", page}, exitViolation},
		{"lincheck", []string{"lincheck", "--spec", "register", "--html", page, in}, exitViolation},
	} {
		code, stdout, stderr := runRavel(c.args...)
		if code != c.code {
			t.Fatalf("%s: exit %d, want %d: %s", c.name, code, c.code, stderr)
		}
		if !strings.Contains(stdout, saved+"\n") {
			t.Errorf("%s: no line %q:\n%s", c.name, saved, stdout)
		}
		if strings.Contains(stderr, page) {
			t.Errorf("%s: the page is named on standard error:\n%s", c.name, stderr)
		}
		if !strings.Contains(readTestFile(t, page), "<html") {
			t.Errorf("%s: no page in %s", c.name, page)
		}
	}
	// Under --json standard output is JSON alone.
	for _, args := range [][]string{
		{"check", "register-buggy", "--harness", "2r1w", "--quiet", "--json", "--html", page},
		{"lincheck", "--spec", "register", "--json", "--html", page, in},
	} {
		_, stdout, _ := runRavel(args...)
		var any any
		if err := json.Unmarshal([]byte(stdout), &any); err != nil || strings.Contains(stdout, "HTML page") {
			t.Errorf("%s --json: stdout is not JSON alone (%v):\n%s", args[0], err, stdout)
		}
	}
	// A descriptor is "written to", as check --out says of it.
	if st, err := os.Stat("/dev/fd"); err != nil || !st.IsDir() {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "sink"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := "/dev/fd/" + strconv.Itoa(int(f.Fd()))
	_, stdout, _ := runRavel("check", "register", "--harness", "2r1w", "--quiet", "--html", name)
	if !strings.Contains(stdout, "HTML page written to "+name+"\n") {
		t.Errorf("--html %s: no line saying it was written there:\n%s", name, stdout)
	}
}
