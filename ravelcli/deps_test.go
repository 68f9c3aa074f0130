package ravelcli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/systems/register"
)

// quorumAcks is a user's relation, defined outside dpor: history, except that two
// acknowledgements of a write to one coordinator are independent (they only count).
type quorumAcks struct{}

func (quorumAcks) Name() string { return "test-quorum-acks" }
func (quorumAcks) Dependent(a, b *dpor.StepInfo) bool {
	_, x := a.Event.Msg.(register.WriteReplicaAck)
	_, y := b.Event.Msg.(register.WriteReplicaAck)
	if x && y && a.Event.To == b.Event.To {
		return false
	}
	return dpor.History().Dependent(a, b)
}
func (quorumAcks) NeedsReturns() bool { return true }
func (quorumAcks) NeedsKeys() bool    { return false }

func withAcks() Option {
	return Dependence("test-quorum-acks", "history, but a write's acknowledgements commute", func() dpor.Dependence { return quorumAcks{} })
}

func runWith(opts []Option, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Run(args, &out, &errb, opts...)
	return code, out.String(), errb.String()
}

// historyFile reads a --histories file into its lines.
func historyFile(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		out[l] = true
	}
	return out
}

// TestDepsCoverageMatchesHistoryFiles: a relation registered from outside dpor runs by name
// through the command line, and the coverage `ravel deps` reports is what comparing the
// --histories files of exhaustive search and of DPOR with that relation gives.
func TestDepsCoverageMatchesHistoryFiles(t *testing.T) {
	opts := []Option{Builtins(), withAcks()}
	code, stdout, stderr := runWith(opts, "deps", "--systems", "register-buggy", "--dependence", "test-quorum-acks,history,actor",
		"--max-schedules", "0", "--commute-states", "0", "--json", "--quiet")
	if code != exitOK {
		t.Fatalf("deps: exit %d\n%s", code, stderr)
	}
	var tables []struct {
		Exhaustive struct{ Canonical int }
		Rows       []struct {
			Strategy, Dependence string
			Covered              int
			Coverage             float64                    `json:"coverage_percent"`
			ViolationsMissed     int                        `json:"violations_missed"`
			FirstMissed          *struct{ Timeline string } `json:"first_missed"`
		}
		Commutation []struct {
			Dependence, Counterexample string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &tables); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(tables) != 1 || len(tables[0].Rows) != 3 || len(tables[0].Commutation) != 3 {
		t.Fatalf("got %s", stdout)
	}
	dir := t.TempDir()
	exFile := filepath.Join(dir, "exhaustive.jsonl")
	if code, _, stderr := runWith(opts, "check", "register-buggy", "--strategy", "exhaustive", "--max-schedules", "0", "--histories", exFile); code != exitViolation {
		t.Fatalf("check exhaustive: exit %d\n%s", code, stderr)
	}
	ex := historyFile(t, exFile)
	if len(ex) != tables[0].Exhaustive.Canonical {
		t.Errorf("exhaustive: %d lines in the file, %d canonical histories in the report", len(ex), tables[0].Exhaustive.Canonical)
	}
	for _, r := range tables[0].Rows {
		t.Run(r.Dependence, func(t *testing.T) {
			file := filepath.Join(dir, r.Dependence+".jsonl")
			if code, _, stderr := runWith(opts, "check", "register-buggy", "--strategy", "dpor", "--dependence", r.Dependence, "--max-schedules", "0", "--histories", file); code != exitViolation && code != exitOK {
				t.Fatalf("check: exit %d\n%s", code, stderr)
			}
			got := historyFile(t, file)
			covered, missedNL := 0, 0
			for l := range ex {
				switch {
				case got[l]:
					covered++
				case strings.Contains(l, `"verdict":"not-linearizable"`):
					missedNL++
				}
			}
			if r.Covered != covered || r.ViolationsMissed != missedNL {
				t.Errorf("report: covered %d, violations missed %d; the files: %d, %d", r.Covered, r.ViolationsMissed, covered, missedNL)
			}
			if want := 100 * float64(covered) / float64(len(ex)); r.Coverage != want {
				t.Errorf("coverage %v%%, the files give %v%%", r.Coverage, want)
			}
			if (r.FirstMissed != nil) != (covered < len(ex)) {
				t.Errorf("first missed %v, covered %d of %d", r.FirstMissed, covered, len(ex))
			}
		})
	}
	// The experiment's point: the acks relation prunes, loses histories, and the contract
	// check says why.
	acks, hist := tables[0].Rows[0], tables[0].Rows[1]
	if acks.Coverage >= 100 || hist.Coverage != 100 {
		t.Errorf("coverage: acks %v%%, history %v%%", acks.Coverage, hist.Coverage)
	}
	if c := tables[0].Commutation[0]; !strings.HasPrefix(c.Counterexample, "unstable") {
		t.Errorf("acks contract: %q", c.Counterexample)
	}
	if c := tables[0].Commutation[1]; c.Counterexample != "" {
		t.Errorf("history contract: %q", c.Counterexample)
	}
}

func TestDepsTextAndList(t *testing.T) {
	opts := []Option{Builtins(), withAcks()}
	code, stdout, stderr := runWith(opts, "deps", "--systems", "register-buggy", "--dependence", "test-quorum-acks,actor", "--commute-states", "50", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"register-buggy, harness 2r1w, 3 agents", "dpor        test-quorum-acks", "first canonical history dpor with test-quorum-acks missed", "├"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	_, stdout, _ = runWith(opts, "list")
	if !strings.Contains(stdout, "test-quorum-acks") || !strings.Contains(stdout, "a write's acknowledgements commute") {
		t.Errorf("list does not show the relation:\n%s", stdout)
	}
	_, stdout, _ = runWith(opts, "deps", "-h")
	if !strings.Contains(stdout, "test-quorum-acks") {
		t.Errorf("deps -h does not list the relation:\n%s", stdout)
	}
}

func TestDepsBadUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
		args []string
		want string
	}{
		{"unknown relation", []Option{Builtins()}, []string{"deps", "--dependence", "nope"}, `unknown dependence "nope"`},
		{"not DPOR", []Option{Builtins()}, []string{"deps", "--strategies", "exhaustive"}, "reduces by no dependence relation"},
		{"unknown system", []Option{Builtins()}, []string{"deps", "--systems", "nope"}, `unknown system "nope"`},
		{"markdown and json", []Option{Builtins()}, []string{"deps", "--markdown", "--json"}, "exclude each other"},
		{"argument", []Option{Builtins()}, []string{"deps", "register"}, "takes no arguments"},
		{"taken name", []Option{Builtins(), Dependence("history", "mine", func() dpor.Dependence { return quorumAcks{} })}, []string{"list"}, "bad catalog"},
		{"name mismatch", []Option{Builtins(), Dependence("other-name", "mine", func() dpor.Dependence { return quorumAcks{} })}, []string{"list"}, `calls itself "test-quorum-acks"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runWith(tc.opts, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
}
