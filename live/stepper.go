package live

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// stepper is the test engine's loop: when the cluster has been quiet for the wait
// duration it takes one step — deliver the message the sampler picks, or, with the
// faults' probability and while budgets last, inject a fault (drop that message instead,
// crash a node, restart a crashed one, partition the network, heal it).
type stepper struct {
	cfg     *Config
	nw      *Network
	procs   *Procs
	sampler Sampler
	chooser Chooser // the faults' draws
	run     int
	stop    chan struct{}
	t0      time.Time

	mu       sync.Mutex
	faultsOn bool

	seen      MsgID // messages below seen were announced to the sampler
	pending   []MsgID
	delivered [][]Message // recent deliveries to each node, for causality
	downSince []time.Time // zero when up
	steps     int
	faults    FaultCounts
	events    []string
}

func (s *stepper) enableFaults() {
	s.mu.Lock()
	s.faultsOn = true
	s.mu.Unlock()
}

func (s *stepper) faultsEnabled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faultsOn
}

func (s *stepper) logf(format string, args ...any) {
	s.events = append(s.events, fmt.Sprintf("%5d %9.3fms ", s.steps, float64(time.Since(s.t0).Microseconds())/1000)+fmt.Sprintf(format, args...))
}

func describe(m Message) string {
	from := "?"
	if m.From >= 0 {
		from = fmt.Sprintf("n%d", m.From)
	}
	return fmt.Sprintf("m%d %s→n%d %s", m.ID, from, m.To, m.Summary)
}

func (s *stepper) loop() {
	n := s.procs.N()
	s.delivered = make([][]Message, n)
	s.downSince = make([]time.Time, n)
	wait := s.cfg.Scheduler.Wait
	for {
		// Quiet: no step for wait, so that what the last step caused has been sent.
		select {
		case <-s.stop:
			return
		case <-time.After(wait):
		}
		held := s.nw.Held()
		s.announce(held)
		if s.faultsEnabled() && s.fault(held) {
			continue
		}
		if len(held) == 0 {
			select {
			case <-s.stop:
				return
			case <-s.nw.Arrived():
			case <-time.After(20 * wait):
			}
			continue
		}
		enabled := make([]MsgID, len(held))
		for i, m := range held {
			enabled[i] = m.ID
		}
		id := s.sampler.Next(enabled)
		m := held[slices.IndexFunc(held, func(m Message) bool { return m.ID == id })]
		s.steps++
		if !s.nw.Deliver(id) {
			s.logf("gone %s", describe(m)) // cut by a fault meanwhile
			continue
		}
		s.logf("deliver %s", describe(m))
		if m.To >= 0 {
			d := append(s.delivered[m.To], m)
			if len(d) > 16 {
				d = d[1:]
			}
			s.delivered[m.To] = d
		}
		s.sampler.Delivered(id, s.pending)
		s.pending = nil
	}
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

// fault injects a fault when the draw says so and one is enabled; it reports whether it
// took the step.
func (s *stepper) fault(held []Message) bool {
	f := s.cfg.Faults
	n := s.procs.N()
	// A node down longer than restart_after is restarted, so that the cluster recovers.
	for i := range n {
		if !s.downSince[i].IsZero() && time.Since(s.downSince[i]) > f.Restart {
			s.restart(i)
			return true
		}
	}
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
	s.steps++
	switch kinds[s.chooser.IntN(len(kinds))] {
	case "drop":
		enabled := make([]MsgID, len(held))
		for i, m := range held {
			enabled[i] = m.ID
		}
		id := s.sampler.Next(enabled)
		m := held[slices.IndexFunc(held, func(m Message) bool { return m.ID == id })]
		if s.nw.Drop(id) {
			s.faults.Drop++
			s.logf("drop %s", describe(m))
			s.sampler.Delivered(id, s.pending)
			s.pending = nil
		}
	case "crash":
		i := up[s.chooser.IntN(len(up))]
		pid := s.procs.Pid(i)
		cut := s.nw.SetDown(i, true)
		if err := s.procs.Crash(i); err != nil {
			s.logf("crash n%d failed: %v", i, err)
			return true
		}
		s.downSince[i] = time.Now()
		s.faults.Crash++
		s.logf("crash n%d (pid %d; %d held messages to it cut)", i, pid, cut)
	case "restart":
		s.restart(down[s.chooser.IntN(len(down))])
	case "partition":
		mask := s.chooser.IntN(1<<n-2) + 1 // a non-empty proper subset of the nodes
		group := make([]int, n)
		for i := range group {
			group[i] = mask >> i & 1
		}
		cut := s.nw.Partition(group)
		s.faults.Partition++
		s.logf("partition %v (%d held messages cut)", group, cut)
	case "heal":
		s.nw.Heal()
		s.faults.Heal++
		s.logf("heal")
	}
	return true
}

func (s *stepper) restart(i int) {
	s.nw.SetDown(i, false)
	if err := s.procs.Start(i); err != nil {
		s.logf("restart n%d failed: %v", i, err)
		return
	}
	s.downSince[i] = time.Time{}
	s.faults.Restart++
	s.logf("restart n%d (pid %d)", i, s.procs.Pid(i))
}
