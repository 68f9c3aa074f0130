// Package raveltest checks a user's system from `go test`, the way Go's fuzzing does:
//
//	func TestRegister(t *testing.T) {
//		sys, _ := register.New(2, "2r1w")
//		raveltest.Check(t, sys)
//	}
//
// Check explores the system's schedules; on a violation it fails the test with the
// history (each invocation and response marked with the step that caused it) and the
// schedule, and saves the counterexample under testdata/ravel/<TestName>/ in the format of
// `ravel check --out`. Every later run replays the saved counterexamples first, so a
// fixed bug stays fixed; delete a file to forget it.
//
// Check searches systematically, exhaustive search by default (Strategy picks another),
// or samples schedules at random with one of package samplers' randomized samplers
// (Sampler, with Seed), which aim at bugs of small depth with a stated chance per run:
//
//	raveltest.Check(t, sys, raveltest.Sampler(samplers.TaPCT(samplers.Options{Depth: 2})), raveltest.Seed(1), raveltest.Budget(2_000))
//
// Under `go test -v`, Check logs one line on what it covered: the schedules explored and
// whether the search was complete (if not, why), the workloads checked, a sampler's hits
// and bound, the saved counterexamples replayed.
package raveltest

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/internal/panicsite"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/snapshot"
	"github.com/ravelmc/ravel/wgl"
	"github.com/ravelmc/ravel/workloads"
)

// ShortBudget is the schedule budget under `go test -short` when no Budget option is
// given.
const ShortBudget = 2_000

// Option configures Check. Check applies its options in order: of two that set the
// same thing, the later wins (Options sets them all). A nil Option is skipped.
type Option func(*config)

type config struct {
	opts    explorer.Options
	budget  int64
	dir     string
	explore bool
	gen     *workloads.Generator
	harness string
}

// Budget bounds the schedules explored (explorer.Unlimited for none), or a sampler's
// runs, which must be bounded: a sampler never ends by itself. The default is
// explorer.DefaultMaxSchedules, or ShortBudget under -short.
func Budget(schedules int64) Option { return func(c *config) { c.budget = schedules } }

// Strategy sets the search strategy; the default is dpor.Exhaustive(). Check fails a
// test given both Strategy and Sampler.
func Strategy(s dpor.Strategy) Option { return func(c *config) { c.opts.Strategy = s } }

// Sampler samples schedules with one of package samplers' randomized samplers
// (docs/samplers.md) instead of a search: independent runs, run r drawn from (Seed, r),
// until Budget runs or the first violation, where a failing test stops (its hit rate
// would take the rest of the budget; ravel check measures it). A failure names the seed
// and run, which repeat it; with -v, a clean check logs its hits and the sampler's bound. The other options keep their values;
// Check fails a test given both Sampler and Strategy.
func Sampler(cfg *samplers.Config) Option { return func(c *config) { c.opts.Sampling = cfg } }

// Seed sets a sampler's seed (explorer.Options.Seed); the default is 0.
func Seed(seed int64) Option { return func(c *config) { c.opts.Seed = seed } }

// MaxDepth bounds the length of a schedule (explorer.Options.MaxDepth).
func MaxDepth(steps int) Option { return func(c *config) { c.opts.MaxDepth = steps } }

// StateCaching ends a path at a state already visited (explorer.Options.StateCaching), so
// a search with Budget(explorer.Unlimited) completes on a finite state space, cycles
// included: with the default exhaustive search, or with dpor.Optimal (stateful DPOR,
// fewer states, the same canonical histories). The other options keep their values.
func StateCaching(on bool) Option { return func(c *config) { c.opts.StateCaching = on } }

// Options sets every explorer option at once, MaxSchedules and Minimize among them: an
// Options without Minimize set turns off the shrinking Check does by default. Options
// apply in order, the later winning: Options replaces what Budget, Strategy, Sampler,
// Seed, StateCaching, MaxDepth and Minimize given before it set, and those given after
// it change one option alone.
func Options(o explorer.Options) Option {
	return func(c *config) { c.opts, c.budget = o, 0 }
}

// Dir sets the directory of saved counterexamples; the default is
// testdata/ravel/<TestName> under the test's package directory.
func Dir(path string) Option { return func(c *config) { c.dir = path } }

// Workloads checks the system's actors under every workload g generates (over the
// harness's distinct inputs) instead of its own harness; the failure names the workload.
// Check fails a test whose g makes no workload (g.Validate: Ops, Clients, or a random
// g's N, below 1), with the words of ravel check --workloads.
func Workloads(g workloads.Generator) Option { return func(c *config) { c.gen = &g } }

// Minimize sets whether the first violation's schedule is shrunk (delta debugging, as
// `ravel check --minimize`) before it is reported and saved; it is by default.
func Minimize(on bool) Option { return func(c *config) { c.opts.Minimize = on } }

// MaxStates bounds the distinct states a search with StateCaching visits
// (explorer.Options.MaxStates); without StateCaching Check fails the test.
func MaxStates(states int64) Option { return func(c *config) { c.opts.MaxStates = states } }

// Harness names the harness sys was built with, as the ravelcli.System that lists sys
// names it, so that a saved counterexample records it and `replay` replays it under that
// harness. Without it the file records the harness only by what its clients do, and
// `replay` takes, among the system's harnesses with those clients, the one whose replay
// reproduces the file.
func Harness(name string) Option { return func(c *config) { c.harness = name } }

// ReplayOnly replays the saved counterexamples and explores nothing.
func ReplayOnly() Option { return func(c *config) { c.explore = false } }

// Check replays every counterexample saved for this test, then explores sys, and fails t
// on the first violation found, saving it. A systematic search (the default, or a
// Strategy but random) does not stop there: it goes on to its end or its Budget, as
// ravel check does, so a failing test takes as long as a passing one (bound it with
// Budget); a Sampler, and the random strategy, stop at the first violation. It returns the exploration's result (nil when a
// saved counterexample failed, or with ReplayOnly). When the violation's schedule,
// replayed from the initial state, does not reach the same state, a handler is not
// deterministic and the violation may not be the system's: the failure says so with
// `ravel check`'s line, report.NotReplayedWarning.
func Check(t testing.TB, sys model.System, options ...Option) *explorer.Result {
	t.Helper()
	c := config{explore: true, opts: explorer.Options{Minimize: true}}
	for _, o := range options {
		if o != nil { // a nil Option sets nothing, as ravelcli's
			o(&c)
		}
	}
	if c.dir == "" {
		c.dir = filepath.Join("testdata", "ravel", sanitize(t.Name()))
	}
	budgetFrom := "raveltest.Budget"
	switch {
	case c.budget != 0:
		c.opts.MaxSchedules = c.budget
	case c.opts.MaxSchedules == 0 && testing.Short():
		c.opts.MaxSchedules, budgetFrom = ShortBudget, "raveltest.ShortBudget, under -short"
	case c.opts.MaxSchedules == 0:
		budgetFrom = "explorer.DefaultMaxSchedules; raveltest.Budget sets another"
	default:
		budgetFrom = "explorer.Options.MaxSchedules"
	}
	if err := sys.Validate(); err != nil {
		t.Fatalf("raveltest: %v", err)
		return nil
	}
	if c.opts.Sampling != nil && c.opts.MaxSchedules == explorer.Unlimited {
		// explorer.Run refuses it too, naming its own option; a test sets Budget.
		t.Fatalf("raveltest: %s: the %s strategy never ends by itself: give it a budget with raveltest.Budget", sys.Name, c.opts.Sampling.Name)
		return nil
	}
	if c.gen != nil {
		// A generator that makes no workload would check nothing, and pass.
		if err := c.gen.Over(&sys).Validate(); err != nil {
			t.Fatalf("raveltest: %s: %v", sys.Name, err)
			return nil
		}
	}
	failed, corpus := replayCorpus(t, sys, c.dir, c.gen)
	switch {
	case failed:
		return nil
	case !c.explore:
		t.Logf("raveltest: %s: %s; nothing explored (ReplayOnly)", sys.Name, cmp.Or(corpus, "no saved counterexample in "+c.dir))
		return nil
	}
	res, workload, ws, err := explore(sys, c)
	if err != nil {
		t.Fatalf("raveltest: exploring %s: %v%s", sys.Name, err, cachingLost(c, options))
		return nil
	}
	logReflectiveCopies(t, &sys, res, c.opts.Reflective)
	logSummary(t, sys.Name, corpus, res, ws, c, budgetFrom)
	if res.First == nil {
		checkAnswered(t, &sys, res, ws != nil)
		return res
	}
	if res.First.OfModel() {
		// Ravel could not check the system as written: a test failure, but no
		// counterexample of the protocol to replay on every later run.
		t.Errorf("raveltest: %s: Ravel could not check the system as written, at step %d of schedule %s (not saved as a counterexample: it is not a bug in the protocol): %s\n%s",
			sys.Name, len(res.First.Steps), report.Thousands(res.First.Schedule), res.First.Message,
			report.TextMode(&sys, res.First.Steps, res.First.Events, c.opts.Reflective))
		return res
	}
	// A workload's operations index the harness's alphabet, not its own system's.
	alphabet := sys.Harness.Alphabet()
	if workload != nil {
		sys = workload.system
	}
	v := report.NewViolation(&sys, res.First)
	// Agents counts the actors: a replay file names at least one (report.Read).
	// The budgets as ravel check --out records them, its flags' values: 0 is no limit.
	info := report.RunInfo{System: sys.Name, Agents: len(sys.Actors), Strategy: res.Strategy, Dependence: res.Dependence, Seed: c.opts.Seed,
		MaxSchedules: fileBudget(c.opts.MaxSchedules, explorer.DefaultMaxSchedules), MaxStates: c.opts.MaxStates, MaxDepth: int(fileBudget(int64(c.opts.MaxDepth), explorer.DefaultMaxDepth)),
		Stateless: c.opts.Stateless, StateCaching: c.opts.StateCaching, CanonicalStates: c.opts.CanonicalStates, Faults: report.FaultsOf(&sys), Reflective: c.opts.Reflective}
	if st := res.Sampling; st != nil {
		// A sampler session: the seed it drew its runs from (the random strategy's own),
		// and, for a sampler of package samplers, its dependence, as ravel check records.
		info.Seed = st.Seed
		if c.opts.Sampling != nil {
			info.Dependence = st.Dependence
		}
	}
	// The harness has a name only when the test gives one (Harness); the file records what
	// it does too, which a replay checks.
	info.Harness = c.harness
	info.Clients = report.Clients(&sys)
	under := ""
	if workload != nil {
		info.Workload = workload.w.Name
		under = fmt.Sprintf(" under workload %s (%s)", workload.w.Name, workload.w.Describe(&sys, alphabet))
	}
	path := filepath.Join(c.dir, name(res.First.Steps))
	saved := ""
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		saved = fmt.Sprintf("could not save the counterexample: %v", err)
	} else if err := report.WriteFile(path, info, v, res.First.Fingerprint); err != nil {
		saved = fmt.Sprintf("could not save the counterexample: %v", err)
	} else {
		// ravel knows only its own systems: a user's are in the user's command (ravelcli).
		saved = fmt.Sprintf("saved to %s: every later run replays it first; to draw it, run the replay subcommand, %q, of a command built on ravelcli that lists system %q (ravel itself for Ravel's own systems)",
			path, "replay "+path+" --html report.html", sys.Name)
	}
	found := ""
	if st := res.Sampling; st != nil {
		// A sampler's run is repeated from its seed and run (docs/samplers.md).
		found = fmt.Sprintf(", %s seed %d run %d, where sampling stopped", st.Sampler, st.Seed, st.FirstHitRun)
	}
	warning := ""
	if !res.First.Replayed {
		warning = report.NotReplayedWarning + "\n"
	}
	t.Errorf("raveltest: %s%s: %s (schedule %s of %s explored%s%s)\n%s\n%s%s", sys.Name, under, what(res.First), report.Thousands(int64(res.First.Schedule)), report.Thousands(res.Stats.Schedules), found, report.MinimizedNote(res.First),
		report.TextMode(&sys, res.First.Steps, res.First.Events, c.opts.Reflective), warning, saved)
	return res
}

type failingWorkload struct {
	w      workloads.Workload
	system model.System
}

// fileBudget is a budget of explorer.Options (0: def, explorer.Unlimited: none) as ravel
// check's flags, and the files it writes, give it (0: none).
func fileBudget(n, def int64) int64 {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// workloadsRun sums up a check on generated workloads.
type workloadsRun struct {
	generated int
	out       *workloads.Outcome
}

// explore runs the search, on the system's harness or on generated workloads (then ws
// says how many were generated and checked).
func explore(sys model.System, c config) (res *explorer.Result, failing *failingWorkload, ws *workloadsRun, err error) {
	// A failing test wants its violation, not a sampler's hit rate: a sampler stops at
	// its first (a search goes on to its budget, and finds the earliest).
	c.opts.StopAtFirst = true
	if c.gen == nil {
		res, err := explorer.Run(context.Background(), sys, c.opts)
		return res, nil, nil, err
	}
	all, err := c.gen.ForContext(context.Background(), &sys)
	if err != nil {
		return nil, nil, nil, err
	}
	out, err := workloads.Check(context.Background(), sys, all, nil, c.opts)
	if err != nil {
		return nil, nil, nil, err
	}
	ws = &workloadsRun{generated: len(all), out: out}
	if out.Failing == nil {
		res := &explorer.Result{Complete: out.Complete == out.Checked}
		res.Stats.Schedules, res.Stats.Answered = out.Schedules, out.Answered
		return res, nil, ws, nil
	}
	return out.Result, &failingWorkload{w: *out.Failing, system: out.System}, ws, nil
}

// logSummary logs, for -v, one line on what Check covered: the saved counterexamples
// replayed, then the search's schedules and status in ravel check's words, or the
// workloads checked, or a sampler's hits and bound.
func logSummary(t testing.TB, name, corpus string, res *explorer.Result, ws *workloadsRun, c config, budgetFrom string) {
	t.Helper()
	var parts []string
	if corpus != "" {
		parts = append(parts, corpus)
	}
	switch st := res.Sampling; {
	case ws != nil:
		o := ws.out
		parts = append(parts, fmt.Sprintf("workloads %s: %s generated, %s checked (%s explored completely), %s",
			c.gen, report.Thousands(int64(ws.generated)), report.Thousands(int64(o.Checked)), report.Thousands(int64(o.Complete)), report.Count(o.Schedules, "schedule")))
	case st != nil && res.First != nil:
		// It stopped at its first hit (StopAtFirst): a hit rate would mean nothing.
		parts = append(parts, fmt.Sprintf("sampler %s seed %d: stopped at the first violation, run %d, after %s of the budget's %s runs",
			st.Sampler, st.Seed, st.FirstHitRun, report.Thousands(st.Runs), report.Thousands(fileBudget(c.opts.MaxSchedules, explorer.DefaultMaxSchedules))))
	case st != nil:
		// ravel check's sampler report, its first rows on one line.
		line := fmt.Sprintf("sampler %s seed %d runs %d…%d: hits %s of %s, hit rate %.4f [%.4f, %.4f] (95%% Wilson interval)",
			st.Sampler, st.Seed, st.FirstRun, int64(st.FirstRun)+st.Runs-1, report.Thousands(st.Hits), report.Thousands(st.Runs), st.HitRate, st.WilsonLo, st.WilsonHi)
		if b := st.Bound; b != nil {
			line += fmt.Sprintf("; bound at observed %s %.3g = %s with d=%d, %s=%d, %s=%d", b.KName, b.P, b.Formula, b.D, b.NName, b.N, b.KName, b.K)
		}
		parts = append(parts, line)
	default:
		line := report.Count(res.Stats.Schedules, "schedule")
		if c.opts.StateCaching {
			line += ", " + report.Thousands(res.Stats.States) + " states"
		}
		parts = append(parts, line+"; search: "+searchStatus(res, c, budgetFrom))
	}
	t.Logf("raveltest: %s: %s", name, strings.Join(parts, "; "))
}

// checkAnswered fails t when the search saw no operation answered: every history was
// all open, which any specification accepts, so the test checked nothing (most often a
// handler whose type switch names another model.Request[I] than the harness sends). It
// logs, without failing, a search in which some operations were never answered, or every
// schedule left one unanswered: faults, timeouts and budgets may do that.
func checkAnswered(t testing.TB, sys *model.System, res *explorer.Result, perWorkload bool) {
	t.Helper()
	st := res.Stats
	switch {
	case st.Schedules == 0:
	case st.Answered == 0:
		t.Errorf("raveltest: %s: %s", sys.Name, report.Unanswered(sys.Harness, st))
	case perWorkload:
		// Each workload has its own operations: only the sum is known.
	default:
		if note := report.Unanswered(sys.Harness, st); note != "" {
			t.Logf("raveltest: %s: note: %s", sys.Name, note)
		}
	}
}

// searchStatus is ravel check's status line (its printCheck), with the budgets named as
// a test sets them instead of by their flags.
func searchStatus(res *explorer.Result, c config, budgetFrom string) string {
	st := res.Stats
	maxS := fileBudget(c.opts.MaxSchedules, explorer.DefaultMaxSchedules)
	switch {
	case res.Complete:
		return "complete — every schedule the strategy selects was explored"
	case st.Interrupted:
		return "interrupted — the figures cover the schedules explored so far"
	case c.opts.MaxStates > 0 && st.States >= c.opts.MaxStates:
		return fmt.Sprintf("incomplete — stopped at the state budget (MaxStates %s)", report.Thousands(c.opts.MaxStates))
	case st.Cut > 0 && (maxS == 0 || st.Schedules < maxS):
		were := "schedules were"
		if st.Cut == 1 {
			were = "schedule was"
		}
		return fmt.Sprintf("incomplete — %s %s cut at the depth budget (MaxDepth %s)", report.Thousands(st.Cut), were, report.Thousands(fileBudget(int64(c.opts.MaxDepth), explorer.DefaultMaxDepth)))
	}
	return fmt.Sprintf("incomplete — stopped at the schedule budget (%s, %s)", report.Thousands(maxS), budgetFrom)
}

// replayCorpus replays the files of dir in name order and reports on t those that still
// fail, and those found under a workload that gen (the test's Workloads, nil for none)
// does not generate; it returns whether any did.
//
// summary says, for the log, how many files were replayed and how many skipped (a
// counterexample of a system that no longer exists); "" when dir has none.
func replayCorpus(t testing.TB, sys model.System, dir string, gen *workloads.Generator) (failed bool, summary string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatalf("raveltest: %v", err)
		return true, ""
	}
	sort.Strings(files)
	skipped := 0
	defer func() {
		if len(files) == 0 {
			return
		}
		summary = fmt.Sprintf("%s replayed from %s", plural(len(files)-skipped, "saved counterexample"), dir)
		if skipped > 0 {
			summary += fmt.Sprintf(", %d skipped (no longer applies)", skipped)
		}
	}()
	for _, path := range files {
		f, ids, err := report.ReadFile(path)
		if err != nil {
			t.Errorf("raveltest: saved counterexample %v", err)
			failed = true
			continue
		}
		if err := sameWorkloads(f, &sys, gen); err != nil {
			t.Errorf("raveltest: %s: saved counterexample %s cannot be replayed: %v; delete it if the test's workloads changed on purpose", sys.Name, path, err)
			failed = true
			continue
		}
		s := sys
		if f.Run.Workload != "" {
			if s, _, err = workloads.Lookup(sys, f.Run.Workload); err != nil {
				t.Logf("raveltest: saved counterexample %s no longer applies: %v", path, err)
				skipped++
				continue
			}
		}
		if err := f.CheckClients(&s); err != nil {
			t.Errorf("raveltest: %s: saved counterexample %s cannot be replayed: %v; delete it if the test's harness changed on purpose", sys.Name, path, err)
			failed = true
			continue
		}
		// The identities are those of the fingerprint the file's run used.
		ex, err := explorer.Replay(s, ids, f.Run.Reflective)
		if err != nil {
			// The system no longer sends what the schedule delivers: the counterexample
			// is about a system that no longer exists.
			t.Logf("raveltest: saved counterexample %s no longer applies: %v", path, err)
			skipped++
			continue
		}
		if msg := judge(&s, ex); msg != "" {
			t.Errorf("raveltest: %s: saved counterexample %s still fails: %s\n%s", sys.Name, path, msg, report.TextMode(&s, ex.Steps, ex.Events, f.Run.Reflective))
			failed = true
		}
	}
	return failed, ""
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return report.Thousands(int64(n)) + " " + what + "s"
}

// sameWorkloads refuses a file found under a workload that gen, the test's generator
// (nil: the test checks its harness), does not generate: replayed, it would fail the
// test on clients the test does not ask for.
func sameWorkloads(f report.File, sys *model.System, gen *workloads.Generator) error {
	if f.Run.Workload == "" {
		return nil
	}
	if gen == nil {
		return fmt.Errorf("it was found under the workload %s, but the test checks its harness %q (no raveltest.Workloads)", f.Run.Workload, report.Clients(sys))
	}
	name, _, _ := strings.Cut(f.Run.Workload, "#")
	if g, err := workloads.Parse(name); err != nil || g.String() != gen.String() {
		return fmt.Errorf("it was found under the workload %s, but the test checks the workloads %s", f.Run.Workload, gen)
	}
	return nil
}

// cachingLost explains a search that needs StateCaching (MaxStates) and has it off
// although StateCaching(true) was given: an option after it — raveltest.Options, which
// sets every explorer option — turned it off (probe T3). "" otherwise.
func cachingLost(c config, options []Option) string {
	if c.opts.MaxStates <= 0 || c.opts.StateCaching {
		return ""
	}
	for _, o := range options {
		var alone config
		if o != nil {
			o(&alone)
		}
		if alone.opts.StateCaching {
			return " (raveltest.StateCaching(true) was given, but an option after it turned it off: raveltest.Options(…) sets every explorer option, StateCaching among them, and options apply in order; put Options first, or set StateCaching in it)"
		}
	}
	return ""
}

// judge says what is wrong with a replayed execution, or "".
func judge(sys *model.System, ex *explorer.Execution) string {
	if ex.Failure != "" {
		return ex.Failure
	}
	res := wgl.Check(sys.Harness.Spec().Spec, histories.Operations(sys.Harness, ex.Events))
	switch {
	case res.Err != nil:
		return fmt.Sprintf("the history has no verdict: %v", res.Err)
	case res.Verdict == wgl.NotLinearizable:
		return "the history is not linearizable"
	}
	return ""
}

func what(v *explorer.Violation) string {
	if v.Kind == "nonlinearizable" {
		return "the history is not linearizable"
	}
	if at := panicsite.InStack(v.Stack); at != "" {
		return v.Kind + ": " + v.Message + " (at " + at + ")"
	}
	return v.Kind + ": " + v.Message
}

// name names a counterexample by its schedule, so that finding it again overwrites it.
func name(steps []explorer.Delivery) string {
	h := fnv.New64a()
	for _, d := range steps {
		fmt.Fprintf(h, "%016x,", d.ID)
	}
	return fmt.Sprintf("%016x.json", h.Sum64())
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// logReflectiveCopies tells a test run with -v (or one that fails) which of sys's actor
// types each step copied by reflection, the most of a step's cost: a Clone method would
// make the test several times faster. Nothing when every actor has one, or when the
// test asked for the reflective copy.
func logReflectiveCopies(t testing.TB, sys *model.System, res *explorer.Result, reflective bool) {
	t.Helper()
	if reflective {
		return
	}
	if names := (snapshot.Mode{}).ReflectiveCopies(sys.Actors); len(names) > 0 {
		steps := fmt.Sprintf("each of the %d steps", res.Stats.Steps)
		if res.Stats.Steps == 0 {
			steps = "each step" // a workloads run does not count its steps
		}
		t.Logf("raveltest: %s: %s copied by reflection at %s (no Clone() model.Actor method); a Clone method makes a step several times cheaper",
			sys.Name, strings.Join(names, ", "), steps)
	}
}
