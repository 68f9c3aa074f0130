package live

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Step is one executed step of an iteration, as recorded in schedule.json and re-imposed
// by a replay: a delivery or drop (of the message with that sender, receiver and kind;
// sender -1 when the translator could not tell), or a fault: crash or restart of Node,
// partition into Group (Group[i] is node i's side: [0 1 0] cuts n1 off from n0 and n2),
// heal. schedule.json holds every field its op uses, zeros included (MarshalJSON); a
// field left out reads as zero, as older files wrote them.
type Step struct {
	Op    string `json:"op"` // deliver, drop, crash, restart, partition, heal
	Msg   MsgID  `json:"msg,omitempty"`
	From  int    `json:"from,omitempty"`
	To    int    `json:"to,omitempty"`
	Kind  string `json:"kind,omitempty"`
	Node  int    `json:"node,omitempty"`
	Group []int  `json:"group,omitempty"`
}

// MarshalJSON writes the fields s.Op uses, every one even when zero: a delivery from n0
// of m0 reads "from":0, not as a step with no sender.
func (s Step) MarshalJSON() ([]byte, error) {
	switch s.Op {
	case "deliver", "drop":
		return json.Marshal(struct {
			Op   string `json:"op"`
			Msg  MsgID  `json:"msg"`
			From int    `json:"from"`
			To   int    `json:"to"`
			Kind string `json:"kind"`
		}{s.Op, s.Msg, s.From, s.To, s.Kind})
	case "crash", "restart":
		return json.Marshal(struct {
			Op   string `json:"op"`
			Node int    `json:"node"`
		}{s.Op, s.Node})
	case "partition":
		return json.Marshal(struct {
			Op    string `json:"op"`
			Group []int  `json:"group"`
		}{s.Op, s.Group})
	}
	type plain Step // every field, without this method
	return json.Marshal(plain(s))
}

// nodeName is how events and the replay log write a node: n2, or ? for a sender the
// translator could not tell.
func nodeName(i int) string {
	if i < 0 {
		return "?"
	}
	return fmt.Sprintf("n%d", i)
}

// partitionString writes a partition's groups as events.txt shows them:
// [0 1 0] is "{n0 n2} | {n1}".
func partitionString(group []int) string {
	var sides []int
	members := map[int][]string{}
	for i, g := range group {
		if _, ok := members[g]; !ok {
			sides = append(sides, g)
		}
		members[g] = append(members[g], nodeName(i))
	}
	var parts []string
	for _, g := range sides {
		parts = append(parts, "{"+strings.Join(members[g], " ")+"}")
	}
	return strings.Join(parts, " | ")
}

// Schedule is the executed steps of one iteration: what a replay re-imposes, with the
// seed and iteration that fix the workload.
type Schedule struct {
	Seed  uint64 `json:"seed"`
	Run   int    `json:"run"`
	Steps []Step `json:"steps"`
	// Startup is how many of Steps were taken while the cluster started, before every
	// node was healthy. A replay does not re-impose them: it lets start-up traffic
	// through as the sampler picks it, as the run did (with no faults then), because a
	// starting cluster's messages come on its timers (etcd's election), not in the
	// recorded order, and holding all but the next recorded one kept etcd from ever
	// electing a leader. (0 in files written before it was recorded.)
	Startup int `json:"startup"`
	// WorkloadStartMs is when the workload began, in ms since the iteration began:
	// events.txt's times count from the iteration's start (its line "workload starts"
	// is at this time), the histories' from the workload's. (0 when the workload never
	// began, and in files written before it was recorded.)
	WorkloadStartMs float64 `json:"workload_start_ms,omitempty"`
}

// stepOps are the operations a step may have.
var stepOps = []string{"deliver", "drop", "crash", "restart", "partition", "heal"}

// Validate reports what makes s not a schedule a replay of a cluster of nodes nodes can
// re-impose: no steps, an unknown op, or a node out of range (a sender may be -1,
// unknown; nodes ≤ 0 skips the range checks).
func (s *Schedule) Validate(nodes int) error {
	if len(s.Steps) == 0 {
		return errors.New("no steps (not the schedule.json of a ravel run iteration)")
	}
	if s.Startup < 0 || s.Startup >= len(s.Steps) {
		return fmt.Errorf("startup %d: want 0 to %d, fewer than the %d steps (a replay re-imposes the steps after start-up)", s.Startup, len(s.Steps)-1, len(s.Steps))
	}
	for i, st := range s.Steps {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("step %d (%s): %s", i, st.Op, fmt.Sprintf(format, args...))
		}
		if !slices.Contains(stepOps, st.Op) {
			return fmt.Errorf("step %d: unknown op %q (valid: %s)", i, st.Op, strings.Join(stepOps, ", "))
		}
		if nodes <= 0 {
			continue
		}
		switch st.Op {
		case "deliver", "drop":
			if st.From < -1 || st.From >= nodes {
				return bad("from %d: the cluster has nodes 0 to %d (-1: unknown sender)", st.From, nodes-1)
			}
			if st.To < 0 || st.To >= nodes {
				return bad("to %d: the cluster has nodes 0 to %d", st.To, nodes-1)
			}
		case "crash", "restart":
			if st.Node < 0 || st.Node >= nodes {
				return bad("node %d: the cluster has nodes 0 to %d", st.Node, nodes-1)
			}
		case "partition":
			if len(st.Group) != nodes {
				return bad("group %v: want one entry per node (%d)", st.Group, nodes)
			}
		}
	}
	return nil
}

// stepper is the test engine's loop: after the wait duration it takes one step — deliver
// the message the sampler picks, or, with the faults' probability and while budgets last,
// inject a fault (drop that message instead, crash a node, restart a crashed one,
// partition the network, heal it). In a replay it re-imposes a recorded schedule instead.
type stepper struct {
	cfg     *Config
	nw      *Network
	procs   *Procs
	sampler Sampler
	chooser Chooser // the faults' draws
	run     int
	stop    chan struct{}
	t0      time.Time
	replay  bool   // a replay: follow script, never sample faults
	script  []Step // the recorded steps a replay has yet to re-impose

	mu        sync.Mutex
	faultsOn  bool      // set once every node is healthy: start-up is over
	workStart time.Time // with faultsOn: the workload's time origin
	snap      progressSnap
	ops       DriveCounts // the workload's running counts, for progress lines

	seen      MsgID // messages below seen were announced to the sampler
	pending   []MsgID
	delivered [][]Message // recent deliveries to each node, for causality
	downSince []time.Time // zero when up
	partSince time.Time   // when the partition in force began; zero when whole
	exits     []string    // nodes that exited on their own, "n1 (exit status 2)", in order
	exited    []int       // their indices
	steps     int
	faults    FaultCounts
	events    []string
	executed  []Step
	startup   int       // steps executed before every node was healthy
	up        bool      // startup is counted
	followed  int       // replay: recorded steps re-imposed
	diverged  int       // replay: recorded deliveries whose message never showed up
	waiting   time.Time // replay: since when the next recorded message is awaited
}

// enableFaults ends start-up: every node is healthy, and the workload starts at
// workStart (its operations' times count from there).
func (s *stepper) enableFaults(workStart time.Time) {
	s.mu.Lock()
	s.faultsOn, s.workStart = true, workStart
	s.mu.Unlock()
}

func (s *stepper) faultsEnabled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faultsOn
}

// progressSnap is what a progress line reports of the stepper, copied under mu.
type progressSnap struct {
	steps  int
	faults FaultCounts
}

// progress is the stepper's counts so far, safe to call while it runs.
func (s *stepper) progress() progressSnap {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap
}

func (s *stepper) logf(format string, args ...any) {
	s.mu.Lock()
	s.snap = progressSnap{s.steps, s.faults}
	s.mu.Unlock()
	s.events = append(s.events, fmt.Sprintf("%5d %9.3fms ", s.steps, float64(time.Since(s.t0).Microseconds())/1000)+fmt.Sprintf(format, args...))
}

func describe(m Message) string {
	return fmt.Sprintf("m%d %s→%s %s", m.ID, nodeName(m.From), nodeName(m.To), m.Summary)
}

func (s *stepper) loop() {
	n := s.procs.N()
	s.delivered = make([][]Message, n)
	s.downSince = make([]time.Time, n)
	wait := s.cfg.Scheduler.Wait
	for {
		// Let what the last step caused be sent before the next.
		select {
		case <-s.stop:
			return
		case <-time.After(wait):
		}
		held := s.nw.Held()
		s.announce(held)
		if s.pass(held) {
			continue
		}
		select {
		case <-s.stop:
			return
		case <-s.nw.Arrived():
		case <-time.After(20 * wait):
		}
	}
}

// pass takes the next step with the messages held now, and reports whether it took one:
// in a replay the next recorded step; otherwise a restart due after restart_after or a
// heal due after heal_after (whatever is held: a partition that cuts every message
// leaves nothing held, and must end all the same), or,
// when a message is held, one scheduling decision — a fault, by the faults' draws, or
// the sampler's delivery. A pass with nothing held and nothing due is idle and draws
// nothing, so that a seed fixes the sequence of fault decisions whatever the number of
// idle passes (which depends on timing).
func (s *stepper) pass(held []Message) bool {
	healthy := s.faultsEnabled()
	if healthy && !s.up {
		s.up, s.startup = true, len(s.executed)
		s.mu.Lock()
		ws := s.workStart
		s.mu.Unlock()
		s.events = append(s.events, fmt.Sprintf("%5d %9.3fms workload starts: the histories' times (history.txt, history-kN.jsonl) count from here",
			s.steps, float64(ws.Sub(s.t0).Microseconds())/1000))
	}
	if healthy {
		s.checkExits() // before: a node that exits during start-up is a config error
	}
	if s.replay {
		// Start-up passes as the sampler picks it; the script starts once it is over.
		if len(s.script) > 0 && healthy {
			s.replayStep(held)
			return true
		}
	}
	if !s.replay && healthy && (s.restartDue() || s.healDue()) {
		return true
	}
	if len(held) == 0 {
		return false
	}
	if !s.replay && s.faultsEnabled() && s.fault(held) {
		return true
	}
	enabled := make([]MsgID, len(held))
	for i, m := range held {
		enabled[i] = m.ID
	}
	s.deliver(held, s.sampler.Next(enabled), false)
	return true
}

// restartDue restarts a node down longer than restart_after, so that the cluster
// recovers, and reports whether it did. It draws nothing.
func (s *stepper) restartDue() bool {
	for i := range s.downSince {
		if !s.downSince[i].IsZero() && time.Since(s.downSince[i]) > s.cfg.Faults.Restart {
			s.restart(i)
			return true
		}
	}
	return false
}

// checkExits notes every node whose process ended on its own (not crashed by Ravel)
// since the last check: a line in events.txt and an entry of exits. Such a node stays
// down (messages to it go nowhere) until the iteration ends; it is a failure of the
// system under test, not a fault Ravel injected. It draws nothing and takes no step.
func (s *stepper) checkExits() {
	for i := range s.procs.N() {
		err, exited := s.procs.Exited(i)
		if !exited || slices.Contains(s.exited, i) {
			continue
		}
		s.exited = append(s.exited, i)
		how := "exit status 0"
		if err != nil {
			how = err.Error()
		}
		s.exits = append(s.exits, fmt.Sprintf("n%d (%s)", i, how))
		s.logf("n%d exited on its own (%s; pid %d): not a crash Ravel injected", i, how, s.procs.Pid(i))
	}
}

// healDue heals a partition in force longer than heal_after, and reports whether it
// did. It draws nothing.
func (s *stepper) healDue() bool {
	if s.partSince.IsZero() || s.cfg.Faults.Heal <= 0 || time.Since(s.partSince) <= s.cfg.Faults.Heal {
		return false
	}
	s.heal()
	return true
}

// deliver delivers (or drops) held message id and tells the sampler.
func (s *stepper) deliver(held []Message, id MsgID, drop bool) {
	m := held[slices.IndexFunc(held, func(m Message) bool { return m.ID == id })]
	s.steps++
	op, ok := "deliver", false
	if drop {
		op, ok = "drop", s.nw.Drop(id)
	} else {
		ok = s.nw.Deliver(id)
	}
	if !ok {
		s.logf("gone %s", describe(m)) // cut by a fault meanwhile
		return
	}
	s.logf("%s %s", op, describe(m))
	s.executed = append(s.executed, Step{Op: op, Msg: m.ID, From: m.From, To: m.To, Kind: m.Kind})
	if drop {
		s.faults.Drop++
	} else if m.To >= 0 {
		d := append(s.delivered[m.To], m)
		if len(d) > 16 {
			d = d[1:]
		}
		s.delivered[m.To] = d
	}
	s.sampler.Delivered(id, s.pending)
	s.pending = nil
}

// announce tells the sampler about newly held messages, with the deliveries to their
// sender that happen before them.
func (s *stepper) announce(held []Message) {
	for _, m := range held {
		if m.ID < s.seen {
			continue
		}
		s.seen = m.ID + 1
		e := EventInfo{ID: m.ID, From: m.From, To: m.To, Kind: m.Kind}
		if m.From >= 0 && m.From < len(s.delivered) {
			for _, d := range s.delivered[m.From] {
				if HappensBefore(d, m) {
					e.After = append(e.After, d.ID)
				}
			}
		}
		s.sampler.Created(e)
		s.pending = append(s.pending, m.ID)
	}
}

// fault injects a fault instead of a delivery when the draw says so and one is enabled;
// it reports whether it took the step. It is called once per scheduling decision (with
// held not empty), never on idle passes.
func (s *stepper) fault(held []Message) bool {
	f := s.cfg.Faults
	n := s.procs.N()
	if f.Probability == 0 || float64(s.chooser.IntN(1_000_000)) >= f.Probability*1_000_000 {
		return false
	}
	var up, down []int
	for i := range n {
		if s.downSince[i].IsZero() {
			up = append(up, i)
		} else {
			down = append(down, i)
		}
	}
	var kinds []string
	if s.faults.Drop < f.Drop && len(held) > 0 {
		kinds = append(kinds, "drop")
	}
	if s.faults.Crash < f.Crash && len(up) > 0 {
		kinds = append(kinds, "crash")
	}
	if len(down) > 0 {
		kinds = append(kinds, "restart")
	}
	partitioned := s.nw.Partitioned()
	if s.faults.Partition < f.Partition && !partitioned && n > 1 {
		kinds = append(kinds, "partition")
	}
	if partitioned {
		kinds = append(kinds, "heal")
	}
	if len(kinds) == 0 {
		return false
	}
	switch kinds[s.chooser.IntN(len(kinds))] {
	case "drop":
		enabled := make([]MsgID, len(held))
		for i, m := range held {
			enabled[i] = m.ID
		}
		s.deliver(held, s.sampler.Next(enabled), true)
	case "crash":
		s.crash(up[s.chooser.IntN(len(up))])
	case "restart":
		s.restart(down[s.chooser.IntN(len(down))])
	case "partition":
		mask := s.chooser.IntN(1<<n-2) + 1 // a non-empty proper subset of the nodes
		group := make([]int, n)
		for i := range group {
			group[i] = mask >> i & 1
		}
		s.partition(group)
	case "heal":
		s.heal()
	}
	return true
}

func (s *stepper) crash(i int) {
	s.steps++
	pid := s.procs.Pid(i)
	cut := s.nw.SetDown(i, true)
	if err := s.procs.Crash(i); err != nil {
		s.logf("crash n%d failed: %v", i, err)
		return
	}
	s.downSince[i] = time.Now()
	s.faults.Crash++
	s.executed = append(s.executed, Step{Op: "crash", Node: i})
	s.logf("crash n%d (pid %d; %d held messages to it cut)", i, pid, cut)
}

func (s *stepper) restart(i int) {
	s.steps++
	s.nw.SetDown(i, false)
	if err := s.procs.Start(i); err != nil {
		s.logf("restart n%d failed: %v", i, err)
		return
	}
	s.downSince[i] = time.Time{}
	s.faults.Restart++
	s.executed = append(s.executed, Step{Op: "restart", Node: i})
	s.logf("restart n%d (pid %d)", i, s.procs.Pid(i))
}

func (s *stepper) partition(group []int) {
	s.steps++
	cut := s.nw.Partition(group)
	s.partSince = time.Now()
	s.faults.Partition++
	s.executed = append(s.executed, Step{Op: "partition", Group: group})
	s.logf("partition %v: %s (%d held messages cut)", group, partitionString(group), cut)
}

func (s *stepper) heal() {
	s.steps++
	s.nw.Heal()
	s.partSince = time.Time{}
	s.faults.Heal++
	s.executed = append(s.executed, Step{Op: "heal"})
	s.logf("heal")
}

// replayScript is the steps a replay of sched re-imposes: those after the cluster's
// start-up.
func replayScript(sched *Schedule) []Step {
	return slices.Clone(sched.Steps[min(max(sched.Startup, 0), len(sched.Steps)):])
}

// startupSteps is Schedule.Startup of the iteration the stepper ran: every step when
// the cluster never became healthy. Call it once the loop has returned.
func (s *stepper) startupSteps() int {
	if !s.up {
		return len(s.executed)
	}
	return s.startup
}

// replayStep re-imposes the next recorded step: a fault at once; a delivery or drop when
// a held message with the recorded sender, receiver and kind shows up (the oldest such;
// an unknown sender, recorded or held, matches any: the translator names etcd's senders
// only once it has seen a message to them, which timing decides),
// or, when none has for the patience, skipping it as diverged (real processes do not
// repeat themselves exactly).
func (s *stepper) replayStep(held []Message) {
	st := s.script[0]
	next := func() { s.script, s.waiting = s.script[1:], time.Time{} }
	switch st.Op {
	case "crash":
		s.crash(st.Node)
	case "restart":
		s.restart(st.Node)
	case "partition":
		s.partition(st.Group)
	case "heal":
		s.heal()
	default:
		i := slices.IndexFunc(held, func(m Message) bool {
			return (m.From == st.From || m.From < 0 || st.From < 0) && m.To == st.To && m.Kind == st.Kind
		})
		if i < 0 {
			if s.waiting.IsZero() {
				s.waiting = time.Now()
			}
			if time.Since(s.waiting) < s.cfg.Scheduler.Patience {
				return
			}
			s.diverged++
			s.logf("replay: no %s %s→%s %s within %s; skipped", st.Op, nodeName(st.From), nodeName(st.To), st.Kind, s.cfg.Scheduler.Patience)
			next()
			return
		}
		s.deliver(held, held[i].ID, st.Op == "drop")
	}
	s.followed++
	next()
}
