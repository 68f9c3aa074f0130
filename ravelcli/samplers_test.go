package ravelcli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSamplersFindTheErroneousRegister is the done-when: every sampler finds the
// erroneous register's violation in 2,000 schedules, its JSON holds the hit rate, and the
// chain samplers' bound, which the hit rate meets.
func TestSamplersFindTheErroneousRegister(t *testing.T) {
	for _, s := range []string{"random", "rapos", "pos", "pctcp", "pct", "tapct", "dpos"} {
		t.Run(s, func(t *testing.T) {
			code, stdout, stderr := runRavel("check", "register-buggy", "--strategy", s, "--max-schedules", "2000", "--json", "--quiet")
			if code != exitViolation {
				t.Fatalf("exit = %d, want 1\n%s", code, stderr)
			}
			var r struct {
				Sampling *struct {
					Sampler string   `json:"sampler"`
					Runs    int64    `json:"runs"`
					Hits    int64    `json:"hits"`
					HitRate *float64 `json:"hit_rate"`
					Bound   *struct {
						P float64 `json:"p"`
					} `json:"bound"`
				} `json:"sampling"`
			}
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatal(err)
			}
			sm := r.Sampling
			if sm == nil || sm.HitRate == nil || sm.Runs != 2000 || sm.Hits == 0 {
				t.Fatalf("sampling statistics missing or empty: %s", stdout)
			}
			hasBound := s == "pctcp" || s == "pct" || s == "tapct" || s == "dpos"
			if hasBound != (sm.Bound != nil) {
				t.Fatalf("bound = %+v; want one: %v", sm.Bound, hasBound)
			}
			if sm.Bound != nil && (sm.Bound.P <= 0 || *sm.HitRate < sm.Bound.P) {
				t.Errorf("hit rate %v, bound %v", *sm.HitRate, sm.Bound.P)
			}
		})
	}
}

// TestSamplerRunReplays: the first hitting run, given alone with --run, hits again.
func TestSamplerRunReplays(t *testing.T) {
	code, stdout, _ := runRavel("check", "register-buggy", "--strategy", "tapct", "--max-schedules", "200", "--seed", "4", "--json", "--quiet")
	var r struct {
		Sampling struct {
			FirstHitRun int64 `json:"first_hit_run"`
		} `json:"sampling"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != exitViolation {
		t.Fatalf("exit %d, %v", code, err)
	}
	run := r.Sampling.FirstHitRun
	code, stdout, _ = runRavel("check", "register-buggy", "--strategy", "tapct", "--max-schedules", "1", "--seed", "4", "--run", itoa(run), "--quiet")
	if code != exitViolation || !strings.Contains(stdout, "1 of 1") {
		t.Errorf("run %d alone: exit %d\n%s", run, code, stdout)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestSamplerBadFlags: bad sampler flags are usage errors (exit 2) with a reason.
func TestSamplerBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // in the reason; "" for any
	}{
		{[]string{"--strategy", "pctcp", "--depth", "0"}, "--depth"},
		{[]string{"--strategy", "pctcp", "--events", "x"}, "--events"},
		{[]string{"--strategy", "tapct", "--racy-events", "-3"}, "--racy-events"},
		{[]string{"--strategy", "tapct", "--racy", "maybe"}, "--racy"},
		// Named by its own flag, not as the fault budget --partition.
		{[]string{"--strategy", "pctcp", "--chain-partition", "nope"}, `--chain-partition: unknown chain partition "nope" (valid: ag, ag-paper, singleton)`},
		{[]string{"--strategy", "pos", "--dependence", "nope"}, ""},
		{[]string{"--strategy", "rapos", "--max-schedules", "0"}, ""},
		{[]string{"--strategy", "dpos", "--calibration", "0"}, "--calibration"},
		{[]string{"--strategy", "dpos", "--run", "-1"}, "--run"},
		{[]string{"--strategy", "tapct", "--racy", "declared"}, ""}, // register-buggy declares none
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, stderr := runRavel(append([]string{"check", "register-buggy", "--quiet"}, c.args...)...)
			if code != exitUsage || strings.Contains(stderr, "goroutine") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line", code, stderr, exitUsage)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q does not say %q", stderr, c.want)
			}
		})
	}
}

// TestBenchSamplers: the micro-benchmark table has a row per point and a cell per
// sampler, and a bad figure is a usage error.
func TestBenchSamplers(t *testing.T) {
	code, stdout, stderr := runRavel("bench", "samplers", "--figure", "6", "--tests", "40", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []samplerRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(figure6) {
		t.Fatalf("%d rows, want %d", len(rows), len(figure6))
	}
	for _, r := range rows {
		if len(r.Cells) != len(benchSamplerOrder) {
			t.Errorf("%+v: %d cells", r, len(r.Cells))
		}
		for _, c := range r.Cells {
			if c.Hits < 0 || c.Hits > 40 {
				t.Errorf("%+v: %d hits of 40", r, c.Hits)
			}
		}
	}
	if code, _, _ := runRavel("bench", "samplers", "--figure", "7"); code != exitUsage {
		t.Errorf("--figure 7: exit %d, want 2", code)
	}
}

// TestSamplersScheduleFaults: fault events are events the samplers schedule like
// deliveries: taPCT finds register-volatile's lost write, which needs a crash.
func TestSamplersScheduleFaults(t *testing.T) {
	code, stdout, stderr := runRavel("check", "register-volatile", "--crash", "1", "--strategy", "tapct", "--max-schedules", "2000", "--quiet")
	if code != exitViolation {
		t.Errorf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
}
