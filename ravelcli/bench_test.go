package ravelcli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/report"
)

// TestBenchTitleFromTheFlag: the title names --max-schedules, not the budget of the first
// run, which for random is raised to 50,000 when the flag is 0 (bench probe R7); with
// no cutoff and no cut run there is no footnote about the cutoff (R8).
func TestBenchTitleFromTheFlag(t *testing.T) {
	code, stdout, stderr := runRavel("bench", "--systems", "register", "--harness", "1r1w", "--strategies", "random,exhaustive,dpor", "--max-schedules", "0", "--st=false", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "register, harness 1r1w, 2 agents, no cutoff (random: 50,000 schedules)") {
		t.Errorf("the title does not say no cutoff, random's budget apart:\n%s", stdout)
	}
	if !strings.Contains(stdout, "* stopped at the cutoff") {
		t.Errorf("random's 50,000* without its footnote:\n%s", stdout)
	}
	code, stdout, stderr = runRavel("bench", "--systems", "register", "--harness", "1r1w", "--strategies", "exhaustive,dpor", "--max-schedules", "0", "--st=false", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if strings.Contains(stdout, "*") {
		t.Errorf("a footnote about the cutoff with no cutoff and no cut run:\n%s", stdout)
	}
}

// TestBenchRatioAgainstACutExhaustive: #S÷EX against an exhaustive search stopped at the
// cutoff is an upper bound for a run that ended by itself (≤) and nothing for one that
// was cut too (-), exhaustive search's own cell included (bench probe R9).
func TestBenchRatioAgainstACutExhaustive(t *testing.T) {
	code, stdout, stderr := runRavel("bench", "--systems", "register", "--harness", "1r1w", "--strategies", "exhaustive,dpor", "--max-schedules", "20", "--st=false", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !regexp.MustCompile(`#S÷EX +- +≤0\.700\n`).MatchString(stdout) {
		t.Errorf("want #S÷EX - for the cut exhaustive search and ≤0.700 for dpor's 14 of 20*:\n%s", stdout)
	}
}

// TestBenchCanonicalViolationsRow: the table has the canonical count of non-linearizable
// histories, which check's report and the docs' coverage tables use, beside the paper's
// chronological #NL (bench probe R10).
func TestBenchCanonicalViolationsRow(t *testing.T) {
	args := []string{"bench", "--systems", "register-buggy", "--harness", "2r2w", "--strategies", "dpor", "--dependence", "actor", "--max-schedules", "0", "--st=false", "--quiet"}
	code, stdout, stderr := runRavel(args...)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	_, js, _ := runRavel(append(args, "--json")...)
	var runs []checkReport
	if err := json.Unmarshal([]byte(js), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("bench --json: %v\n%s", err, js)
	}
	if runs[0].NonlinearizableCanonical == runs[0].Nonlinearizable {
		t.Fatalf("the configuration does not tell the two counts apart: %d", runs[0].Nonlinearizable)
	}
	want := regexp.MustCompile(`\n +#NLC +` + regexp.QuoteMeta(report.Thousands(runs[0].NonlinearizableCanonical)) + `\n`)
	if !want.MatchString(stdout) {
		t.Errorf("no #NLC row with %d:\n%s", runs[0].NonlinearizableCanonical, stdout)
	}
}

// TestBenchPanicsRow: schedules ending in a failed assertion are a row, so the
// micro-benchmark's bugs show in bench (bench probe R11); and one agent is "1 agent",
// a cutoff of one schedule "cutoff 1 schedule" (R15).
func TestBenchPanicsRow(t *testing.T) {
	code, stdout, stderr := runRavel("bench", "--systems", "microbench", "--harness", "bug1-L1", "--strategies", "exhaustive,dpor", "--st=false", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !regexp.MustCompile(`\n +#P +4 +4\n`).MatchString(stdout) {
		t.Errorf("no #P row with the 4 schedules ending in a failed assertion:\n%s", stdout)
	}
	if !strings.Contains(stdout, "microbench, harness bug1-L1, 1 agent, cutoff 50,000 schedules") {
		t.Errorf("title:\n%s", stdout)
	}
	_, stdout, _ = runRavel("bench", "--systems", "register", "--harness", "1r1w", "--strategies", "exhaustive", "--st=false", "--quiet", "--max-schedules", "1")
	if !strings.Contains(stdout, ", cutoff 1 schedule\n") {
		t.Errorf("title:\n%s", stdout)
	}
	if strings.Contains(stdout, "#P") {
		t.Errorf("a #P row on a run without panics:\n%s", stdout)
	}
}

// TestBenchHelpLegend: bench -h explains every row of the table (bench probe R9) and says
// what bench exits with; ravel -h says bench and deps exit 0 whatever they find (R16).
func TestBenchHelpLegend(t *testing.T) {
	_, stdout, _ := runRavel("bench", "-h")
	for _, row := range []string{"#S ", "#IH", "#UH", "#CH", "#NL ", "#NLC", "#P ", "NL/UH", "TS ", "ST ", "TC ", "TT", "#HF", "TF ", "#S÷EX", "S/s", "DPS", "dpor-source", "†", "exits 0"} {
		if !strings.Contains(stdout, row) {
			t.Errorf("bench -h does not explain %q", row)
		}
	}
	_, stdout, _ = runRavel("-h")
	if !strings.Contains(strings.Join(strings.Fields(stdout), " "), "bench and deps exit 0 when they complete, whatever they find") {
		t.Errorf("ravel -h does not say what bench and deps exit with:\n%s", stdout)
	}
	_, stdout, _ = runRavel("deps", "-h")
	if !strings.Contains(stdout, "exits 0") || !strings.Contains(stdout, `"-" with --cached-baseline`) {
		t.Errorf("deps -h says neither its exit status nor what #S÷EX shows with --cached-baseline:\n%s", stdout)
	}
}
