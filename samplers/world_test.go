package samplers

import (
	"fmt"
	"math"
	"slices"

	"github.com/ravelmc/ravel/model"
)

// tsys is an abstract fixed-structure system: every event has a receiver, and delivering
// it creates the same children in every state. It drives a Sampler through Drive, the
// loop the explorer uses.
type tsys struct {
	evs      []tev
	roots    []int
	children [][]int
}

type tev struct {
	name string
	to   int
	by   int // the event whose delivery creates this one; −1: a root
	racy bool
}

// build makes a system from "name@actor<-parent" lines (parent empty for roots); racy
// names the events of R.
func build(lines []string, racy ...string) *tsys {
	s := &tsys{}
	byName := map[string]int{}
	for _, l := range lines {
		var e tev
		name, rest, _ := cut(l, "@")
		to, parent, _ := cut(rest, "<-")
		e.name = name
		fmt.Sscan(to, &e.to)
		e.by = -1
		if parent != "" {
			p, ok := byName[parent]
			if !ok {
				panic("unknown parent " + parent)
			}
			e.by = p
		}
		e.racy = slices.Contains(racy, name)
		byName[name] = len(s.evs)
		s.evs = append(s.evs, e)
	}
	s.children = make([][]int, len(s.evs))
	for i, e := range s.evs {
		if e.by < 0 {
			s.roots = append(s.roots, i)
		} else {
			s.children[e.by] = append(s.children[e.by], i)
		}
	}
	return s
}

func cut(s, sep string) (string, string, bool) {
	for i := 0; i+len(sep) <= len(s); i++ {
		if s[i:i+len(sep)] == sep {
			return s[:i], s[i+len(sep):], true
		}
	}
	return s, "", false
}

func (s *tsys) event(i int) Event {
	e := Event{ID: uint64(i + 1), To: model.ID(s.evs[i].to), Racy: s.evs[i].racy}
	if p := s.evs[i].by; p >= 0 {
		e.After = []uint64{uint64(p + 1)}
	}
	return e
}

// before reports whether event a is causally before event b.
func (s *tsys) before(a, b int) bool {
	for p := s.evs[b].by; p >= 0; p = s.evs[p].by {
		if p == a {
			return true
		}
	}
	return false
}

type tworld struct {
	s       *tsys
	pending []int
	order   []int
	buf     []uint64
}

func (w *tworld) start() []Event {
	w.pending, w.order = w.pending[:0], w.order[:0]
	var out []Event
	for _, r := range w.s.roots {
		w.pending = append(w.pending, r)
		out = append(out, w.s.event(r))
	}
	return out
}

func (w *tworld) Enabled() []uint64 {
	w.buf = w.buf[:0]
	for _, p := range w.pending {
		w.buf = append(w.buf, uint64(p+1))
	}
	return w.buf
}

func (w *tworld) Deliver(id uint64) ([]Event, bool) {
	i := int(id - 1)
	k := slices.Index(w.pending, i)
	if k < 0 {
		panic(fmt.Sprintf("delivered %d, not enabled", i))
	}
	w.pending = slices.Delete(w.pending, k, k+1)
	w.order = append(w.order, i)
	var out []Event
	for _, c := range w.s.children[i] {
		w.pending = append(w.pending, c)
		out = append(out, w.s.event(c))
	}
	return out, true
}

// run runs one run of s under sampler sm with chooser c and returns the delivery order.
func (s *tsys) run(sm Sampler, c Chooser) []int {
	w := &tworld{s: s}
	init := w.start()
	Drive(w, sm, 0, c, init, 1000)
	return w.order
}

// enumerator is a Chooser that enumerates every sequence of draws, each IntN(k) draw
// taken with weight 1/k: an odometer over the draws of one run.
type enumerator struct {
	script []int
	ks     []int
	pos    int
	p      float64
}

func (e *enumerator) IntN(k int) int {
	if k == 1 {
		return 0
	}
	if e.pos == len(e.script) {
		e.script = append(e.script, 0)
		e.ks = append(e.ks, k)
	}
	if e.ks[e.pos] != k {
		panic("the draws of a replayed prefix changed: the sampler is not deterministic")
	}
	v := e.script[e.pos]
	e.pos++
	e.p /= float64(k)
	return v
}

func (e *enumerator) Uint64() uint64 { panic("Uint64 cannot be enumerated") }

// next moves to the next draw sequence; false when all were seen.
func (e *enumerator) next() bool {
	e.script, e.ks = e.script[:e.pos], e.ks[:e.pos]
	for i := len(e.script) - 1; i >= 0; i-- {
		if e.script[i]+1 < e.ks[i] {
			e.script[i]++
			e.script, e.ks = e.script[:i+1], e.ks[:i+1]
			return true
		}
	}
	return false
}

// distribution returns the exact probability of every schedule of s under sm (keyed by
// the delivery order), and the sampler's run statistics maximised over all runs.
func (s *tsys) distribution(sm Sampler) (map[string]float64, RunStats) {
	out := map[string]float64{}
	var most RunStats
	e := &enumerator{}
	for {
		e.pos, e.p = 0, 1
		order := s.run(sm, e)
		out[key(order)] += e.p
		st := sm.Run()
		most.Chains = max(most.Chains, st.Chains)
		most.MaxConc = max(most.MaxConc, st.MaxConc)
		most.Events = max(most.Events, st.Events)
		if !e.next() {
			break
		}
	}
	return out, most
}

func key(order []int) string { return fmt.Sprint(order) }

func unkey(k string) []int {
	var out []int
	k = k[1 : len(k)-1]
	for _, f := range splitFields(k) {
		var v int
		fmt.Sscan(f, &v)
		out = append(out, v)
	}
	return out
}

func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if r == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(r)
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// strongHit reports whether order strongly hits tuple (docs/samplers.md): for every i,
// each event delivered after x_i is some x_j or causally after some x_j, j ≥ i.
func (s *tsys) strongHit(order, tuple []int) bool {
	at := make([]int, len(s.evs))
	for i := range at {
		at[i] = -1
	}
	for k, e := range order {
		at[e] = k
	}
	for i, x := range tuple {
		if at[x] < 0 {
			return false
		}
		for _, f := range order[at[x]+1:] {
			ok := false
			for _, y := range tuple[i:] {
				if f == y || s.before(y, f) {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

func (s *tsys) index(name string) int {
	for i, e := range s.evs {
		if e.name == name {
			return i
		}
	}
	panic("no event " + name)
}

// pos returns where name was delivered in order, or −1.
func (s *tsys) pos(order []int, name string) int { return slices.Index(order, s.index(name)) }

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
