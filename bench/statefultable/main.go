// Command statefultable measures docs/strategies.md's table of stateful DPOR against
// exhaustive search with state caching (issue 13): for each shipped configuration, the
// states, schedules and CPU of `exhaustive` with caching (ex+c), of stateless `dpor`,
// and of `dpor` with caching (dpor+c), with dpor+c's ratios to ex+c. It runs a built
// `ravel` as separate processes, as a user runs it, so a run's CPU includes the
// process's start-up and the linearizability check:
//
//	go run ./bench/statefultable > table.md
//
// measures the ravel of the module it is run in, built into a temporary directory;
// -ravel PATH measures a binary built before; -canonical-states measures both cached
// searches with canonical states (docs/visited-states.md).
//
// CPU is user + system time of the finished process, from the operating system. ex+c
// and dpor+c run in turn, dpor+c first, -n times each after one warm-up of each
// (-small-n times where the warm-up of ex+c took under a tenth of a second, mostly the
// process's start-up, whose spread needs more pairs); the table gives the median of
// each and the median of the pairs' ratios, since pairing keeps a ratio meaningful while
// a shared machine's speed drifts. Stateless dpor runs
// once, interrupted (SIGINT, which makes ravel report what it has done) after
// -stateless-limit. The counts of a configuration must be the same on every run, and
// dpor+c must complete with no cut schedule and find ex+c's canonical histories and
// violations (stateless dpor too, where it completes); a row that breaks any of these
// is marked and the command exits 1.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/ravelmc/ravel/systems"
)

// large are the configurations -large adds: exhaustive search with caching takes
// seconds (abd-buggy 2w2r) to minutes (the 2r2w registers) a run.
var large = []string{"abd-buggy/2w2r", "register-volatile/2r2w", "register-idempotent/2r2w"}

// tooLarge are the shipped configurations the table leaves out: exhaustive search with
// caching does not complete them in 25 minutes (docs/strategies.md).
var tooLarge = []string{"abd/2w2r", "leader/1w2r", "leader/2w1r", "leader-buggy/1w2r", "leader-buggy/2w1r"}

// shipped returns the configurations of the table: every shipped system and harness, in
// the catalog's order, but tooLarge, and large only withLarge.
func shipped(withLarge bool) []string {
	var out []string
	for _, e := range systems.All() {
		for _, h := range e.Harnesses {
			c := e.Name + "/" + h
			if slices.Contains(tooLarge, c) || (!withLarge && slices.Contains(large, c)) {
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command with its arguments and streams; it returns the exit code: 0 when
// every row holds, 1 when one does not, 2 on bad usage or a run that fails.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("statefultable", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ravel := fs.String("ravel", "", "the ravel binary to measure (default: build this module's ./cmd/ravel)")
	n := fs.Int("n", 5, "the pairs of ex+c and dpor+c runs measured for each configuration, after one warm-up each")
	smallN := fs.Int("small-n", 60, "the pairs for a configuration whose warm-up ex+c run took under 0.1 s of CPU, mostly the process's start-up, where a ratio needs more pairs (with 15, twin configurations measured 0.90 and 1.02)")
	configs := fs.String("configs", "", "comma-separated SYSTEM/HARNESS configurations (default: every shipped one but the largest)")
	withLarge := fs.Bool("large", false, "with the default configurations, add "+strings.Join(large, ",")+" (minutes of CPU)")
	limit := fs.Duration("stateless-limit", time.Minute, "interrupt stateless dpor after this long (0: do not run it)")
	quiet := fs.Bool("quiet", false, "no progress lines on standard error")
	canonical := fs.Bool("canonical-states", false, "run ex+c and dpor+c with --canonical-states: states that cover their history's canonical form, not its order")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *n < 1 || *smallN < 1 {
		fmt.Fprintln(stderr, "statefultable: want -n and -small-n of at least 1 and no other arguments")
		fs.Usage()
		return 2
	}
	list := shipped(*withLarge)
	if *configs != "" {
		list = strings.Split(*configs, ",")
	}
	var cfgs []config
	for _, c := range list {
		sys, harness, ok := strings.Cut(strings.TrimSpace(c), "/")
		if !ok || sys == "" || harness == "" {
			fmt.Fprintf(stderr, "statefultable: configuration %q: want SYSTEM/HARNESS\n", c)
			return 2
		}
		cfgs = append(cfgs, config{sys, harness})
	}
	if *ravel == "" {
		dir, err := os.MkdirTemp("", "statefultable")
		if err != nil {
			fmt.Fprintf(stderr, "statefultable: %v\n", err)
			return 2
		}
		defer os.RemoveAll(dir)
		if *ravel, err = buildRavel(dir, stderr); err != nil {
			fmt.Fprintf(stderr, "statefultable: %v\n", err)
			return 2
		}
	}
	m := &measurer{ravel: *ravel, pairs: *n, smallPairs: *smallN, limit: *limit, canonical: *canonical}
	if !*quiet {
		m.progress = stderr
	}
	start, err := m.startup(context.Background())
	if err != nil {
		fmt.Fprintf(stderr, "statefultable: %v\n", err)
		return 2
	}
	stateless := fmt.Sprintf("stateless dpor interrupted after %v", *limit)
	if *limit == 0 {
		stateless = "stateless dpor not run"
	}
	fmt.Fprintf(stdout, "<!-- go run ./bench/statefultable %s (pairs %d, %d under 0.1 s; %s); `ravel list` %.1f ms of CPU (start-up, median of %d); %d CPUs; %s -->\n\n",
		strings.Join(args, " "), *n, *smallN, stateless, 1000*start, startupRuns, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02"))
	fmt.Fprintln(stdout, header)
	bad := false
	var rows []*row
	for _, c := range cfgs {
		r, err := m.measure(context.Background(), c)
		if err != nil {
			fmt.Fprintf(stderr, "statefultable: %s/%s: %v\n", c.sys, c.harness, err)
			return 2
		}
		fmt.Fprintln(stdout, r.markdown())
		if len(r.problems) > 0 {
			bad = true
			fmt.Fprintf(stderr, "statefultable: %s/%s: %s\n", c.sys, c.harness, strings.Join(r.problems, "; "))
		}
		rows = append(rows, r)
	}
	fmt.Fprint(stdout, "\n"+summary(rows))
	if bad {
		return 1
	}
	return 0
}

// ravelPackage is the command the table measures when -ravel names no binary.
const ravelPackage = "github.com/ravelmc/ravel/cmd/ravel"

// buildRavel builds ravelPackage into dir with the go command, from the module the
// current directory is in, and returns the binary's path.
func buildRavel(dir string, stderr io.Writer) (string, error) {
	bin := filepath.Join(dir, "ravel")
	cmd := exec.Command("go", "build", "-o", bin, ravelPackage)
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building %s (run this from Ravel's module, or give -ravel): %w", ravelPackage, err)
	}
	return bin, nil
}
