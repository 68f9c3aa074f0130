package live

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/wgl"
)

// Report is what a session found. Its Iterations keep their History and
// Schedule.Steps only for the first violation and the last iteration: the others' are
// in their directories (history-kN.jsonl, schedule.json), and a long session's memory
// does not grow with them.
type Report struct {
	Seed       uint64
	Iterations []IterationReport
	Violations int // iterations whose history is not linearizable
	NodeExits  int // nodes that exited on their own, over every iteration (IterationReport.Exits)
}

// IterationReport is one iteration: its history's verdict, its counts and its files.
type IterationReport struct {
	Run     int         // the iteration's number (in a replay, the replayed one's)
	Verdict wgl.Verdict // the history's, Unknown when unchecked (an error, an interruption)
	Ops     int         // operations in the history
	Open    int         // of which open (timed out or unknown outcome)
	// LeftOut is the operations issued but left out of the history, having certainly
	// had no effect: reads that did not answer, operations the service refused.
	LeftOut  int
	Steps    int           // scheduler steps (deliveries and faults)
	Net      Counts        // the messages of the iteration's network
	Faults   FaultCounts   // the faults injected
	Duration time.Duration // from the iteration's start to its end, check included
	Dir      string        // the iteration's directory, OUTPUT/iter-NNN (replay-NNN)
	Started  []int         // pids of every process the iteration started
	Leftover []int         // of those, any alive after the iteration (must be none)
	// Result is the linearizability check of History (for a violation, the failing key
	// as Result.Partition); Verdict is its verdict.
	Result   wgl.Result
	History  []Op     // the operations, in the order they were recorded
	Schedule Schedule // the steps executed
	// Followed and Diverged count, in a replay, the recorded steps re-imposed and those
	// skipped because their message never showed up.
	Followed, Diverged int
	// TimedOut says workload.iteration_timeout stopped the workload before every client
	// had issued its operations; Planned is how many they were to issue (clients × ops).
	TimedOut bool
	Planned  int
	// Exits are the nodes whose process ended on its own during the workload (not a
	// crash Ravel injected), "n1 (signal: killed)": a failure of the system under test
	// whatever the history's verdict.
	Exits []string
	// AlsoFailing are the keys other than Result.Partition (the first found failing)
	// whose operations are not linearizable either, in order.
	AlsoFailing []string
	// WorkloadStart is when the workload began, after the iteration began: the
	// histories' times count from the one, events.txt's from the other.
	WorkloadStart time.Duration
	// Partial says the run was interrupted during this iteration's workload: History is
	// what the clients had done by then (operations in flight open), written to Dir
	// unchecked (Verdict Unknown) for ravel lincheck.
	Partial bool
}

// FaultCounts counts the faults injected in an iteration.
type FaultCounts struct {
	Drop, Crash, Restart, Partition, Heal int
}

// Run runs cfg's session: cfg.Iterations iterations, each starting the cluster afresh,
// driving the workload under the scheduler and the faults, stopping every process and
// checking the history. logw receives one line per iteration. A *ConfigError is a bad
// config (including a node that never becomes healthy); ctx's error is an interruption.
// cfg.Earlier, when set, is removed once the first iteration's nodes are all healthy,
// and put back when that iteration ends before (in place of what it wrote under the
// same names).
// Every process started is stopped before Run returns, whatever happens; the report
// holds every iteration begun, the interrupted or failed one last.
func Run(ctx context.Context, cfg *Config, logw io.Writer) (*Report, error) {
	rep := &Report{Seed: cfg.Seed}
	out := cfg.OutputDir()
	first := -1 // the first violation's index in rep.Iterations
	for it := range cfg.Iterations {
		// The iteration before is on disk: only its counts and verdict stay in memory,
		// unless it is the first violation (which the report draws).
		if k := len(rep.Iterations) - 1; k >= 0 && k != first {
			rep.Iterations[k].History, rep.Iterations[k].Schedule.Steps = nil, nil
		}
		run, name := it, fmt.Sprintf("iter-%03d", it)
		if cfg.Replay != nil {
			rep.Seed = cfg.Replay.Seed
			run, name = cfg.Replay.Run, fmt.Sprintf("replay-%03d", it)
		}
		ir, err := runIteration(ctx, cfg, filepath.Join(out, name), run)
		rep.Iterations = append(rep.Iterations, ir)
		if it == 0 {
			// The earlier session's results go only once this one has started.
			var eerr error
			if ir.WorkloadStart > 0 {
				eerr = cfg.Earlier.Remove()
			} else {
				eerr = cfg.Earlier.Restore()
			}
			if err == nil {
				err = eerr
			}
		}
		if err != nil {
			return rep, err
		}
		if ir.Verdict == wgl.NotLinearizable {
			rep.Violations++
			if first < 0 {
				first = len(rep.Iterations) - 1
			}
		}
		rep.NodeExits += len(ir.Exits)
		replay := ""
		if cfg.Replay != nil {
			replay = fmt.Sprintf(" replay %d: %d recorded steps re-imposed, %d diverged;", it, ir.Followed, ir.Diverged)
		}
		fmt.Fprint(logw, iterationLine(cfg, rep.Seed, replay, ir))
		for _, w := range iterationWarnings(cfg, ir) {
			fmt.Fprintf(logw, "iteration %d: warning: %s\n", run, w)
		}
		if len(ir.Leftover) > 0 {
			return rep, fmt.Errorf("live: iteration %d left processes alive: %v", it, ir.Leftover)
		}
		if cfg.StopOnViolation && (ir.Verdict == wgl.NotLinearizable || len(ir.Exits) > 0) {
			break
		}
	}
	return rep, nil
}

// OutputDir is the directory the session writes in: cfg.Output, relative to the
// config's directory.
func (cfg *Config) OutputDir() string {
	if !filepath.IsAbs(cfg.Output) && cfg.Dir != "" {
		return filepath.Join(cfg.Dir, cfg.Output)
	}
	return cfg.Output
}

func translator(cfg *Config) Translator {
	switch cfg.Network.Protocol {
	case "etcd":
		return Etcd()
	case "tcp":
		return LengthPrefixed{}
	}
	h := HTTP{}
	if cfg.Network.SenderHeader != "" {
		h.Sender = HeaderSender(cfg.Network.SenderHeader)
	}
	return h
}

func newClient(cfg *Config, v NodeVars) Client {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	if cfg.Workload.Client == "etcd" {
		return &EtcdClient{URLs: v.ClientURLs, HTTP: hc}
	}
	return &KVNodeClient{URLs: v.ClientURLs, HTTP: hc}
}

func runIteration(ctx context.Context, cfg *Config, dir string, run int) (ir IterationReport, err error) {
	t0 := time.Now()
	ir.Run = run
	ir.Dir = dir
	if err := os.RemoveAll(ir.Dir); err != nil {
		return ir, fmt.Errorf("live: %w", err)
	}
	if err := os.MkdirAll(ir.Dir, 0o755); err != nil {
		return ir, &ConfigError{Field: "output", Msg: err.Error()}
	}
	ps, err := cfg.allocPorts()
	if err != nil {
		return ir, err
	}
	n := cfg.Nodes.Count
	nw := NewNetwork(n)
	var ics []*Interceptor
	var cmds []NodeCommand
	var vars []NodeVars
	for i := range n {
		v := cfg.vars(i, ps, filepath.Join(ir.Dir, fmt.Sprintf("n%d", i)))
		vars = append(vars, v)
		argv, err := cfg.renderCommand(v)
		if err != nil {
			return ir, err
		}
		if strings.Contains(argv[0], "/") && !filepath.IsAbs(argv[0]) && cfg.Dir != "" {
			argv[0] = filepath.Join(cfg.Dir, argv[0])
		}
		cmds = append(cmds, NodeCommand{Argv: argv, Env: cfg.Nodes.Env, DataDir: v.DataDir, LogPath: v.DataDir + ".log"})
	}
	procs := NewProcs(cmds)
	seed := cfg.Seed
	st := &stepper{cfg: cfg, nw: nw, procs: procs, run: run, stop: make(chan struct{}), t0: t0}
	if cfg.Replay != nil {
		seed = cfg.Replay.Seed
		st.replay, st.script = true, replayScript(cfg.Replay)
	}
	var wg sync.WaitGroup
	// Whatever happens, stop the scheduler, every process and every interceptor, then
	// check that no process is left.
	defer func() {
		close(st.stop)
		wg.Wait()
		if st.faultsEnabled() {
			st.checkExits() // a node that died after the stepper's last pass
		}
		ir.Exits = st.exits
		if e := procs.Stop(); e != nil && err == nil {
			err = e
		}
		nw.Close()
		for _, ic := range ics {
			ic.Close()
		}
		ir.Started = procs.Started()
		ir.Leftover = Alive(ir.Started)
		ir.Steps, ir.Faults, ir.Net = st.steps, st.faults, nw.Counts()
		ir.Followed, ir.Diverged = st.followed, st.diverged
		ir.Schedule = Schedule{Seed: seed, Run: run, Steps: st.executed, Startup: st.startupSteps(), WorkloadStartMs: millis(ir.WorkloadStart)}
		ir.Duration = time.Since(t0)
		if werr := writeEvents(ir.Dir, st.events, ir.Schedule); werr != nil && err == nil {
			err = werr
		}
		passed := err == nil && ir.Verdict == wgl.Linearizable && len(ir.Exits) == 0
		if cfg.KeepData == "none" || cfg.KeepData != "all" && passed {
			for _, v := range vars {
				if rerr := os.RemoveAll(v.DataDir); rerr != nil && err == nil {
					err = fmt.Errorf("live: %w", rerr)
				}
			}
		}
	}()
	tr := translator(cfg)
	for i := range n {
		ic, err := Intercept(nw, i, fmt.Sprintf("127.0.0.1:%d", ps[i].proxy), fmt.Sprintf("127.0.0.1:%d", ps[i].peer), tr)
		if err != nil {
			return ir, cfgErr("nodes.base_port", "%v", err)
		}
		ics = append(ics, ic)
	}
	sampler, err := NewSampler(cfg.Scheduler.Type, cfg.Scheduler.Depth, cfg.Scheduler.Events)
	if err != nil {
		return ir, cfgErr("scheduler.type", "%v", err)
	}
	st.sampler = sampler
	sampler.Begin(run, NewChooser(seed, run))
	st.chooser = NewChooser(seed^0xfa017, run) // faults draw from a stream of their own
	wg.Add(1)
	go func() { defer wg.Done(); st.loop() }()
	if cfg.Progress != nil {
		wg.Add(1)
		go func() { defer wg.Done(); st.reportProgress(nw) }()
	}
	for i := range n {
		if err := procs.Start(i); err != nil {
			return ir, cfgErr("nodes.command", "%v", err)
		}
	}
	if err := waitHealthy(ctx, cfg, vars, procs); err != nil {
		return ir, err
	}
	workStart := time.Now()
	ir.WorkloadStart = workStart.Sub(t0)
	st.enableFaults(workStart)
	wctx, cancel := context.WithTimeout(ctx, cfg.Workload.Iteration)
	defer cancel()
	w := cfg.Workload
	hist, err := Workload{Client: newClient(cfg, vars[0]), Nodes: n, Clients: w.Clients, Ops: w.Ops, Keys: w.Keys,
		Values: w.Values, ReadPercent: readPercent(w.Reads), OpTimeout: w.OpTimeout, Think: w.ThinkTime, Seed: seed, Run: run,
		Start: workStart, Counts: &st.ops}.Drive(wctx)
	if err != nil {
		return ir, err // Config.Validate makes a workload Drive runs
	}
	ir.Planned, ir.TimedOut = w.Clients*w.Ops, wctx.Err() != nil
	ir.History = hist
	ir.Ops, ir.LeftOut = len(hist), int(st.ops.LeftOut.Load())
	for _, op := range hist {
		if op.Open {
			ir.Open++
		}
	}
	if err := ctx.Err(); err != nil {
		// Interrupted: what the clients did is kept, unchecked, for ravel lincheck.
		ir.Partial, ir.TimedOut = true, false
		if werr := writePartialHistory(ir.Dir, hist, ir.WorkloadStart); werr != nil {
			return ir, werr
		}
		return ir, err
	}
	ir.Result = wgl.CheckContext(ctx, Spec(), hist)
	ir.Verdict = ir.Result.Verdict
	ir.AlsoFailing = otherFailingKeys(ctx, hist, ir.Result)
	if err := writeHistory(ir.Dir, hist, ir.WorkloadStart, ir.Result, ir.AlsoFailing); err != nil {
		return ir, err
	}
	return ir, nil
}

// reportProgress writes a progress line to cfg.Progress at every tick until the
// iteration ends: how long it has run, steps, operations done, messages, faults.
func (s *stepper) reportProgress(nw *Network) {
	tick := s.cfg.progressTick
	if tick == nil {
		every := s.cfg.ProgressEvery
		if every <= 0 {
			every = 5 * time.Second
		}
		t := time.NewTicker(every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-s.stop:
			return
		case <-tick:
		}
		fmt.Fprint(s.cfg.Progress, progressLine(s.run, time.Since(s.t0), s.faultsEnabled(), s.progress(), s.ops.Done.Load(), s.ops.LeftOut.Load(), nw.Counts()))
	}
}

// progressLine is a running iteration's progress line.
func progressLine(run int, elapsed time.Duration, working bool, p progressSnap, done, leftOut int64, c Counts) string {
	n := func(v int64) string { return report.Thousands(v) }
	ops := "starting the nodes"
	if working {
		ops = n(done) + " operations done"
		if leftOut > 0 {
			ops += fmt.Sprintf(" (%s failed, left out)", n(leftOut))
		}
	}
	return fmt.Sprintf("iteration %d: running for %s: %s steps, %s; messages %s intercepted, %s delivered; %s\n",
		run, elapsed.Round(time.Second), n(int64(p.steps)), ops, n(int64(c.Intercepted)), n(int64(c.Delivered)), p.faults.Describe())
}

// millis is d in ms to the µs, as events.txt writes its times.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// writePartialHistory saves the history of an interrupted iteration, unchecked: the
// history files as a finished iteration has them, and a verdict.txt that says how to
// check them.
func writePartialHistory(dir string, hist []Op, origin time.Duration) error {
	verdict := fmt.Sprintf("not checked: the run was interrupted during the workload; history.txt and history-KEY.jsonl hold the %d operations done by then (those in flight open): ravel lincheck --spec cas-register --format ravel %s\n",
		len(hist), filepath.Join(dir, "history-*.jsonl"))
	err := errors.Join(writeHistoryText(dir, hist, origin), writeLincheckHistories(dir, hist),
		os.WriteFile(filepath.Join(dir, "verdict.txt"), []byte(verdict), 0o644))
	if err != nil {
		return fmt.Errorf("live: %w", err)
	}
	return nil
}

// waitHealthy waits for every node to answer its health check.
func waitHealthy(ctx context.Context, cfg *Config, vars []NodeVars, procs *Procs) error {
	deadline := time.Now().Add(cfg.Nodes.StartTimeout)
	hc := &http.Client{Timeout: 500 * time.Millisecond}
	defer hc.CloseIdleConnections()
	for i, v := range vars {
		url := ""
		if cfg.Nodes.Health != "" {
			u, err := render(cfg.Nodes.Health, v)
			if err != nil {
				return cfgErr("nodes.health", "%v", err)
			}
			url = u
		}
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			if e, exited := procs.Exited(i); exited {
				return cfgErr("nodes.command", "node %d exited before becoming healthy (%v); its log %s ends:\n%s", i, e, v.DataDir+".log", tail(v.DataDir+".log"))
			}
			if healthy(hc, url, v.ClientPort) {
				break
			}
			if time.Now().After(deadline) {
				what := fmt.Sprintf("TCP connect to client port %d", v.ClientPort)
				if url != "" {
					what = "GET " + url
				}
				return cfgErr("nodes.health", "node %d never became healthy within %s (nodes.start_timeout; %s); its log %s ends:\n%s",
					i, cfg.Nodes.StartTimeout, what, v.DataDir+".log", tail(v.DataDir+".log"))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

func healthy(hc *http.Client, url string, port int) bool {
	if url == "" {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond)
		if err != nil {
			return false
		}
		c.Close()
		return true
	}
	resp, err := hc.Get(url)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode/100 == 2
}

// tail is the last lines of a log, for error messages.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "  (" + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	return "  " + strings.Join(lines, "\n  ")
}

// writeEvents saves the readable event log and the schedule a replay re-imposes.
func writeEvents(dir string, events []string, sched Schedule) error {
	b, err := json.MarshalIndent(sched, "", " ")
	if err != nil {
		return fmt.Errorf("live: %w", err)
	}
	if err := errors.Join(
		os.WriteFile(filepath.Join(dir, "events.txt"), []byte(strings.Join(events, "\n")+"\n"), 0o644),
		os.WriteFile(filepath.Join(dir, "schedule.json"), b, 0o644),
	); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	return nil
}

// LoadSchedule reads a schedule.json written by an iteration and checks it with
// Validate(0): a file with no steps, an unknown op or an unknown field is refused, the
// error naming path. A ravel check counterexample (a --out file) is refused with an
// error that says to use ravel replay.
func LoadSchedule(path string) (*Schedule, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var kind struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(b, &kind) == nil && strings.HasPrefix(kind.Format, "ravel-violation/") {
		return nil, fmt.Errorf("%s is a ravel check counterexample (%s): replay it with `ravel replay %s`; --replay takes the schedule.json of a ravel run iteration", path, kind.Format, path)
	}
	var s Schedule
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: not the schedule.json of a ravel run iteration: %w", path, err)
	}
	if err := s.Validate(0); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// otherFailingKeys checks, when res is a violation, every key but the failing one
// res names (the check stops at the first), and returns those not linearizable either,
// sorted: each key's operations are independent of the others'.
func otherFailingKeys(ctx context.Context, hist []Op, res wgl.Result) []string {
	if res.Verdict != wgl.NotLinearizable {
		return nil
	}
	byKey := map[string][]Op{}
	for _, op := range hist {
		if op.Input.Key != res.Partition {
			byKey[op.Input.Key] = append(byKey[op.Input.Key], op)
		}
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		if wgl.CheckContext(ctx, Spec(), byKey[k]).Verdict == wgl.NotLinearizable {
			out = append(out, k)
		}
	}
	return out
}

// writeHistory saves the history and the verdict, and for a violation the operations on
// the failing key in call order, the stuck one marked, and the other keys that fail.
func writeHistory(dir string, hist []Op, origin time.Duration, res wgl.Result, also []string) error {
	errs := []error{writeHistoryText(dir, hist, origin), writeLincheckHistories(dir, hist)}
	verdict := res.Verdict.String() + "\n"
	if res.Verdict == wgl.NotLinearizable {
		verdict += RenderViolation(hist, res)
		for _, k := range also {
			verdict += fmt.Sprintf("key %s: not linearizable either (its time line: ravel lincheck --spec cas-register --format ravel --html PAGE history-%s.jsonl)\n", k, k)
		}
	}
	errs = append(errs, os.WriteFile(filepath.Join(dir, "verdict.txt"), []byte(verdict), 0o644))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	return nil
}

// writeHistoryText writes history.txt: one operation a line, in the order recorded.
// Its header says where its time origin, the workload's start, is in events.txt's.
func writeHistoryText(dir string, hist []Op, origin time.Duration) error {
	spec := Spec()
	var b strings.Builder
	fmt.Fprintf(&b, "# times in ns since the workload began, %.3fms into the iteration (events.txt's times; its line \"workload starts\")\n",
		float64(origin.Microseconds())/1000)
	fmt.Fprintf(&b, "# client call_ns return_ns operation output (%s)\n", spec.Name)
	for _, op := range hist {
		outS := spec.Output(op.Input, op.Output)
		ret := fmt.Sprint(op.Return)
		if op.Open {
			outS, ret = "open", "-"
		}
		fmt.Fprintf(&b, "c%d %d %s %s %s\n", op.Client, op.Call, ret, spec.Input(op.Input), outS)
	}
	return os.WriteFile(filepath.Join(dir, "history.txt"), []byte(b.String()), 0o644)
}

// RenderViolation draws the failing key's operations on a time line (one row per
// operation in call order, its span between call and return), the linearizable prefix
// numbered and the operation that cannot follow it marked.
func RenderViolation(hist []Op, res wgl.Result) string {
	spec := Spec()
	var idx []int
	for i, op := range hist {
		if op.Input.Key == res.Partition {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return ""
	}
	order := map[int]int{}
	for k, i := range res.Prefix {
		order[i] = k + 1
	}
	lo, hi := hist[idx[0]].Call, hist[idx[0]].Call
	for _, i := range idx {
		lo = min(lo, hist[i].Call)
		hi = max(hi, hist[i].Call, hist[i].Return)
	}
	const width = 60
	col := func(t int64) int { return int((t - lo) * width / max(hi-lo, 1)) }
	var b strings.Builder
	ops := "operations"
	if len(res.Prefix) == 1 {
		ops = "operation"
	}
	fmt.Fprintf(&b, "key %s: no linearization; the longest linearizable prefix has %d %s (#1…), then %s cannot follow\n",
		res.Partition, len(res.Prefix), ops, spec.Input(hist[res.Stuck].Input))
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(hist[a].Call, hist[b].Call) })
	for _, i := range idx {
		op := hist[i]
		mark := "   "
		if k, ok := order[i]; ok {
			mark = fmt.Sprintf("#%-2d", k)
		}
		if i == res.Stuck {
			mark = "!! "
		}
		s, e := col(op.Call), col(op.Return)
		outS := spec.Output(op.Input, op.Output)
		if op.Open {
			e, outS = width, "(open)"
		}
		label := fmt.Sprintf("c%-2d %-22s", op.Client, spec.Input(op.Input))
		fmt.Fprintf(&b, "%s %s %s%s%s %s\n", mark, label, strings.Repeat(" ", s), "├"+strings.Repeat("─", max(e-s-1, 0))+"┤", strings.Repeat(" ", max(width-e, 0)), outS)
	}
	return b.String()
}

// readPercent is the workload's share of reads: the configured one, or -1 (a third each
// of reads, writes and compare-and-sets) when read_percent is left out.
func readPercent(configured *int) int {
	if configured == nil {
		return -1
	}
	return *configured
}
