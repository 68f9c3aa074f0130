package ravelcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunHistoryRechecks: every iteration of ravel run writes its history as
// history-KEY.jsonl, one file per key, and ravel lincheck --spec cas-register --format
// ravel on them gives the iteration's verdict again (exit 1 for a violation, 0 for
// none), as docs/real-processes.md says. examples/kvnode/ravel.yaml's setup, stale reads
// with stale reads on and off.
func TestRunHistoryRechecks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	// The bug on and off, so that both verdicts come up.
	var iters []string
	for _, c := range []struct {
		name    string
		replace []string
	}{
		{"stale", nil},
		{"correct", []string{"    - -stale-reads\n", ""}},
	} {
		path := kvnodeConfig(t, c.replace...)
		sub := filepath.Dir(path)
		var stdout, stderr bytes.Buffer
		if code := run([]string{"run", "--iterations", "2", "--seed", "3", path}, &stdout, &stderr); code != exitViolation && code != exitOK {
			t.Fatalf("ravel run %s: exit %d\nstdout:\n%s\nstderr:\n%s", c.name, code, stdout.String(), stderr.String())
		}
		it, err := filepath.Glob(filepath.Join(sub, "ravel-out", "iter-*"))
		if err != nil || len(it) == 0 {
			t.Fatalf("%s: no iteration (%v)", c.name, err)
		}
		iters = append(iters, it...)
	}
	seen := map[string]int{}
	for _, it := range iters {
		v, err := os.ReadFile(filepath.Join(it, "verdict.txt"))
		if err != nil {
			t.Fatal(err)
		}
		verdict, _, _ := strings.Cut(string(v), "\n")
		files, _ := filepath.Glob(filepath.Join(it, "history-*.jsonl"))
		if len(files) == 0 {
			t.Errorf("%s: no history-KEY.jsonl", it)
			continue
		}
		want := map[string]int{"linearizable": exitOK, "not-linearizable": exitViolation}[verdict]
		page := filepath.Join(it, "page.html")
		args := append([]string{"lincheck", "--spec", "cas-register", "--format", "ravel", "--html", page}, files...)
		code, out, errs := runRavel(args...)
		if code != want {
			t.Errorf("%s: the run says %s, lincheck exits %d (want %d):\n%s%s", it, verdict, code, want, out, errs)
		}
		if verdict == "not-linearizable" && !strings.Contains(out, "cannot follow") {
			t.Errorf("%s: lincheck does not show the operation that cannot follow:\n%s", it, out)
		}
		seen[verdict]++
	}
	if seen["not-linearizable"] == 0 || seen["linearizable"] == 0 {
		t.Errorf("verdicts %v: the test should compare both", seen)
	}
	t.Logf("verdicts: %v", seen)
}
