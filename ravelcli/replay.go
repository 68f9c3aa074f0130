package ravelcli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/wgl"
)

func (c *catalog) cmdReplay(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var html, harnessFlag string
	fs.StringVar(&html, "html", "", "also write the replay as one HTML page to `PAGE`")
	fs.StringVar(&harnessFlag, "harness", "", "replay under the harness `NAME` of the file's system, not the one the file names (or, for a file that names none, the one among those with its clients whose replay reproduces it)")
	args, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printHelp(stdout, "Usage: ravel replay FILE [flags]: re-run the violation saved in FILE by ravel check --out FILE or by raveltest (- reads standard input), and check that it gives the same history\n\nFlags:\n", fs)
		return exitOK, nil
	}
	if err != nil {
		return 0, usagef("replay: %v (see ravel replay -h)", err)
	}
	if len(args) != 1 {
		return 0, usagef("replay needs exactly one FILE, written by ravel check --out FILE or raveltest (- for standard input), got %d arguments (see ravel replay -h)", len(args))
	}
	path := args[0]
	outputs := []namedPath{{"--html", html}}
	if err := checkOutputs("replay", outputs, []namedPath{{"the violation file", path}}, stdout, stderr); err != nil {
		return 0, err
	}
	in, err := openInput(path)
	if err != nil {
		return 0, usagef("replay: %v", err)
	}
	// The system is looked up while the file is read, before its digest is checked: an
	// unknown system is the cause to name, not the digest it does not match.
	var entry System
	vf, ids, err := report.ReadKnown(in, path, func(system string) (err error) {
		entry, err = c.lookup(system)
		return err
	})
	in.Close()
	if err != nil {
		return 0, usagef("replay: %v", err)
	}
	cands, err := replaySystems(entry, vf, harnessFlag)
	if err != nil {
		return 0, usagef("replay: %s: %v", path, err)
	}
	// Checked before the replay, as check checks its files before the search: a replay
	// that ends by failing to save its page would lose its verdict's exit status.
	if err := prepareOutputs("replay", outputs); err != nil {
		return 0, err
	}
	// The event identities are those of the run's fingerprint: the reflective one's for a
	// file check --reflective wrote.
	pick, note, err := pickReplay(cands, vf, ids)
	if err != nil {
		return 0, usagef("replay: %s: %v", path, err)
	}
	sys, harness, ex := pick.sys, pick.harness, pick.ex
	faults := ""
	if d := vf.Run.Faults.Describe(); d != "" {
		// The budgets the file was found under, as check's header names them (probe M3).
		faults = ", " + d
	}
	fmt.Fprintf(stdout, "ravel replay %s  (%s, %s, agents %d%s): %s\n", path, vf.Run.System, replayedClients(vf, harness), vf.Run.Agents, faults, plural(len(ex.Steps), "step"))
	fmt.Fprintf(stdout, "\n%s", report.TextMode(&sys, ex.Steps, ex.Events, vf.Run.Reflective))
	code, err := replayVerdict(stdout, &sys, vf, path, ex, note)
	if html != "" {
		if herr := writeReplayHTML(html, &sys, path, vf, harness, ex); herr != nil {
			// Told after the verdict, which keeps its exit status (lateFailure).
			herr = fmt.Errorf("replay: --html: %w", herr)
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", c.name(), herr)
				return code, err
			}
			return lateFailure(stderr, c.name(), code, herr), nil
		}
		fmt.Fprintln(stdout)
		printPageSaved(stdout, html)
	}
	return code, err
}

// replayedClients names what the replay's clients do, for its header: the workload the
// file was found under, which replaces the harness, or else the harness.
func replayedClients(vf violationFile, harness string) string {
	if vf.Run.Workload != "" {
		return "workload " + vf.Run.Workload
	}
	return "harness " + harness
}

// replayVerdict compares the replay ex with the violation file vf read from path, prints
// the verdict and returns the exit status (or a usage error for a replay that does not
// reproduce the file, with note, when set, among its causes: pickReplay's).
func replayVerdict(stdout io.Writer, sys *model.System, vf violationFile, path string, ex *explorer.Execution, note string) (int, error) {
	differ, fingerprint := replayDiffers(sys, vf, ex)
	if len(differ) > 0 {
		if fingerprint != "" {
			differ = append(differ, fingerprint)
		}
		fmt.Fprintf(stdout, "\nthe replay does NOT reproduce the saved violation: %s %s\n", strings.Join(differ, ", "), differVerb(len(differ)))
		causes := fmt.Sprintf("the system changed since the file was written, the file comes from another system named %q (a go test may build one of its own under this name), or a handler is not deterministic", sys.Name)
		if note != "" {
			causes = note + " (name one with --harness), " + causes
		}
		return 0, usagef("replay: %s: the replay differs from the saved violation in %s: %s", path, strings.Join(differ, ", "), causes)
	}
	fmt.Fprintln(stdout, "\nthe replay gives the same history as the saved violation")
	if fingerprint != "" {
		fmt.Fprintf(stdout, "note: %s differs: the state's hashing changed since the file was saved (a HashState method added or changed), or the state did, in what the history does not show\n", fingerprint)
	}
	if ex.Failure != "" {
		fmt.Fprintf(stdout, "VIOLATION: %s%s\n", ex.Failure, panicAt(ex.Stack))
		return exitViolation, nil
	}
	res := wgl.Check(sys.Harness.Spec().Spec, histories.Operations(sys.Harness, ex.Events))
	if res.Err != nil {
		return 0, fmt.Errorf("replay: %s: the replayed history has no verdict: %w", path, res.Err)
	}
	if res.Verdict == wgl.NotLinearizable {
		fmt.Fprintln(stdout, "VIOLATION: the history is not linearizable")
		return exitViolation, nil
	}
	fmt.Fprintln(stdout, "the history is linearizable, though the saved violation said otherwise")
	return 0, usagef("replay: %s: the saved violation's history is linearizable: the file does not hold a violation", path)
}

// replayDiffers says what of the file vf the replay ex does not reproduce — the
// deliveries, the history, the failure — and, apart, the final state when its
// fingerprint differs ("" when it does not).
func replayDiffers(sys *model.System, vf violationFile, ex *explorer.Execution) (differ []string, fingerprint string) {
	// What the file says happened must be what happens: the same deliveries, history,
	// failure and final state.
	if !sameDeliveries(newStepsJSON(sys, ex.Steps), vf.Violation.Steps) {
		differ = append(differ, "the deliveries")
	}
	if !reflect.DeepEqual(newHistoryJSON(sys, ex.Events), vf.Violation.History) {
		differ = append(differ, "the history")
	}
	failure := ""
	if vf.Violation.Kind != "nonlinearizable" {
		failure = vf.Violation.Kind + ": " + vf.Violation.Message
	}
	if ex.Failure != failure {
		differ = append(differ, fmt.Sprintf("the failure (%q, saved %q)", ex.Failure, failure))
	}
	// The final state's fingerprint is told, not judged: the violation is the history
	// (or the failure), and a fingerprint changes with the state's hashing — a
	// HashState method added since the file was saved (probe T2) — however alike the
	// behaviour. raveltest's replay judges the history alone too.
	if fp := fmt.Sprintf("%016x", ex.Fingerprint); fp != vf.Fingerprint {
		fingerprint = fmt.Sprintf("the final state (fingerprint %s, saved %s)", fp, vf.Fingerprint)
	}
	return differ, fingerprint
}

// sameDeliveries reports whether two schedules deliver the same events, each its ID (from
// the sender, the receiver, the payload and the step that sent it), kind, ends and timer.
// The rendered message is left out: it is for people, and a file written before a
// rendering changed (a String method added, a request drawn with the specification's
// DescribeInput) still replays.
func sameDeliveries(got, saved []stepJSON) bool {
	if len(got) != len(saved) {
		return false
	}
	for i := range got {
		g, s := got[i], saved[i]
		g.Msg, s.Msg = "", ""
		if g != s {
			return false
		}
	}
	return true
}
