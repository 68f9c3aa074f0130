package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ravelmc/ravel/systems"
)

// The test binary stands in for ravel when STATEFULTABLE_FAKE names a behaviour: it
// prints a report by the strategy and caching it is asked for.
func TestMain(m *testing.M) {
	if mode := os.Getenv("STATEFULTABLE_FAKE"); mode != "" {
		os.Exit(fakeRavel(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeRavel(mode string, args []string) int {
	if len(args) > 0 && args[0] == "list" {
		if mode == "nolist" {
			os.Stderr.WriteString("ravel: unknown command \"list\"\n")
			return 2
		}
		os.Stdout.WriteString("register  3 agents\n")
		return 0 // not counted: the counter counts the table's check runs
	}
	strategy, caching := "", ""
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--strategy":
			strategy = args[i+1]
		case "--state-caching":
			caching = args[i+1]
		}
	}
	// Every run appends a byte to a file the test names, which counts the runs.
	f := os.Getenv("STATEFULTABLE_COUNTER")
	b, _ := os.ReadFile(f)
	runs := len(b)
	os.WriteFile(f, append(b, 'x'), 0o644)
	r := checkReport{Complete: true, Canonical: 12, Violations: 2}
	switch {
	case strategy == "exhaustive":
		r.States, r.Schedules = 1000, 40
	case caching == "on":
		r.States, r.Schedules, r.Again = 400, 30, 7
		if mode == "fewer" {
			r.Canonical = 11
		}
		if mode == "drift" {
			r.States += int64(runs) // more each run
		}
	default: // stateless
		r.Schedules = 90
		if mode == "slow" {
			c := make(chan os.Signal, 1)
			signal.Notify(c, os.Interrupt)
			<-c
			r.Complete, r.Schedules = false, 123456
		}
	}
	json.NewEncoder(os.Stdout).Encode(r)
	if r.Violations > 0 {
		return 1 // as ravel does when it finds a violation
	}
	return 0
}

// runFake runs the command on the fake ravel in mode, with -small-n 1 unless args say
// otherwise (the fake's runs are all small).
func runFake(t *testing.T, mode string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("STATEFULTABLE_FAKE", mode)
	t.Setenv("STATEFULTABLE_COUNTER", filepath.Join(t.TempDir(), "runs"))
	var out, errb bytes.Buffer
	code := run(append([]string{"-ravel", os.Args[0], "-quiet", "-small-n", "1"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// TestSmallRunsGetMorePairs: a configuration whose warm-up ex+c run is below a tenth
// of a second of CPU is measured in -small-n pairs, the others in -n.
func TestSmallRunsGetMorePairs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		runs int
	}{
		{[]string{"-n", "1", "-small-n", "3"}, 1 + 2*(1+3)}, // stateless, then warm-up and pairs
		{[]string{"-n", "3", "-small-n", "1"}, 1 + 2*(1+1)},
		{[]string{"-n", "2", "-small-n", "2", "-stateless-limit", "0"}, 2 * (1 + 2)},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			if code, _, errs := runFake(t, "agree", append(tc.args, "-configs", "abd/1w1r")...); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			b, err := os.ReadFile(os.Getenv("STATEFULTABLE_COUNTER"))
			if err != nil {
				t.Fatal(err)
			}
			if got := len(b); got != tc.runs {
				t.Errorf("%d runs of ravel, want %d", got, tc.runs)
			}
		})
	}
}

func TestTableRows(t *testing.T) {
	for _, tc := range []struct {
		name, mode string
		args       []string
		code       int
		want       string // in the table's row
		problem    string // on standard error
	}{
		{"the searches agree", "agree", []string{"-n", "2", "-configs", "abd/1w1r"},
			0, "| abd | 1w1r | 1,000 | 40 | ", ""},
		{"states ratio, again and histories", "agree", []string{"-n", "1", "-configs", "abd/1w1r"},
			0, "| 400 | 7 | 30 | ", ""},
		{"stateless dpor complete", "agree", []string{"-n", "1", "-configs", "abd/1w1r"},
			0, "| 90 | ", ""},
		{"dpor+c misses a history", "fewer", []string{"-n", "1", "-configs", "abd/1w1r"},
			1, "**dpor+c: 11 canonical histories", "dpor+c: 11 canonical histories, 2 violations; ex+c: 12, 2"},
		{"counts change between runs", "drift", []string{"-small-n", "3", "-configs", "abd/1w1r", "-stateless-limit", "0"},
			1, "| — | — |", "counts differ from one run to the next"},
		{"stateless dpor interrupted", "slow", []string{"-n", "1", "-configs", "abd/1w1r", "-stateless-limit", "200ms"},
			0, "| > 123,456 | > 0.", ""},
		{"start-up in the header", "agree", []string{"-n", "1", "-configs", "abd/1w1r"},
			0, " ms of CPU (start-up, median of 5); ", ""},
		{"a ravel without list", "nolist", []string{"-n", "1", "-configs", "abd/1w1r"},
			2, "", "list: exit status 2: ravel: unknown command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runFake(t, tc.mode, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errs)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("table %q does not hold %q", out, tc.want)
			}
			if !strings.Contains(errs, tc.problem) {
				t.Errorf("stderr %q does not hold %q", errs, tc.problem)
			}
			if n := strings.Count(errs, tc.problem); tc.problem != "" && n != 1 {
				t.Errorf("stderr %q holds %q %d times, want once", errs, tc.problem, n)
			}
			if tc.problem == "" && errs != "" {
				t.Errorf("stderr %q, want nothing", errs)
			}
		})
	}
}

func TestRatiosAreOfStates(t *testing.T) {
	_, out, _ := runFake(t, "agree", "-n", "1", "-configs", "abd/1w1r")
	// 400 of 1,000 states; CH 12 with 2 violations.
	if !strings.Contains(out, "| 0.400 | ") || !strings.Contains(out, "| 12 (2) |") {
		t.Errorf("row %q: want a states ratio of 0.40 and 12 (2) canonical histories", out)
	}
	if got := strings.Count(out, "\n| abd |"); got != 1 {
		t.Errorf("%d rows for abd, want 1", got)
	}
}

func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-ravel", "x", "-n", "0"},         // no pairs
		{"-ravel", "x", "-small-n", "0"},   // no pairs for small runs
		{"-ravel", "x", "-configs", "abd"}, // no harness
		{"-ravel", "x", "extra"},           // an argument
		{"-ravel", "/nonexistent/ravel", "-configs", "abd/1w1r", "-stateless-limit", "0"}, // a binary that does not run
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(args, &out, &errb); code != 2 {
				t.Errorf("exit %d, want 2; stderr %q", code, errb.String())
			}
			if errb.Len() == 0 {
				t.Error("nothing on standard error")
			}
		})
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.xs); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

func TestSeconds(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{{0.034, "0.03 s"}, {12.34, "12.3 s"}, {182.4, "182 s"}, {time.Minute.Seconds(), "60.0 s"}} {
		if got := seconds(tc.s); got != tc.want {
			t.Errorf("seconds(%v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestBuildsRavel: without -ravel the command measures this module's ravel, which it
// builds; the binary it builds runs.
func TestBuildsRavel(t *testing.T) {
	if testing.Short() {
		t.Skip("links ravel; skipped with -short")
	}
	bin, err := buildRavel(t.TempDir(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "list").Output()
	if err != nil {
		t.Fatalf("%s list: %v", bin, err)
	}
	if !strings.Contains(string(out), "register-buggy") {
		t.Errorf("%s list printed %q, want the shipped systems", bin, out)
	}
}

// TestShippedConfigurations: the default configurations are every shipped system's
// harnesses but the ones too large, in the catalog's order, and -large adds its own; the
// names left out are shipped ones, so that a renamed harness cannot slip into the table.
func TestShippedConfigurations(t *testing.T) {
	all := map[string]bool{}
	for _, e := range systems.All() {
		for _, h := range e.Harnesses {
			all[e.Name+"/"+h] = true
		}
	}
	for _, c := range append(slices.Clone(large), tooLarge...) {
		if !all[c] {
			t.Errorf("%s is left out but is no shipped configuration", c)
		}
	}
	def, withLarge := shipped(false), shipped(true)
	if got, want := len(def), len(all)-len(large)-len(tooLarge); got != want {
		t.Errorf("%d default configurations, want %d", got, want)
	}
	if got, want := len(withLarge), len(def)+len(large); got != want {
		t.Errorf("%d configurations with -large, want %d", got, want)
	}
	for _, c := range withLarge {
		if slices.Contains(tooLarge, c) {
			t.Errorf("%s is in the table", c)
		}
	}
	if def[0] != "register/2r1w" {
		t.Errorf("first configuration %s, want register/2r1w (the catalog's first)", def[0])
	}
}

// TestCanonicalStatesOnlyWhenCached: -canonical-states adds the flag to the cached runs,
// which take it, and not to stateless dpor, which would refuse it.
func TestCanonicalStatesOnlyWhenCached(t *testing.T) {
	for _, canonical := range []bool{false, true} {
		m := &measurer{canonical: canonical}
		c := config{"register", "2r1w"}
		for _, tc := range []struct {
			strategy string
			caching  bool
		}{{"exhaustive", true}, {"dpor", true}, {"dpor", false}} {
			got := slices.Contains(m.args(c, tc.strategy, tc.caching), "--canonical-states")
			if want := canonical && tc.caching; got != want {
				t.Errorf("canonical %v, %s caching %v: --canonical-states given %v, want %v", canonical, tc.strategy, tc.caching, got, want)
			}
		}
	}
}
