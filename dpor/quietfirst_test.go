package dpor

import (
	"slices"
	"testing"

	"github.com/ravelmc/ravel/model"
)

// sendsPath is a Path whose last node's events send to the actors sends says, and that
// counts the events it was asked about.
type sendsPath struct {
	nodes []Node
	sends []uint64
	asked int
	fails []int // events whose step fails (Lookahead)
}

// NextFingerprint makes event k lead to the state of fingerprint k+1.
func (p *sendsPath) NextFingerprint(k int) (uint64, bool) {
	return uint64(k + 1), !slices.Contains(p.fails, k)
}

func (p *sendsPath) Nodes() []Node { return p.nodes }
func (p *sendsPath) Next(k int) *StepInfo {
	p.asked++
	return &StepInfo{Event: p.nodes[len(p.nodes)-1].Enabled[k], SendsTo: p.sends[k]}
}

// TestFirstEventIsAQuietActors checks the rule of quietfirst.go: a new state starts with
// an awake event of the quiet actor (one no enabled event at another actor sends to) with
// fewest enabled events, else of any actor: the one whose step sends to the most actors,
// the first among equals.
func TestFirstEventIsAQuietActors(t *testing.T) {
	to := func(actors ...model.ID) []Event {
		evs := make([]Event, len(actors))
		for i, a := range actors {
			evs[i] = Event{ID: uint64(i + 1), Kind: Message, To: a}
		}
		return evs
	}
	bit := actorBits
	for _, tc := range []struct {
		name    string
		enabled []Event
		sends   []uint64
		asleep  []int
		explore bool
		want    int
		asks    bool  // whether the rule had to look at what events send
		visited []int // events that lead to a state visited before
		fails   []int
		woken   bool // want the event woken
	}{
		{"one actor: the first event, nothing run", to(1, 1), []uint64{bit(0), bit(2)}, nil, true, 0, false, nil, nil, false},
		{"actor 0 is sent to, actor 1 is quiet", to(0, 1), []uint64{0, bit(0)}, nil, true, 1, true, nil, nil, false},
		{"both quiet: fewest enabled first", to(0, 0, 1), []uint64{0, 0, 0}, nil, true, 2, true, nil, nil, false},
		{"both quiet, as many: the lower actor", to(1, 0), []uint64{0, 0}, nil, true, 1, true, nil, nil, false},
		{"a send to oneself does not count", to(0, 0, 1), []uint64{0, 0, bit(1)}, nil, true, 2, true, nil, nil, false},
		{"none quiet, as loud: the first awake", to(0, 1), []uint64{bit(1), bit(0)}, nil, true, 0, true, nil, nil, false},
		{"none quiet: the loudest awake", to(0, 1, 2), []uint64{bit(1), bit(0, 2), bit(0)}, nil, true, 1, true, nil, nil, false},
		{"the quiet actor's loudest event", to(0, 0, 1, 1, 1), []uint64{bit(2), bit(2, 3), 0, 0, 0}, nil, true, 1, true, nil, nil, false},
		{"the quiet actor's events as loud: the first", to(0, 0, 1, 1, 1), []uint64{bit(2), bit(3), 0, 0, 0}, nil, true, 0, true, nil, nil, false},
		{"the quiet actor's loudest awake event", to(0, 0, 1, 1, 1), []uint64{bit(2), bit(2, 3), 0, 0, 0}, []int{1}, true, 0, true, nil, nil, false},
		{"the quiet actor's first awake event", to(0, 1, 1), []uint64{bit(2), bit(0), 0}, []int{1}, true, 2, true, nil, nil, false},
		{"an asleep actor is not chosen", to(0, 1, 1, 2, 2), []uint64{0, 0, 0, 0, 0}, []int{0}, true, 1, true, nil, nil, false},
		{"every event asleep", to(0, 1), []uint64{0, 0}, []int{0, 1}, true, -1, false, nil, nil, false},
		{"a state not explored: the first awake, nothing run", to(0, 1), []uint64{0, bit(0)}, nil, false, 0, false, nil, nil, false},
		{"the asleep quiet actor's event leads to a visited state: woken", to(0, 1, 1), []uint64{0, 0, 0}, []int{0}, true, 0, true, []int{0}, nil, true},
		{"its first event, woken", to(0, 0, 1, 1, 1), []uint64{0, 0, 0, 0, 0}, []int{0, 1}, true, 0, true, []int{0, 1}, nil, true},
		{"only its first event is looked at", to(0, 0, 1, 1, 1), []uint64{0, 0, 0, 0, 0}, []int{0, 1}, true, 2, true, []int{1}, nil, false},
		{"it leads to a new state: the quiet actor awake", to(0, 1, 1), []uint64{0, 0, 0}, []int{0}, true, 1, true, nil, nil, false},
		{"its step fails: the quiet actor awake", to(0, 1, 1), []uint64{0, 0, 0}, []int{0}, true, 1, true, []int{0}, []int{0}, false},
		{"an asleep actor that is sent to is not woken", to(0, 1, 1), []uint64{0, bit(0), 0}, []int{0}, true, 1, true, []int{0}, nil, false},
		{"one actor awake, the other quiet and asleep", to(0, 1), []uint64{0, 0}, []int{0}, true, 0, true, []int{0}, nil, true},
		{"asleep, not quiet, and no awake actor quiet: the first awake", to(0, 1), []uint64{bit(1), bit(0)}, []int{0}, true, 1, true, []int{0}, nil, false},
		{"the quiet actor asleep, not woken: the loudest awake", to(0, 1, 2), []uint64{0, bit(2), bit(1, 3)}, []int{0}, true, 2, true, nil, nil, false},
		{"a state not explored: none woken", to(0, 1, 1), []uint64{0, 0, 0}, []int{0}, false, 1, false, []int{0}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := Node{Enabled: tc.enabled}
			for _, e := range tc.asleep {
				n.Sleep.Add(e)
			}
			p := &sendsPath{nodes: []Node{n}, sends: tc.sends, fails: tc.fails}
			s := StatefulDPOR(History()).(*stateful)
			for _, e := range tc.visited {
				s.g.state(uint64(e + 1))
			}
			got := s.firstEvent(p, &p.nodes[0], tc.explore)
			if got != tc.want {
				t.Errorf("first event %d, want %d", got, tc.want)
			}
			if woken := s.woken >= 0; woken != tc.woken || woken && s.woken != got {
				t.Errorf("woke event %d, want woken %v", s.woken, tc.woken)
			}
			if got >= 0 && p.nodes[0].Sleep.Has(got) {
				t.Errorf("first event %d is still asleep", got)
			}
			if got := p.asked > 0; got != tc.asks {
				t.Errorf("asked what %d events send, want asked %v", p.asked, tc.asks)
			}
			old := StatefulDPOROldestFirst(History()).(*stateful)
			first := -1
			for e := range tc.enabled {
				if !n.Sleep.Has(e) {
					first = e
					break
				}
			}
			p.nodes[0] = n // as it was before the rule woke an event
			if got := old.firstEvent(p, &p.nodes[0], tc.explore); got != first {
				t.Errorf("oldest first: %d, want %d", got, first)
			}
		})
	}
}

// TestWakingAlwaysAndNever checks the variants the oracles run: a quiet actor's sleeping
// event woken whatever state it leads to, and never.
func TestWakingAlwaysAndNever(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     Revisiter
		want  int
		woken bool
	}{
		{"always", StatefulDPORWakingAlways(History()), 0, true},
		{"never", StatefulDPORWithoutWaking(History()), 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := Node{Enabled: []Event{{ID: 1, Kind: Message, To: 0}, {ID: 2, Kind: Message, To: 1}, {ID: 3, Kind: Message, To: 1}}}
			n.Sleep.Add(0)
			p := &sendsPath{nodes: []Node{n}, sends: []uint64{0, 0, 0}}
			s := tc.s.(*stateful)
			s.g.state(1) // event 0 leads to a visited state: only "never" passes it by
			if tc.name == "always" {
				s.g = NewGraph() // and now to a new one
			}
			if got := s.firstEvent(p, &p.nodes[0], true); got != tc.want || (s.woken >= 0) != tc.woken {
				t.Errorf("first event %d, woken %d; want %d, woken %v", got, s.woken, tc.want, tc.woken)
			}
		})
	}
}

// TestRaceFirstStepLeavesOutWokenEvents checks firstNotAfter (stateful.go): the first
// step of the path after a race's step i that does not happen after it, leaving out a
// step whose event was asleep at i's node (woken below it by the quiet actor's rule) and
// the steps after that one.
func TestRaceFirstStepLeavesOutWokenEvents(t *testing.T) {
	ev := func(id uint64) Event { return Event{ID: id, Kind: Message} }
	step := func(id uint64, before ...int) StepInfo {
		si := StepInfo{Event: ev(id)}
		for _, b := range before {
			si.Before.Add(b)
		}
		return si
	}
	const a, w, b, c, x = 1, 2, 3, 4, 5
	for _, tc := range []struct {
		name   string
		asleep bool       // w asleep at node 0
		steps  []StepInfo // the steps of nodes 1.. (node 0's is a)
		want   int
	}{
		{"w not asleep: the first step not after a", false, []StepInfo{step(w), step(c, 1), step(b)}, 1},
		{"w asleep: it and c, sent by it, left out", true, []StepInfo{step(w), step(c, 1), step(b)}, 3},
		{"a step after a is not the first", true, []StepInfo{step(x, 0), step(b)}, 2},
		{"every step left out or after a", true, []StepInfo{step(w), step(c, 1), step(x, 0)}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes := []Node{{Enabled: []Event{ev(a), ev(w), ev(b)}, Tried: []StepInfo{step(a)}}}
			if tc.asleep {
				nodes[0].Sleep.Add(1)
			}
			for _, st := range tc.steps {
				nodes = append(nodes, Node{Enabled: []Event{st.Event}, Tried: []StepInfo{st}})
			}
			nodes = append(nodes, Node{}) // the revisited state
			s := StatefulDPOR(History()).(*stateful)
			if got := s.firstNotAfter(nodes, 0, len(nodes)-1); got != tc.want {
				t.Errorf("first step not after step 0: %d, want %d", got, tc.want)
			}
		})
	}
}

// TestRaceReversalLeavesOutWokenEvents checks source DPOR's race rule (source.races) at
// a node where an event is asleep: an initial of the reversal notdep(e)·d that is asleep
// at e's node and is not d itself was woken below the node by the quiet actor's rule
// (under sleep sets alone a sleeping event runs below the node only after a dependent
// step, which would put that step before it or after e). It neither stands for the
// reversal nor makes the race handled when the node's backtrack set already holds it,
// as in firstNotAfter; d asleep there is the sleep set's own case, covered by the
// schedules explored before.
func TestRaceReversalLeavesOutWokenEvents(t *testing.T) {
	// a, w, y and d go to actors 1, 2, 3 and 1: under the actor relation only a and d
	// are dependent, so w and y are not after a, and the reversal of (a, d) is w·y·d
	// (or y·d) with every step an initial.
	ev := func(id uint64, to int) Event { return Event{ID: id, Kind: Message, To: model.ID(to), Parent: -1} }
	a, w, y, d := ev(1, 1), ev(2, 2), ev(3, 3), ev(4, 1)
	const ka, kw, ky, kd = 0, 1, 2, 3 // their places in node 0's Enabled
	for _, tc := range []struct {
		name      string
		path      []Event // the steps after a
		asleep    []int   // asleep at node 0
		backtrack []int   // node 0's backtrack set before the race
		want      []int   // after
	}{
		{"nothing asleep: the first initial", []Event{w, d}, nil, []int{ka}, []int{ka, kw}},
		{"an initial to be explored: handled", []Event{w, d}, nil, []int{ka, kw}, []int{ka, kw}},
		{"woken w: d instead", []Event{w, d}, []int{kw}, []int{ka}, []int{ka, kd}},
		{"woken w in the backtrack set: not handled", []Event{w, d}, []int{kw}, []int{ka, kw}, []int{ka, kw, kd}},
		{"woken w: the next initial", []Event{w, y, d}, []int{kw}, []int{ka, kw}, []int{ka, kw, ky}},
		{"d asleep: covered", []Event{w, d}, []int{kw, kd}, []int{ka, kd}, []int{ka, kd}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes := []Node{{Enabled: []Event{a, w, y, d}, Tried: []StepInfo{{Event: a}}}}
			for _, k := range tc.asleep {
				nodes[0].Sleep.Add(k)
			}
			for _, k := range tc.backtrack {
				nodes[0].Backtrack.Add(k)
			}
			for _, e := range tc.path {
				nodes = append(nodes, Node{Enabled: []Event{e}, Tried: []StepInfo{{Event: e}}})
			}
			s := &source{dep: Actor()}
			for i := range tc.path {
				s.before(nodes, i+1)
			}
			s.races(nodes, len(tc.path))
			var got []int
			nodes[0].Backtrack.Each(func(k int) { got = append(got, k) })
			if !slices.Equal(got, tc.want) {
				t.Errorf("node 0's backtrack set %v, want %v", got, tc.want)
			}
		})
	}
}

// actorBits is the set of actors as a bit set, as the rules keep what events send.
func actorBits(actors ...int) uint64 {
	var b uint64
	for _, a := range actors {
		b |= 1 << a
	}
	return b
}
