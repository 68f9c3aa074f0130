package ravelcli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ravelmc/ravel/visited"
)

// The tests below run the command in a process of its own: this test binary, re-executed
// with RAVEL_CHECKPOINT_TEST_ARGS set, runs the command line it holds and exits.
const subprocessArgs = "RAVEL_CHECKPOINT_TEST_ARGS"

func TestCheckpointSubprocessMain(t *testing.T) {
	args := os.Getenv(subprocessArgs)
	if args == "" {
		t.Skip("runs only as a subprocess of the checkpoint tests")
	}
	os.Exit(run(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
}

// ravelCmd is the command line args run in a subprocess, writing its standard output to
// stdout.
func ravelCmd(t *testing.T, stdout *bytes.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckpointSubprocessMain$")
	cmd.Env = append(os.Environ(), subprocessArgs+"="+strings.Join(args, "\x1f"))
	cmd.Stdout = stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t.Cleanup(func() {
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("stderr of %v:\n%s", args, stderr.String())
		}
	})
	return cmd
}

// outcome is what a finished run must reproduce: its figures and its --histories file.
type outcome struct {
	States, Schedules, Unique, Canonical, Nonlinearizable int64
	Complete                                              bool
	Histories                                             []byte
}

func finished(t *testing.T, stdout []byte, histories string) outcome {
	t.Helper()
	var r checkReport
	if err := json.Unmarshal(stdout, &r); err != nil {
		t.Fatalf("output is not a report: %v\n%s", err, stdout)
	}
	h, err := os.ReadFile(histories)
	if err != nil {
		t.Fatal(err)
	}
	return outcome{r.States, r.Schedules, r.HistoriesUnique, r.HistoriesCanonical, r.Nonlinearizable, r.Complete, h}
}

// TestCheckpointKillResume is the kill test: `ravel check gossip … --checkpoint DIR` is
// killed with SIGKILL at seeded random moments; each time, `--resume DIR` (killed again
// in the chained case) ends with exactly the states, schedules and --histories file of the
// uninterrupted run. A kill before the first checkpoint leaves nothing to resume, which
// the resume says (exit 2); the run is then started again.
func TestCheckpointKillResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command many times")
	}
	const seed = 14
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"caching-spilling", []string{"check", "gossip", "--agents", "4", "--harness", "rw", "--state-caching", "on", "--visited-mem", "64KiB", "--max-schedules", "0"}},
		// At the smallest budget the checkpoint's hot store fills its levels twice
		// and moves its keys to its cold store (visited/tiers.go): kills land in moves too.
		{"caching-spilling-moves", []string{"check", "gossip", "--agents", "4", "--harness", "rw", "--state-caching", "on", "--visited-mem", "4KiB", "--max-schedules", "0"}},
		{"dpor-source", []string{"check", "gossip", "--agents", "3", "--harness", "writes", "--strategy", "dpor-source", "--max-schedules", "0"}},
		{"exhaustive-budget", []string{"check", "gossip", "--agents", "3", "--harness", "writes", "--max-schedules", "9000"}},
		// Stateful DPOR: its graph of the visited states is in the record.
		{"dpor-caching", []string{"check", "paxos", "--harness", "2r2w", "--strategy", "dpor", "--state-caching", "on", "--max-schedules", "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := append(tc.args, "--json", "--quiet")
			dir := t.TempDir()
			wantHist := filepath.Join(dir, "want.jsonl")
			var out bytes.Buffer
			start := time.Now()
			first := ravelCmd(t, &out, append(base, "--histories", wantHist)...)
			if err := first.Run(); err != nil && first.ProcessState.ExitCode() != exitViolation {
				t.Fatalf("uninterrupted run: %v", err)
			}
			took := time.Since(start)
			want := finished(t, out.Bytes(), wantHist)
			for k := range 4 {
				kills := 1 + k/3 // the last round kills the resumed run too
				ck := filepath.Join(dir, fmt.Sprintf("ckpt-%d", k))
				hist := filepath.Join(dir, fmt.Sprintf("got-%d.jsonl", k))
				args := append(append([]string(nil), base...), "--histories", hist, "--checkpoint-every", "20ms")
				restarts := 0
				for i := 0; ; i++ {
					var a []string
					if i == 0 {
						a = append(args, "--checkpoint", ck)
					} else {
						a = append(args, "--resume", ck)
					}
					out.Reset()
					cmd := ravelCmd(t, &out, a...)
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
					var killedAt time.Duration
					done := make(chan struct{})
					if i < kills {
						// A seeded moment after the run's first checkpoint has begun (its
						// table file appears), within half the uninterrupted run's time.
						killedAt = time.Duration(rng.Int64N(int64(took / 2)))
						go func() {
							for {
								select {
								case <-done:
									return
								case <-time.After(2 * time.Millisecond):
								}
								if m, _ := filepath.Glob(filepath.Join(ck, "table-*")); len(m) > 0 {
									break
								}
							}
							select {
							case <-done:
							case <-time.After(killedAt):
								_ = cmd.Process.Signal(syscall.SIGKILL)
							}
						}()
					}
					err := cmd.Wait()
					close(done)
					if err == nil {
						break
					}
					code := cmd.ProcessState.ExitCode()
					if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
						t.Logf("round %d: run %d killed after %v", k, i, killedAt)
						continue
					}
					if i > 0 && code == exitUsage && i <= kills {
						// Killed before its first checkpoint: start again.
						t.Logf("round %d: killed before its first checkpoint was complete; starting again", k)
						if restarts++; restarts > 10 {
							t.Fatal("every kill came before the first checkpoint")
						}
						if err := os.RemoveAll(ck); err != nil {
							t.Fatal(err)
						}
						i = -1
						continue
					}
					if code != exitViolation {
						t.Fatalf("round %d: run %d: %v", k, i, err)
					}
					break
				}
				got := finished(t, out.Bytes(), hist)
				if got.States != want.States || got.Schedules != want.Schedules || got.Unique != want.Unique ||
					got.Canonical != want.Canonical || got.Nonlinearizable != want.Nonlinearizable || got.Complete != want.Complete {
					t.Errorf("round %d: resumed run %+v\nwant %+v", k, strip(got), strip(want))
				}
				if !bytes.Equal(got.Histories, want.Histories) {
					t.Errorf("round %d: the --histories files differ (%d and %d bytes)", k, len(got.Histories), len(want.Histories))
				}
			}
		})
	}
}

func strip(o outcome) outcome { o.Histories = nil; return o }

// TestCheckpointResumeRaisesBudget is the probe's scenario (C4): `ravel check … --checkpoint
// DIR --max-schedules 3000`, a search the budget stops, then `--resume DIR --max-schedules
// 6000`, ends with exactly the figures and the --histories file of a run given 6,000 from
// the start, and says that it resumed and with which budget; the same with --max-states
// and state caching. Resumed with a budget already spent, it stops at once and says so;
// a changed --max-depth is still another run's checkpoint.
func TestCheckpointResumeRaisesBudget(t *testing.T) {
	for _, tc := range []struct {
		name, flag   string
		args         []string
		first, again string
	}{
		{"schedules", "--max-schedules", []string{"check", "register", "--harness", "2r2w"}, "3000", "6000"},
		{"states", "--max-states", []string{"check", "register", "--harness", "2r2w", "--state-caching", "on", "--max-schedules", "0"}, "3000", "6000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			check := func(want int, args ...string) (outcome, string) {
				t.Helper()
				hist := filepath.Join(dir, "histories.jsonl")
				code, stdout, stderr := runRavel(append(append(append([]string(nil), tc.args...), "--json", "--quiet", "--histories", hist), args...)...)
				if code != want {
					t.Fatalf("%v: exit %d, want %d\n%s", args, code, want, stderr)
				}
				if want != 0 {
					return outcome{}, stderr
				}
				return finished(t, []byte(stdout), hist), stderr
			}
			want, _ := check(0, tc.flag, tc.again)
			if want.Complete {
				t.Fatalf("the uninterrupted run with %s %s completes: the test stops nothing", tc.flag, tc.again)
			}
			ck := filepath.Join(dir, "ck")
			first, stderr := check(0, tc.flag, tc.first, "--checkpoint", ck)
			if note := "continue with the same command, --resume " + ck + " and a larger " + tc.flag; !strings.Contains(stderr, note) {
				t.Errorf("stderr of the first run:\n%s\nwant it to say %q", stderr, note)
			}
			got, stderr := check(0, tc.flag, tc.again, "--resume", ck)
			if fmt.Sprint(strip(got)) != fmt.Sprint(strip(want)) {
				t.Errorf("resumed with %s %s: %+v\nwant %+v", tc.flag, tc.again, strip(got), strip(want))
			}
			if !bytes.Equal(got.Histories, want.Histories) {
				t.Errorf("the --histories files differ (%d and %d bytes)", len(got.Histories), len(want.Histories))
			}
			if note := "resumed the checkpoint in " + ck; !strings.Contains(stderr, note) || !strings.Contains(stderr, tc.flag+" 6,000") {
				t.Errorf("stderr of the resumed run:\n%s\nwant it to say %q and %s 6,000", stderr, note, tc.flag)
			}
			// The checkpoint now stands at 6,000: a smaller budget stops at once.
			spent, stderr := check(0, tc.flag, tc.first, "--resume", ck)
			if fmt.Sprint(strip(spent)) != fmt.Sprint(strip(want)) || !strings.Contains(stderr, "stopped at once") {
				t.Errorf("resumed with %s %s: %+v, stderr:\n%s\nwant the checkpoint's figures %+v, stopped at once", tc.flag, tc.first, strip(spent), stderr, strip(want))
			}
			if fmt.Sprint(strip(first)) == fmt.Sprint(strip(want)) {
				t.Errorf("the first run's figures are the final run's: the budget stopped nothing")
			}
			_, stderr = check(exitUsage, tc.flag, tc.again, "--max-depth", "9", "--resume", ck)
			if w := "the checkpoint was taken with --max-depth 1000, this run has --max-depth 9"; !strings.Contains(stderr, w) {
				t.Errorf("stderr:\n%s\nwant %q", stderr, w)
			}
		})
	}
}

// TestResumeReported: --json says what a resumed run continued from, and the text
// report's status line explains figures above this run's budget when the checkpoint had
// already spent it (resume's follow-up).
func TestResumeReported(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "ck")
	args := []string{"check", "register", "--harness", "2r2w"}
	run := func(more ...string) (int, string) {
		t.Helper()
		code, stdout, stderr := runRavel(append(append([]string(nil), args...), more...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d\n%s", more, code, stderr)
		}
		return code, stdout
	}
	resumed := func(stdout string) *resumedJSON {
		t.Helper()
		var r struct{ Resumed *resumedJSON }
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		return r.Resumed
	}
	if _, out := run("--max-schedules", "1000", "--checkpoint", ck, "--json"); resumed(out) != nil {
		t.Errorf("a run that resumed nothing has resumed %+v", *resumed(out))
	}
	_, out := run("--max-schedules", "2000", "--resume", ck, "--json")
	if got, want := resumed(out), (resumedJSON{Schedules: 1000}); got == nil || *got != want {
		t.Errorf("resumed %+v, want %+v", got, want)
	}
	_, out = run("--max-schedules", "500", "--resume", ck, "--json")
	if got, want := resumed(out), (resumedJSON{Schedules: 2000, Spent: true}); got == nil || *got != want {
		t.Errorf("resumed %+v, want %+v", got, want)
	}
	_, out = run("--max-schedules", "500", "--resume", ck)
	if want := "stopped at the schedule budget (--max-schedules 500); the checkpoint resumed had already gone beyond it"; !strings.Contains(out, want) {
		t.Errorf("report:\n%s\nwant it to say %q", out, want)
	}
}

// TestCheckpointDirectoryFaults: the probe's findings on checkpoint directories (B2, B3,
// B5, B6, B12). A damaged table file in a checkpoint's store, a MANIFEST removed or cut
// short, a directory that is not Ravel's, one that does not exist and one in use by
// another run: each ends with exit 2 and a one-line reason (no Go trace), and leaves the
// directory as it was (nothing created, no table deleted); a resume that stops at once
// changes nothing either.
func TestCheckpointDirectoryFaults(t *testing.T) {
	base := t.TempDir()
	args := []string{"check", "register", "--harness", "2r2w", "--state-caching", "on", "--max-schedules", "0", "--visited-mem", "4KiB", "--quiet"}
	good := filepath.Join(base, "good")
	if code, _, stderr := runRavel(append(args, "--max-states", "3000", "--checkpoint", good)...); code != exitOK {
		t.Fatalf("checkpointed run: exit %d\n%s", code, stderr)
	}
	ssts, _ := filepath.Glob(filepath.Join(good, "*.sst"))
	if len(ssts) < 2 {
		t.Fatalf("badger tables %v: the run spilled too little", ssts)
	}
	sst := filepath.Base(ssts[len(ssts)/2])
	fi, err := os.Stat(ssts[len(ssts)/2])
	if err != nil {
		t.Fatal(err)
	}
	size := fi.Size()
	// ravel runs the command line in a process of its own (a panic in a goroutine
	// badger starts would end this one) and returns its exit status and standard error.
	ravel := func(more ...string) (int, string) {
		t.Helper()
		var out bytes.Buffer
		cmd := ravelCmd(t, &out, append(append([]string(nil), args...), more...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), stderr.String()
	}
	copyOf := func(name string, damage func(dir string) error) string {
		t.Helper()
		dir := filepath.Join(base, name)
		if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
			t.Fatal(err)
		}
		if err := damage(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	garbage := func(dir string) error {
		f, err := os.OpenFile(filepath.Join(dir, sst), os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		b := make([]byte, size/2)
		for i := range b {
			b[i] = byte(i*7 + 13)
		}
		_, err = f.WriteAt(b, size/4)
		return err
	}
	userDir := func(name string) string {
		t.Helper()
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"000005.sst", "readme", "table-0000000000000009"} {
			if err := os.WriteFile(filepath.Join(dir, f), []byte("the user's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	nowhere := filepath.Join(base, "nonexistent", "deeper", "ck")
	for _, tc := range []struct {
		name string
		dir  string
		more []string // besides the directory's flag
		flag string
		code int
		want string
	}{
		{"sst cut short", copyOf("sst-cut", func(d string) error { return os.Truncate(filepath.Join(d, sst), size/2) }),
			nil, "--resume", exitUsage, "the checkpoint's store is damaged (table " + sst + ")"},
		{"sst garbage", copyOf("sst-garbage", garbage), nil, "--resume", exitUsage, "the checkpoint's store is damaged (table " + sst + ")"},
		{"manifest missing", copyOf("no-manifest", func(d string) error { return os.Remove(filepath.Join(d, "MANIFEST")) }),
			nil, "--resume", exitUsage, "MANIFEST is missing"},
		// With a budget the checkpoint had spent, badger deleted every table.
		{"manifest cut short, budget spent", copyOf("cut-manifest", func(d string) error { return os.Truncate(filepath.Join(d, "MANIFEST"), 10) }),
			[]string{"--max-states", "1000"}, "--resume", exitUsage, "the checkpoint's store is missing tables (MANIFEST damaged?)"},
		{"budget spent", copyOf("spent", func(string) error { return nil }),
			[]string{"--max-states", "1000"}, "--resume", exitOK, "so the run stopped at once"},
		{"resume a user's directory", userDir("user-resume"), nil, "--resume", exitUsage, "no complete checkpoint"},
		{"checkpoint into a user's directory", userDir("user-checkpoint"), nil, "--checkpoint", exitUsage,
			"the directory is not empty and is not a Ravel checkpoint directory"},
		{"resume a directory that does not exist", nowhere, nil, "--resume", exitUsage, "--resume " + nowhere + ": no such directory"},
		{"resume and checkpoint a directory that does not exist", nowhere, []string{"--checkpoint", nowhere}, "--resume", exitUsage, ": no such directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := listing(t, base)
			code, stderr := ravel(append(append([]string(nil), tc.more...), tc.flag, tc.dir)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, tc.code, tc.want)
			}
			if tc.code != exitOK && (strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ravel")) {
				t.Errorf("stderr is not a one-line reason:\n%s", stderr)
			}
			if after := listing(t, base); !slices.Equal(after, before) {
				t.Errorf("the run changed the directories: before\n%s\nafter\n%s", strings.Join(before, "\n"), strings.Join(after, "\n"))
			}
		})
	}
	t.Run("in use", func(t *testing.T) {
		dir := copyOf("in-use", func(string) error { return nil })
		v, err := visited.Open(visited.Options{MemBytes: 4 << 10, Durable: dir, Resume: true})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		for _, flag := range []string{"--resume", "--checkpoint"} {
			code, stderr := ravel(flag, dir)
			if want := fmt.Sprintf("%s %s: the directory is in use by another ravel run (pid %d)", flag, dir, os.Getpid()); code != exitUsage || !strings.Contains(stderr, want) {
				t.Errorf("%s: exit %d, stderr:\n%s\nwant exit 2 and %q", flag, code, stderr, want)
			}
		}
	})
}

// listing is every file under dir with its size and modification time.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var l []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			l = append(l, path+"/")
		} else {
			l = append(l, fmt.Sprintf("%s %d %v", path, fi.Size(), fi.ModTime().UnixNano()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestResumeRefusalNamesFlags: a resume of another run's checkpoint names the item that
// differs as the user writes the flag, sizes in their units; the same size written
// otherwise is the same run.
func TestResumeRefusalNamesFlags(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "ck")
	base := []string{"check", "register", "--harness", "2r1w", "--state-caching", "on", "--visited-mem", "1MiB", "--quiet"}
	if code, _, stderr := runRavel(append(append([]string(nil), base...), "--checkpoint", ck)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, tc := range []struct{ change, want string }{
		{"--visited-mem 2MiB", "the checkpoint was taken with --visited-mem 1MiB, this run has --visited-mem 2MiB"},
		{"--visited-mem 1000KB", "the checkpoint was taken with --visited-mem 1MiB, this run has --visited-mem 1MB"},
		{"--agents 3", "the checkpoint was taken with --agents 2, this run has --agents 3"},
		{"--harness 2r2w", "the checkpoint was taken with --harness 2r1w, this run has --harness 2r2w"},
		{"--strategy delay-bounded", "the checkpoint was taken with --strategy exhaustive, this run has --strategy delay-bounded"},
		{"--canonical-states", "the checkpoint has no --canonical-states where this run has --canonical-states"},
		{"--reflective", "the checkpoint has no --reflective where this run has --reflective"},
		{"--drop 1", "the checkpoint has no faults where this run has --drop 1"},
	} {
		t.Run(tc.change, func(t *testing.T) {
			args := append(append(append([]string(nil), base...), strings.Fields(tc.change)...), "--resume", ck)
			code, _, stderr := runRavel(args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, tc.want)
			}
		})
	}
	if code, _, stderr := runRavel(append(append([]string(nil), base...), "--visited-mem", "1024KiB", "--resume", ck)...); code != exitOK {
		t.Errorf("1024KiB for 1MiB: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestResumeSpentNamesOnlyTheSpentBudget: a resume whose budget the checkpoint had
// already spent names that budget, not one without a limit.
func TestResumeSpentNamesOnlyTheSpentBudget(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "ck")
	base := []string{"check", "register", "--harness", "2r2w", "--state-caching", "on", "--max-schedules", "0", "--quiet"}
	if code, _, stderr := runRavel(append(append([]string(nil), base...), "--max-states", "2000", "--checkpoint", ck)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, _, stderr := runRavel(append(append([]string(nil), base...), "--max-states", "1000", "--resume", ck)...)
	if want := "it had already spent this run's --max-states 1,000, so the run stopped at once"; code != exitOK || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and %q", code, stderr, want)
	}
	if strings.Contains(stderr, "--max-schedules 0") {
		t.Errorf("names a budget without a limit as spent:\n%s", stderr)
	}
}

// TestResumeNotedAtOnce: a resumed run says what it took up as soon as the resume has
// succeeded, before its first progress line, not when it ends; under --quiet too.
func TestResumeNotedAtOnce(t *testing.T) {
	defer func(old time.Duration) { progressEvery = old }(progressEvery)
	progressEvery = time.Nanosecond
	ck := filepath.Join(t.TempDir(), "ck")
	base := []string{"check", "register", "--harness", "2r2w", "--state-caching", "on"}
	if code, _, stderr := runRavel(append(append([]string(nil), base...), "--max-schedules", "300", "--quiet", "--checkpoint", ck)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, _, stderr := runRavel(append(append([]string(nil), base...), "--max-schedules", "0", "--resume", ck)...)
	note := "ravel: resumed the checkpoint in " + ck + " (300 schedules, "
	first := strings.Index(stderr, " violations so far")
	if code != exitOK || first < 0 || !strings.Contains(stderr[:first], note) || strings.Count(stderr, "resumed the checkpoint") != 1 {
		t.Errorf("exit %d, stderr:\n%s\nwant %q once, before the first progress line", code, stderr, note)
	}
}
