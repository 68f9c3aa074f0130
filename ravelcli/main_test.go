package ravelcli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run is cmd/ravel's command line, in this process: Run over the built-in catalog.
func run(args []string, stdout, stderr io.Writer) int {
	return Run(args, stdout, stderr, Builtins())
}

func runRavel(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestBadUsage: bad usage exits 2 with a one-line reason that lists the valid names.
func TestBadUsage(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, []byte("a file, not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"no command", nil, []string{"Usage"}},
		{"unknown command", []string{"frobnicate"}, []string{`unknown command "frobnicate"`, "check"}},
		{"unknown system", []string{"check", "regster"}, []string{`unknown system "regster"`, "register-buggy"}},
		{"no system", []string{"check"}, []string{"exactly one system", "register"}},
		{"unknown harness", []string{"check", "register", "--harness", "9r9w"}, []string{`unknown harness "9r9w"`, "2r1w, 2r2w"}},
		{"unknown strategy", []string{"check", "register", "--strategy", "psychic"}, []string{`unknown strategy "psychic"`, "exhaustive"}},
		{"bad flag value", []string{"check", "register", "--max-schedules", "many"}, []string{"invalid value"}},
		{"negative budget", []string{"check", "register", "--max-depth", "-3"}, []string{"--max-depth"}},
		{"bad agents", []string{"check", "register", "--agents", "-1"}, []string{"--agents"}},
		{"unknown flag", []string{"check", "register", "--colour"}, []string{"not defined", "-colour"}},
		{"bad visited-mem", []string{"check", "gossip", "--visited-mem", "12XB"}, []string{"--visited-mem", "KiB"}},
		{"bad state-caching", []string{"check", "gossip", "--state-caching", "maybe"}, []string{"--state-caching", "on or off"}},
		{"caching with transdpor", []string{"check", "register", "--strategy", "transdpor", "--state-caching", "on"}, []string{"not sound", "exhaustive"}},
		{"visited-dir under a file", []string{"check", "gossip", "--state-caching", "on", "--visited-mem", "4KiB", "--visited-dir", filepath.Join(notDir, "sub")}, []string{"visited", notDir}},
		{"replay of a missing file", []string{"replay", filepath.Join(t.TempDir(), "nope.json")}, []string{"no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runRavel(tt.args...)
			if code != exitUsage {
				t.Errorf("exit = %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr does not mention %q:\n%s", w, stderr)
				}
			}
			if tt.args != nil && strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("reason takes more than one line:\n%s", stderr)
			}
		})
	}
}

// TestCheckCorrectRegister: the correct register's 2r1w space is explored completely
// and holds no violation.
func TestCheckCorrectRegister(t *testing.T) {
	code, stdout, stderr := runRavel("check", "register", "--harness", "2r1w", "--max-schedules", "0", "--json")
	if code != exitOK {
		t.Fatalf("exit = %d, want 0; stderr:\n%s", code, stderr)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	for _, f := range []string{"system", "harness", "strategy", "agents", "seed", "complete", "schedules", "steps", "cut_schedules",
		"histories_incomplete", "histories_unique", "histories_canonical", "nonlinearizable", "explore_seconds", "check_seconds",
		"total_seconds", "first_violation"} {
		if _, ok := r[f]; !ok {
			t.Errorf("JSON has no field %q", f)
		}
	}
	if r["complete"] != true || r["nonlinearizable"] != float64(0) || r["first_violation"] != nil {
		t.Errorf("complete = %v, nonlinearizable = %v, first_violation = %v; want true, 0, null", r["complete"], r["nonlinearizable"], r["first_violation"])
	}
	if r["schedules"] != float64(4200) {
		t.Errorf("schedules = %v, want 4200 = 10!/(3!·4!·3!)", r["schedules"])
	}
}

// TestCheckBuggyRegisterAndReplay: the erroneous register's violation is printed with
// its history and schedule, saved, and replayed to the same history.
func TestCheckBuggyRegisterAndReplay(t *testing.T) {
	out := filepath.Join(t.TempDir(), "f.json")
	code, stdout, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--out", out)
	if code != exitViolation {
		t.Fatalf("exit = %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, w := range []string{"VIOLATION", "not linearizable", "c0  Write(1)", "├", "→ n0  Request{c0.0 Write(1)}", "ravel replay " + out} {
		if !strings.Contains(stdout, w) {
			t.Errorf("check output lacks %q:\n%s", w, stdout)
		}
	}
	code, replayed, stderr := runRavel("replay", out)
	if code != exitViolation {
		t.Fatalf("replay exit = %d, want 1; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(replayed, "the replay gives the same history") {
		t.Errorf("replay does not confirm the history:\n%s", replayed)
	}
	history := func(s string) string {
		i := strings.Index(s, "\nhistory (")
		j := strings.Index(s, "\nschedule (deliveries")
		return s[i:j]
	}
	if history(stdout) != history(replayed) {
		t.Errorf("replay prints another history:\n%s\nvs\n%s", history(stdout), history(replayed))
	}
}

// TestDeterministicJSON: two runs give the same JSON but for times and memory.
func TestDeterministicJSON(t *testing.T) {
	strip := func(s string) map[string]any {
		var r map[string]any
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		for k := range r {
			if strings.HasSuffix(k, "_seconds") || k == "schedules_per_second" || k == "memory" {
				delete(r, k)
			}
		}
		return r
	}
	for _, sys := range []string{"register", "register-buggy"} {
		_, a, _ := runRavel("check", sys, "--harness", "2r2w", "--max-schedules", "3000", "--json")
		_, b, _ := runRavel("check", sys, "--harness", "2r2w", "--max-schedules", "3000", "--json")
		ja, _ := json.Marshal(strip(a))
		jb, _ := json.Marshal(strip(b))
		if !bytes.Equal(ja, jb) {
			t.Errorf("%s: two runs differ:\n%s\n%s", sys, ja, jb)
		}
	}
}

func TestList(t *testing.T) {
	code, stdout, _ := runRavel("list")
	if code != exitOK {
		t.Fatalf("exit = %d", code)
	}
	for _, w := range []string{"register ", "register-buggy", "2r1w,2r2w,1r1w", "exhaustive"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("list lacks %q:\n%s", w, stdout)
		}
	}
}

// TestEveryStrategyFindsTheErroneousRegister: with its defaults, every strategy finds
// the erroneous register's violation on 2r1w.
func TestEveryStrategyFindsTheErroneousRegister(t *testing.T) {
	for _, s := range []string{"exhaustive", "random", "delay-bounded", "dpor", "transdpor", "ired", "liviola"} {
		t.Run(s, func(t *testing.T) {
			code, stdout, stderr := runRavel("check", "register-buggy", "--harness", "2r1w", "--strategy", s, "--quiet")
			if code != exitViolation {
				t.Errorf("exit = %d, want 1\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// TestHistoriesFilesCompare: exhaustive search and DPOR, with state caching and
// without, write byte-identical --histories files, so runs compare with cmp.
func TestHistoriesFilesCompare(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, s := range []string{"exhaustive", "dpor"} {
		for _, caching := range [][]string{{"off"}, {"on"}, {"on", "--canonical-states"}} {
			f := filepath.Join(dir, s+"-"+strings.Join(caching, "")+".jsonl")
			args := append([]string{"check", "register-buggy", "--harness", "2r1w", "--strategy", s, "--quiet", "--histories", f, "--state-caching"}, caching...)
			if code, _, stderr := runRavel(args...); code != exitViolation {
				t.Fatalf("%s, caching %v: exit %d: %s", s, caching, code, stderr)
			}
			files = append(files, f)
		}
	}
	a, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files[1:] {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s and %s differ:\n%s\n%s", files[0], f, a, b)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(a)), "\n")
	if len(lines) != 32 {
		t.Errorf("%d canonical histories, want 32", len(lines))
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first["verdict"] == nil || first["ops"] == nil {
		t.Errorf("line is not a canonical history with a verdict: %s (%v)", lines[0], err)
	}
}

// TestCheckCanonicalStates: --canonical-states merges states whose histories differ only
// in order (chord-fixed 2r1w: 705 states, 347 with it), keeps the canonical histories
// (their --histories files compare equal), and says so in both reports.
func TestCheckCanonicalStates(t *testing.T) {
	for _, strategy := range []string{"exhaustive", "dpor"} {
		t.Run(strategy, func(t *testing.T) {
			type stats struct {
				Canonical bool  `json:"canonical_states"`
				States    int64 `json:"states"`
				Histories int64 `json:"histories_canonical"`
			}
			dir := t.TempDir()
			get := func(name string, more ...string) (stats, string) {
				t.Helper()
				f := filepath.Join(dir, name)
				args := append([]string{"check", "chord-fixed", "--harness", "2r1w", "--strategy", strategy, "--state-caching", "on", "--max-schedules", "0", "--quiet", "--histories", f}, more...)
				code, stdout, stderr := runRavel(append(args, "--json")...)
				if code != exitOK {
					t.Fatalf("exit = %d, want 0; stderr:\n%s", code, stderr)
				}
				var s stats
				if err := json.Unmarshal([]byte(stdout), &s); err != nil {
					t.Fatalf("%v in:\n%s", err, stdout)
				}
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				return s, string(b)
			}
			chrono, chronoFile := get("chrono.jsonl")
			canon, canonFile := get("canon.jsonl", "--canonical-states")
			if chrono.Canonical || !canon.Canonical {
				t.Errorf("canonical_states %v without the flag, %v with it", chrono.Canonical, canon.Canonical)
			}
			if canon.States >= chrono.States || canon.Histories != chrono.Histories {
				t.Errorf("with the flag %d states, %d canonical histories; without %d, %d", canon.States, canon.Histories, chrono.States, chrono.Histories)
			}
			if canonFile != chronoFile {
				t.Errorf("the --histories files differ")
			}
			_, text, _ := runRavel("check", "chord-fixed", "--harness", "2r1w", "--strategy", strategy, "--state-caching", "on", "--canonical-states", "--quiet")
			if want := "states (unique, by canonical history)"; !strings.Contains(text, want) {
				t.Errorf("text report lacks %q:\n%s", want, text)
			}
		})
	}
}

// TestCheckVisitedStats: with state caching and a tiny memory budget the run spills to
// disk, reports the visited set's figures in JSON, and counts what the in-memory run counts.
func TestCheckVisitedStats(t *testing.T) {
	type stats struct {
		Complete       bool    `json:"complete"`
		StateCaching   bool    `json:"state_caching"`
		States         int64   `json:"states"`
		Revisits       int64   `json:"revisits"`
		Spilled        int64   `json:"visited_spilled"`
		DiskReads      *int64  `json:"disk_reads"`
		CollisionProb  float64 `json:"collision_probability"`
		Schedules      int64   `json:"schedules"`
		HistoriesCanon int64   `json:"histories_canonical"`
	}
	get := func(args ...string) stats {
		t.Helper()
		code, stdout, stderr := runRavel(append([]string{"check", "gossip", "--agents", "3", "--state-caching", "on", "--max-schedules", "0", "--json", "--quiet"}, args...)...)
		if code != exitOK {
			t.Fatalf("exit = %d, want 0; stderr:\n%s", code, stderr)
		}
		var s stats
		if err := json.Unmarshal([]byte(stdout), &s); err != nil {
			t.Fatalf("%v in:\n%s", err, stdout)
		}
		return s
	}
	mem := get()
	disk := get("--visited-mem", "4KiB", "--visited-dir", t.TempDir())
	if !mem.Complete || !mem.StateCaching || mem.States == 0 || mem.Revisits == 0 || mem.Spilled != 0 {
		t.Errorf("in memory: %+v", mem)
	}
	if disk.Spilled == 0 || disk.DiskReads == nil {
		t.Errorf("4 KiB budget did not spill: %+v", disk)
	}
	if mem.States != disk.States || mem.Revisits != disk.Revisits || mem.Schedules != disk.Schedules || mem.HistoriesCanon != disk.HistoriesCanon {
		t.Errorf("in memory %+v; spilled %+v", mem, disk)
	}
	if mem.CollisionProb <= 0 || mem.CollisionProb > 1e-6 {
		t.Errorf("collision probability %g, want a small positive estimate", mem.CollisionProb)
	}
}

// TestCheckStateBudget: --max-states stops a search with caching at that many distinct
// states, for exhaustive search and stateful DPOR, says so, and records the budget.
func TestCheckStateBudget(t *testing.T) {
	for _, strategy := range []string{"exhaustive", "dpor"} {
		t.Run(strategy, func(t *testing.T) {
			args := []string{"check", "abd", "--harness", "1w1r", "--strategy", strategy, "--state-caching", "on", "--max-schedules", "0", "--max-states", "500", "--quiet"}
			code, stdout, stderr := runRavel(append(args, "--json")...)
			if code != exitOK {
				t.Fatalf("exit = %d, want 0; stderr:\n%s", code, stderr)
			}
			var got struct {
				Complete  bool  `json:"complete"`
				States    int64 `json:"states"`
				MaxStates int64 `json:"max_states"`
			}
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("%v in:\n%s", err, stdout)
			}
			if got.Complete || got.States != 500 || got.MaxStates != 500 {
				t.Errorf("complete %v, states %d, max_states %d; want false, 500, 500", got.Complete, got.States, got.MaxStates)
			}
			_, text, _ := runRavel(args...)
			if want := "search: incomplete — stopped at the state budget (--max-states 500)"; !strings.Contains(text, want) {
				t.Errorf("text report lacks %q:\n%s", want, text)
			}
		})
	}
}

// TestCheckHintsAtTheCompleteSearch: a search without state caching that stops at a
// budget names the search that completes (one that only the depth budget cut names the
// depth first), and that search, run as the hint says, completes; exhaustive search with caching that stops short names stateful DPOR; a
// complete search, a sampler and stateful DPOR at a budget print no hint.
func TestCheckHintsAtTheCompleteSearch(t *testing.T) {
	const (
		complete = "hint: --strategy dpor --state-caching on --max-schedules 0"
		fewer    = "hint: --strategy dpor (stateful DPOR, with the same --state-caching on)"
		depth    = "hint: the depth budget (--max-depth 12) cut the search: raise it until nothing is cut; if the protocol's paths loop, --state-caching on --max-schedules 0"
	)
	for _, c := range []struct {
		name     string
		args     []string
		hint     string
		complete bool
	}{
		{"exhaustive at the schedule budget", []string{"--max-schedules", "200"}, complete, false},
		{"dpor cut at the depth budget", []string{"--strategy", "dpor", "--max-depth", "12", "--max-schedules", "0"}, depth, false},
		{"random walk", []string{"--strategy", "random", "--max-schedules", "200"}, "", false},
		{"as the hint says", []string{"--strategy", "dpor", "--state-caching", "on", "--max-schedules", "0"}, "", true},
		{"exhaustive with caching at the state budget", []string{"--state-caching", "on", "--max-states", "100"}, fewer, false},
		{"exhaustive with caching at the schedule budget", []string{"--state-caching", "on", "--max-schedules", "2"}, fewer, false},
		{"exhaustive with canonical states at the state budget", []string{"--state-caching", "on", "--canonical-states", "--max-states", "100"}, fewer, false},
		{"exhaustive with caching, complete", []string{"--state-caching", "on", "--max-schedules", "0"}, "", true},
		{"dpor with caching at the state budget", []string{"--strategy", "dpor", "--state-caching", "on", "--max-states", "100"}, "", false},
		{"delay-bounded with caching at the state budget", []string{"--strategy", "delay-bounded", "--state-caching", "on", "--max-states", "100"}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, text, stderr := runRavel(append([]string{"check", "leader", "--harness", "1rw", "--quiet"}, c.args...)...)
			if code != exitOK {
				t.Fatalf("exit = %d, want 0; stderr:\n%s", code, stderr)
			}
			for _, h := range []string{complete, fewer, depth} {
				if got := strings.Contains(text, h); got != (h == c.hint) {
					t.Errorf("%q printed: %v, want %v:\n%s", h, got, h == c.hint, text)
				}
			}
			if got := strings.Contains(text, "search: complete"); got != c.complete {
				t.Errorf("complete: %v, want %v:\n%s", got, c.complete, text)
			}
		})
	}
}

// TestBenchMatrix: bench runs every requested strategy on every requested configuration,
// with the stateless re-run, and its figures are check's.
func TestBenchMatrix(t *testing.T) {
	code, stdout, stderr := runRavel("bench", "--systems", "register-buggy,chord", "--harness", "2r1w", "--strategies", "exhaustive,dpor", "--json", "--quiet")
	if code != exitOK {
		t.Fatalf("exit = %d, want 0; stderr:\n%s", code, stderr)
	}
	var runs []struct {
		System          string   `json:"system"`
		Strategy        string   `json:"strategy"`
		Schedules       int64    `json:"schedules"`
		Nonlinearizable int64    `json:"nonlinearizable"`
		Complete        bool     `json:"complete"`
		StatelessSecs   *float64 `json:"stateless_seconds"`
	}
	if err := json.Unmarshal([]byte(stdout), &runs); err != nil {
		t.Fatalf("%v in:\n%s", err, stdout)
	}
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 4 (2 systems × 2 strategies)", len(runs))
	}
	for _, r := range runs {
		if !r.Complete || r.Nonlinearizable == 0 || r.StatelessSecs == nil {
			t.Errorf("%s/%s: complete %v, %d violations, stateless seconds %v; want complete, some violations, a stateless time", r.System, r.Strategy, r.Complete, r.Nonlinearizable, r.StatelessSecs)
		}
		_, checkOut, _ := runRavel("check", r.System, "--harness", "2r1w", "--strategy", r.Strategy, "--json", "--quiet")
		var c struct {
			Schedules       int64 `json:"schedules"`
			Nonlinearizable int64 `json:"nonlinearizable"`
		}
		if err := json.Unmarshal([]byte(checkOut), &c); err != nil {
			t.Fatal(err)
		}
		if c.Schedules != r.Schedules || c.Nonlinearizable != r.Nonlinearizable {
			t.Errorf("%s/%s: bench %d schedules, %d violations; check %d, %d", r.System, r.Strategy, r.Schedules, r.Nonlinearizable, c.Schedules, c.Nonlinearizable)
		}
	}
}
