package ravelcli

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ravelmc/ravel/depbench"
	"github.com/ravelmc/ravel/explorer"
)

// TestUnknownStrategyListsSamplers: a --strategy check does not know is refused with a
// list that holds the samplers too, and a name that differs only in case is named.
func TestUnknownStrategyListsSamplers(t *testing.T) {
	code, _, stderr := runRavel("check", "register-buggy", "--strategy", "PCT")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
	for _, want := range []string{`unknown strategy "PCT"`, "exhaustive", "liviola", "rapos", "pos", "pctcp", "tapct", "dpos", "did you mean pct?"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no %q in %q", want, stderr)
		}
	}
	if _, _, stderr := runRavel("check", "register-buggy", "--strategy", "pos2"); strings.Contains(stderr, "did you mean") {
		t.Errorf("pos2 is no strategy in another case: %q", stderr)
	}
}

// TestSamplerDependenceMarks: a relation of the DPOR strategies given to a sampler is
// refused as one the samplers do not take, not as an unknown relation.
func TestSamplerDependenceMarks(t *testing.T) {
	var errb strings.Builder
	code := Run([]string{"check", "register-buggy", "--strategy", "tapct", "--dependence", "marks", "--max-schedules", "5"}, io.Discard, &errb,
		Builtins(), Dependence(depbench.MarksName, depbench.MarksDoc, depbench.NewShippedMarks))
	stderr := errb.String()
	if code != exitUsage || strings.Contains(stderr, "unknown") || !strings.Contains(stderr, "the tapct strategy does not take --dependence marks") ||
		!strings.Contains(stderr, "actor, history and key") {
		t.Errorf("exit %d: %q", code, stderr)
	}
}

// samplingJSON runs check with args and --json and returns its sampling block.
func samplingJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	_, stdout, stderr := runRavel(append(append([]string{"check", "register-buggy"}, args...), "--json", "--quiet")...)
	var r struct {
		Sampling map[string]any `json:"sampling"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || r.Sampling == nil {
		t.Fatalf("%v: %v\n%s%s", args, err, stdout, stderr)
	}
	return r.Sampling
}

// TestSamplerBoundUndefined: with more change points than labels the bound is undefined,
// not 0: the report says so and why, JSON has no p but the reason, and with n given the
// depth is refused.
func TestSamplerBoundUndefined(t *testing.T) {
	_, stdout, _ := runRavel("check", "register-buggy", "--strategy", "pctcp", "--depth", "100", "--max-schedules", "20", "--quiet")
	if !strings.Contains(stdout, "undefined: d−1 = 99 change points cannot be placed among n = 7 labels") || strings.Contains(stdout, "hit rate ≥ bound") {
		t.Errorf("text report:\n%s", stdout)
	}
	b, _ := samplingJSON(t, "--strategy", "pctcp", "--depth", "100", "--max-schedules", "20")["bound"].(map[string]any)
	if _, ok := b["p"]; ok || b["undefined"] == nil {
		t.Errorf("JSON bound %v: want no p and the reason it is undefined", b)
	}
	for _, args := range [][]string{{"--strategy", "pctcp", "--events", "5", "--depth", "7"}, {"--strategy", "tapct", "--racy-events", "2", "--depth", "4"}} {
		code, _, stderr := runRavel(append(append([]string{"check", "register-buggy"}, args...), "--max-schedules", "5")...)
		if code != exitUsage || !strings.Contains(stderr, "give --depth at most") {
			t.Errorf("%v: exit %d: %q", args, code, stderr)
		}
	}
}

// TestSamplerBeyondNVerdict: when runs had more events than the n (n̂) given, the verdict
// says the bound's premise fails, not that the bug is deeper than d.
func TestSamplerBeyondNVerdict(t *testing.T) {
	for _, args := range [][]string{{"--strategy", "pctcp", "--events", "3"}, {"--strategy", "tapct", "--racy-events", "2"}} {
		_, stdout, _ := runRavel(append(append([]string{"check", "register-buggy"}, args...), "--max-schedules", "50", "--quiet")...)
		if strings.Contains(stdout, "covers a bug of depth d only") || !strings.Contains(stdout, "the bound does not hold here") || !strings.Contains(stdout, "in 50 of 50 runs") {
			t.Errorf("%v:\n%s", args, stdout)
		}
	}
}

// TestSamplerRacyUnknown: with --events given no calibration runs, so n̂ and the racy
// set are unknown: the report and JSON leave them out instead of showing 0.
func TestSamplerRacyUnknown(t *testing.T) {
	_, stdout, _ := runRavel("check", "register-buggy", "--strategy", "pctcp", "--events", "100", "--max-schedules", "20", "--quiet")
	for _, want := range []string{"3, 100, – (partition ag)", "observed n, n̂                                      7, – (R unknown", "non-racy events per run; unknown events            –; 0"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	s := samplingJSON(t, "--strategy", "pctcp", "--events", "100", "--max-schedules", "20")
	for _, k := range []string{"n_hat", "observed_n_hat", "non_racy_per_run"} {
		if v, ok := s[k]; ok {
			t.Errorf("JSON %s = %v, want it absent", k, v)
		}
	}
	if s := samplingJSON(t, "--strategy", "pctcp", "--max-schedules", "20"); s["observed_n_hat"] == nil || s["non_racy_per_run"] == nil {
		t.Errorf("calibrated, JSON lacks n̂ or non-racy: %v", s)
	}
}

// TestCalibrationProgressLine: during calibration the progress line says so.
func TestCalibrationProgressLine(t *testing.T) {
	got := progressLine("ravel", explorer.Stats{Calibrating: 267704, CalibrationRuns: 100000000, Total: 5 * time.Second}, explorer.Stats{}, false, -1)
	if want := "ravel: calibrating the sampler: 267,704 of 100,000,000 calibration runs done (not counted as schedules), 5s"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestSamplerNoRun: a session interrupted during calibration made no run, and its block
// says so instead of runs 0…−1 and a bound of 0.
func TestSamplerNoRun(t *testing.T) {
	var b strings.Builder
	printSampling(&b, &explorer.SamplingStats{Sampler: "tapct", FirstHitRun: -1})
	if s := b.String(); !strings.Contains(s, "runs none") || !strings.Contains(s, "no run was made") || strings.Contains(s, "bound") {
		t.Errorf("got\n%s", s)
	}
}
