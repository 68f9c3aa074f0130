package ravelcli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// lincheckJSON runs lincheck --json with args and decodes its results.
func lincheckJSON(t *testing.T, args ...string) (int, []lincheckResult) {
	t.Helper()
	code, stdout, stderr := runRavel(append([]string{"lincheck", "--json"}, args...)...)
	var results []lincheckResult
	if err := json.Unmarshal([]byte(stdout), &results); err != nil {
		t.Fatalf("lincheck %q: exit %d, stdout is not its JSON (%v):\n%s\nstderr:\n%s", args, code, err, stdout, stderr)
	}
	return code, results
}

// TestLincheckReadsCheckHistories: lincheck --format histories reads what
// check --histories writes and reaches the same verdict on every history, on systems
// with violations and without, of the register and of the key-value store — another way
// to each verdict. A verdict flipped by hand in the file is reported as a disagreement
// (exit 4), on its line and only there: lincheck judges the histories, it does not echo
// the file.
func TestLincheckReadsCheckHistories(t *testing.T) {
	tests := []struct {
		system, spec string
		bad          bool // some history is not linearizable
	}{
		{"register", "register", false},
		{"register-buggy", "register", true},
		{"adr-buggy", "register", true},
		{"chord", "kv", true},
		{"chord-fixed", "kv", false},
	}
	for _, tt := range tests {
		t.Run(tt.system, func(t *testing.T) {
			h, _, lines := checkHistoriesFile(t, tt.system)
			dir := filepath.Dir(h)
			want := exitOK
			if tt.bad {
				want = exitViolation
			}
			code, results := lincheckJSON(t, "--spec", tt.spec, "--format", "histories", h)
			if code != want {
				t.Errorf("lincheck: exit %d, want %d", code, want)
			}
			if len(results) != len(lines) {
				t.Fatalf("%d results for %d histories", len(results), len(lines))
			}
			flip, bad := 0, false // the first history found not linearizable, or else the first
			for i, r := range results {
				if r.Line != i+1 || r.Agrees == nil || !*r.Agrees || r.Verdict != r.Recorded {
					t.Errorf("line %d: %+v, want the verdict recorded", i+1, r)
				}
				if !bad && r.Verdict == "not-linearizable" {
					flip, bad = i, true
				}
			}
			if bad != tt.bad {
				t.Errorf("a history not linearizable found: %v, want %v", bad, tt.bad)
			}

			// One verdict flipped by hand.
			from, to := `"verdict":"linearizable"`, `"verdict":"not-linearizable"`
			if results[flip].Verdict == "not-linearizable" {
				from, to = to, from
			}
			lines[flip] = strings.Replace(lines[flip], from, to, 1)
			flipped := filepath.Join(dir, "flipped.jsonl")
			if err := os.WriteFile(flipped, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, results = lincheckJSON(t, "--spec", tt.spec, "--format", "histories", flipped)
			if code != exitDisagree {
				t.Errorf("flipped: exit %d, want %d", code, exitDisagree)
			}
			for i, r := range results {
				if agrees := r.Agrees != nil && *r.Agrees; agrees != (i != flip) {
					t.Errorf("flipped: line %d: %+v, want agreement %v", i+1, r, i != flip)
				}
			}
			code, stdout, _ := runRavel("lincheck", "--spec", tt.spec, "--format", "histories", flipped)
			if wantLine := "flipped.jsonl:" + strconv.Itoa(flip+1) + "  "; code != exitDisagree || !strings.Contains(stdout, "DISAGREES") || !strings.Contains(stdout, wantLine) {
				t.Errorf("flipped, text: exit %d, want %d and a line %q that DISAGREES:\n%s", code, exitDisagree, wantLine, stdout)
			}
		})
	}
}

// TestLincheckHistoriesFormatNamed: a check --histories file read in the ravel format
// (the default of --spec register) is refused with the --format to use.
func TestLincheckHistoriesFormatNamed(t *testing.T) {
	h := filepath.Join(t.TempDir(), "h.jsonl")
	line := `{"ops":[{"req":"c0.0","input":"Write(1)","output":"ok"}],"precedes":[],"verdict":"linearizable"}` + "\n"
	if err := os.WriteFile(h, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runRavel("lincheck", "--spec", "register", h)
	if code != exitUsage || !strings.Contains(stdout, "--format histories") {
		t.Errorf("exit %d, want %d and a hint to --format histories:\n%s", code, exitUsage, stdout)
	}
	code, stdout, _ = runRavel("lincheck", "--spec", "register", "--format", "histories", h)
	if code != exitOK || !strings.Contains(stdout, "as recorded") {
		t.Errorf("--format histories: exit %d, want 0 and the verdict as recorded:\n%s", code, stdout)
	}
}

// TestLincheckHistoriesNameTheirSpec: a file of check --histories names the specification
// of each history, so lincheck reads it with no --spec or --format and reaches every
// recorded verdict; read against another specification, it is refused, naming both; a
// file without the names (written before them) is still read with --spec.
func TestLincheckHistoriesNameTheirSpec(t *testing.T) {
	for _, tt := range []struct {
		system, spec string
		want         int
	}{
		{"register-buggy", "register", exitViolation},
		{"chord-fixed", "kv", exitOK},
	} {
		t.Run(tt.system, func(t *testing.T) {
			h, data, lines := checkHistoriesFile(t, tt.system)
			dir := filepath.Dir(h)
			for i, l := range lines {
				if !strings.HasPrefix(l, `{"spec":"`+tt.spec+`",`) {
					t.Fatalf("line %d does not name its spec %s: %s", i+1, tt.spec, l)
				}
			}
			code, results := lincheckJSON(t, h)
			if code != tt.want || len(results) != len(lines) {
				t.Fatalf("lincheck with no --spec: exit %d and %d results, want %d and %d", code, len(results), tt.want, len(lines))
			}
			for i, r := range results {
				if r.Agrees == nil || !*r.Agrees {
					t.Errorf("line %d: %+v, want the verdict recorded", i+1, r)
				}
			}
			other := "cas-register"
			code, stdout, _ := runRavel("lincheck", "--spec", other, "--format", "histories", h)
			if want := "checked against the " + tt.spec + " specification, not " + other; code != exitUsage || !strings.Contains(stdout, want) {
				t.Errorf("--spec %s: exit %d, want %d and %q:\n%s", other, code, exitUsage, want, stdout)
			}
			unnamed := filepath.Join(dir, "unnamed.jsonl")
			if err := os.WriteFile(unnamed, []byte(strings.ReplaceAll(string(data), `"spec":"`+tt.spec+`",`, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, _ := lincheckJSON(t, "--spec", tt.spec, "--format", "histories", unnamed); code != tt.want {
				t.Errorf("a file without the names, with --spec: exit %d, want %d", code, tt.want)
			}
		})
	}
}

// checkHistoriesFile runs ravel check SYSTEM --histories into a temporary directory and
// returns the file's path, its contents and its lines.
func checkHistoriesFile(t *testing.T, system string) (string, []byte, []string) {
	t.Helper()
	h := filepath.Join(t.TempDir(), "h.jsonl")
	if code, _, stderr := runRavel("check", system, "--quiet", "--histories", h); code != exitOK && code != exitViolation {
		t.Fatalf("check: exit %d; stderr:\n%s", code, stderr)
	}
	data, err := os.ReadFile(h)
	if err != nil {
		t.Fatal(err)
	}
	return h, data, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestLincheckHistoriesBadLine: a damaged line of a histories file is an error of that
// history alone, named by its line; the file's other histories are checked, and the
// summary counts every line. So is a truncated last line.
func TestLincheckHistoriesBadLine(t *testing.T) {
	h, _, lines := checkHistoriesFile(t, "register-buggy")
	dir := filepath.Dir(h)
	bad := slices.Clone(lines)
	bad[2] = regexp.MustCompile(`"verdict":"[a-z-]*"`).ReplaceAllString(bad[2], `"verdict":"maybe"`)
	bad[len(bad)-1] = bad[len(bad)-1][:len(bad[len(bad)-1])/2] // cut short, as by a crash
	damaged := filepath.Join(dir, "damaged.jsonl")
	if err := os.WriteFile(damaged, []byte(strings.Join(bad, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, results := lincheckJSON(t, damaged)
	if code != exitViolation || len(results) != len(lines) {
		t.Fatalf("exit %d and %d results, want %d and %d: %+v", code, len(results), exitViolation, len(lines), results)
	}
	for i, r := range results {
		wantErr := i == 2 || i == len(lines)-1
		if r.Line != i+1 || (r.Verdict == "error") != wantErr || !wantErr && (r.Agrees == nil || !*r.Agrees) {
			t.Errorf("line %d: %+v, want an error: %v", i+1, r, wantErr)
		}
	}
	_, stdout, _ := runRavel("lincheck", damaged)
	for _, want := range []string{
		"damaged.jsonl:3  error: expected \"verdict\" to be one of",
		"damaged.jsonl:" + strconv.Itoa(len(lines)) + "  error: ",
		strconv.Itoa(len(lines)) + " histories: ", ", 2 errors;",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestLincheckHistoriesOfTwoSpecs: files of check --histories of different
// specifications in one run: the second's histories are refused, saying to check them
// in a run of their own with the spec they name (not to change the run's spec, which
// would refuse the first file); a mixed file's histories of the run's spec are checked.
// With --spec kv alone, a file of check --histories is read as one.
func TestLincheckHistoriesOfTwoSpecs(t *testing.T) {
	rb, _, rlines := checkHistoriesFile(t, "register-buggy")
	pb, _, klines := checkHistoriesFile(t, "chord-fixed")
	code, stdout, _ := runRavel("lincheck", rb, pb)
	if code != exitViolation || !strings.Contains(stdout, "check the kv histories in a run of their own, with --spec kv") ||
		!strings.Contains(stdout, "not register, the one this run checks against") {
		t.Errorf("two files: exit %d:\n%s", code, stdout)
	}
	mixed := filepath.Join(t.TempDir(), "mixed.jsonl")
	if err := os.WriteFile(mixed, []byte(strings.Join(append(slices.Clone(rlines), klines...), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, results := lincheckJSON(t, mixed)
	if len(results) != len(rlines)+len(klines) {
		t.Fatalf("mixed: %d results for %d lines", len(results), len(rlines)+len(klines))
	}
	for i, r := range results {
		if (r.Verdict == "error") != (i >= len(rlines)) {
			t.Errorf("mixed: line %d: %+v", i+1, r)
		}
	}
	if code, results := lincheckJSON(t, "--spec", "kv", pb); code != exitOK || len(results) != len(klines) {
		t.Errorf("--spec kv alone: exit %d, %d results, want 0 and %d", code, len(results), len(klines))
	}
}
