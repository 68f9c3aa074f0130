package explorer

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/systems/microbench"
)

// shape is a fixed-structure system for the samplers' test vectors: every event has a
// receiver and creates the same children in every state. Roots are client requests (one
// client each, in order), the other events messages; bug, checked by actor bugAt after
// each delivery, fails the step with ctx.Fail.
type shape struct {
	names    []string
	to       []int
	children [][]int
	roots    []int
	bugAt    int
	bug      func(seen []string) bool
}

func newShape(lines [][3]string, bugAt int, bug func(seen []string) bool) *shape {
	s := &shape{bugAt: bugAt, bug: bug}
	idx := map[string]int{}
	for i, l := range lines {
		idx[l[0]] = i
		s.names = append(s.names, l[0])
		s.to = append(s.to, int(l[1][0]-'0'))
		s.children = append(s.children, nil)
		if l[2] == "" {
			s.roots = append(s.roots, i)
		} else {
			s.children[idx[l[2]]] = append(s.children[idx[l[2]]], i)
		}
	}
	return s
}

// Ev is a message of a shape: event number I.
type Ev struct{ I int }

type shapeActor struct {
	s    *shape
	Seen []int
}

func (a *shapeActor) Clone() model.Actor {
	return &shapeActor{s: a.s, Seen: slices.Clone(a.Seen)}
}

func (a *shapeActor) HashState(h *model.Hasher) {
	h.Int(len(a.Seen))
	for _, x := range a.Seen {
		h.Int(x)
	}
}

func (a *shapeActor) Receive(ctx *model.Ctx, env model.Envelope) {
	var i int
	switch m := env.Msg.(type) {
	case model.Request[specs.RegisterInput]:
		i = m.Input.Value
		ctx.Respond(m.ID, specs.WriteOK())
	case Ev:
		i = m.I
	}
	a.Seen = append(a.Seen, i)
	for _, c := range a.s.children[i] {
		ctx.Send(model.ID(a.s.to[c]), Ev{I: c})
	}
	if int(ctx.Self()) == a.s.bugAt {
		seen := make([]string, len(a.Seen))
		for k, x := range a.Seen {
			seen[k] = a.s.names[x]
		}
		if a.s.bug(seen) {
			ctx.Fail("bug hit: " + seen[len(seen)-1])
		}
	}
}

func (s *shape) system(actors int) model.System {
	as := make([]model.Actor, actors)
	for i := range as {
		as[i] = &shapeActor{s: s}
	}
	clients := make([]model.Client[specs.RegisterInput], len(s.roots))
	for k, r := range s.roots {
		clients[k] = model.Calls(model.ID(s.to[r]), specs.Write(r))
	}
	return model.System{Name: "shape", Actors: as, Harness: model.Clients(specs.Register(), clients...)}
}

// enumerator is a Chooser enumerating every sequence of draws (weight 1/k each).
type enumerator struct {
	script, ks []int
	pos        int
	p          float64
}

func (e *enumerator) IntN(k int) int {
	if k == 1 {
		return 0
	}
	if e.pos == len(e.script) {
		e.script, e.ks = append(e.script, 0), append(e.ks, k)
	}
	v := e.script[e.pos]
	e.pos++
	e.p /= float64(k)
	return v
}

func (e *enumerator) Uint64() uint64 { panic("not enumerable") }

func (e *enumerator) next() bool {
	for i := e.pos - 1; i >= 0; i-- {
		if e.script[i]+1 < e.ks[i] {
			e.script[i]++
			e.script, e.ks = e.script[:i+1], e.ks[:i+1]
			return true
		}
	}
	return false
}

// exactThroughEngine runs cfg on sys through Run with every sequence of draws enumerated,
// one run per sequence, and returns the probability of a run that hits (a violation).
func exactThroughEngine(t *testing.T, sys model.System, cfg *samplers.Config) float64 {
	t.Helper()
	en := &enumerator{}
	var probs []float64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := -1
	opts := Options{Sampling: cfg, MaxSchedules: 1 << 20, chooser: func(r int) samplers.Chooser {
		if r > 0 && done < 0 {
			probs = append(probs, en.p)
			if !en.next() {
				done = r // this run repeats the last sequence; the context ends the session
				cancel()
			}
		}
		en.pos, en.p = 0, 1
		return en
	}}
	res, err := Run(ctx, sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if done < 0 {
		t.Fatal("the session ended before the enumeration")
	}
	p := 0.0
	for _, r := range res.Sampling.HitRuns {
		if int(r) < done {
			p += probs[r]
		}
	}
	if int(res.Sampling.Runs) >= 1000 && res.Sampling.Hits > 1000 {
		t.Fatal("more hits than HitRuns lists")
	}
	return p
}

// TestExactThroughEngine: the test vectors of docs/samplers.md, "How we know they are right", as actor systems run by
// the explorer with every draw enumerated, give the table's exact probabilities.
func TestExactThroughEngine(t *testing.T) {
	before := func(a, b string) func([]string) bool {
		return func(seen []string) bool {
			ia, ib := slices.Index(seen, a), slices.Index(seen, b)
			return ia >= 0 && ib >= 0 && ia < ib
		}
	}
	fig1 := newShape([][3]string{{"m1", "1", ""}, {"A", "2", ""}, {"m2", "1", "m1"}, {"m3", "1", "m2"}, {"B", "2", "m3"}}, 2, before("B", "A"))
	fig3 := newShape([][3]string{{"A", "1", ""}, {"C", "1", ""}, {"E", "2", ""}, {"B", "1", "A"}, {"D", "3", "C"}, {"F", "2", "E"}}, 1,
		func(s []string) bool { return before("A", "C")(s) && before("C", "B")(s) })
	sen := newShape([][3]string{{"y1", "0", ""}, {"chk", "1", ""}, {"y2", "0", "y1"}, {"y3", "0", "y2"}, {"x4", "1", "y3"}}, 1, before("x4", "chk"))
	for _, tc := range []struct {
		name    string
		s       *shape
		actors  int
		depth   int
		racy    []string
		sampler string
		want    float64
	}{
		{"fig1-n3", fig1, 3, 1, nil, "random", 1.0 / 16},
		{"fig1-n3", fig1, 3, 1, nil, "rapos", 1.0 / 4},
		{"fig1-n3", fig1, 3, 1, nil, "pctcp", 1.0 / 2},
		{"fig1-n3", fig1, 3, 1, []string{"A", "B"}, "tapct", 1.0 / 2},
		{"fig1-n3", fig1, 3, 1, []string{"A", "B"}, "dpos", 1.0 / 5},
		{"fig3", fig3, 4, 2, nil, "random", 1.0 / 4},
		{"fig3", fig3, 4, 2, nil, "rapos", 1.0 / 4},
		{"fig3", fig3, 4, 2, nil, "pctcp", 1.0 / 12},
		{"fig3", fig3, 4, 2, []string{"A", "B", "C"}, "tapct", 1.0 / 6},
		{"fig3", fig3, 4, 2, []string{"A", "B", "C"}, "dpos", 1.0 / 6},
		{"002-fig1", sen, 2, 1, []string{"x4", "chk"}, "dpos", 1.0 / 5},
	} {
		t.Run(tc.name+"/"+tc.sampler, func(t *testing.T) {
			sys := tc.s.system(tc.actors)
			o := samplers.Options{Depth: tc.depth, Events: len(tc.s.names)}
			if tc.racy != nil {
				o.RacyEvents, o.DeclaredRacy = len(tc.racy), true
				sys.Racy = func(msg any) bool {
					i := -1
					switch m := msg.(type) {
					case Ev:
						i = m.I
					case model.Request[specs.RegisterInput]:
						i = m.Input.Value
					}
					return i >= 0 && slices.Contains(tc.racy, tc.s.names[i])
				}
			}
			cfg, err := samplers.New(tc.sampler, o)
			if err != nil {
				t.Fatal(err)
			}
			if got := exactThroughEngine(t, sys, cfg); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("P(hit) = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSamplerRunReplaysAlone is docs/samplers.md, "How we know they are right" through the engine: run r of a session
// alone (FirstRun r, one schedule) delivers what it delivered after runs 0…r−1.
func TestSamplerRunReplaysAlone(t *testing.T) {
	fig3 := newShape([][3]string{{"A", "1", ""}, {"C", "1", ""}, {"E", "2", ""}, {"B", "1", "A"}, {"D", "3", "C"}, {"F", "2", "E"}}, 1,
		func([]string) bool { return false })
	sys := fig3.system(4)
	for _, name := range samplers.Names() {
		cfg, err := samplers.New(name, samplers.Options{Depth: 3})
		if err != nil {
			t.Fatal(err)
		}
		schedule := func(first, n int) [][]uint64 {
			var out [][]uint64
			_, err := Run(context.Background(), sys, Options{Sampling: cfg, Seed: 9, FirstRun: first, MaxSchedules: int64(n),
				OnSchedule: func(e *ScheduleEnd) {
					var ids []uint64
					for _, s := range e.Steps {
						ids = append(ids, s.ID)
					}
					out = append(out, ids)
				}})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		all := schedule(0, 30)
		for _, r := range []int{0, 13, 29} {
			if alone := schedule(r, 1); !slices.Equal(alone[0], all[r]) {
				t.Errorf("%s run %d: alone %x, in sequence %x", name, r, alone[0], all[r])
			}
		}
	}
}

// TestMicrobenchRandomWalkExact: on the micro-benchmark, the random walk hits bug 1 with
// probability exactly 6^−L whatever k (docs/samplers.md, "The micro-benchmark of Ozkan et al. 2019"), through the engine with every
// draw enumerated.
func TestMicrobenchRandomWalkExact(t *testing.T) {
	for _, tc := range []struct{ L, k int }{{1, 0}, {1, 2}, {2, 0}, {2, 1}} {
		sys, err := microbench.New(tc.L, tc.k, 1)
		if err != nil {
			t.Fatal(err)
		}
		got := exactThroughEngine(t, sys, samplers.RandomWalk())
		if want := math.Pow(6, -float64(tc.L)); math.Abs(got-want) > 1e-12 {
			t.Errorf("L=%d k=%d: P(bug 1) = %v, want %v", tc.L, tc.k, got, want)
		}
	}
}

// TestAssertionIsAViolation: ctx.Fail is reported as a violation of kind "assertion"
// with its schedule, and replaying the schedule fails the same way.
func TestAssertionIsAViolation(t *testing.T) {
	sys, err := microbench.New(1, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), sys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := res.First
	if v == nil || v.Kind != "assertion" || len(v.Steps) != 3 {
		t.Fatalf("first violation = %+v, want an assertion after 3 steps", v)
	}
	ids := make([]uint64, len(v.Steps))
	for i, s := range v.Steps {
		ids[i] = s.ID
	}
	ex, err := Replay(sys, ids, false)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Failure != "assertion: "+v.Message {
		t.Errorf("replay failed with %q, want %q", ex.Failure, "assertion: "+v.Message)
	}
	// Exhaustive search of A, B, C at one actor: exactly the schedules delivering A, B, C
	// in that order fail, 1 of the 6.
	if res.Stats.Panics != 1 || res.Stats.Schedules != 6 {
		t.Errorf("%d failing schedules of %d, want 1 of 6", res.Stats.Panics, res.Stats.Schedules)
	}
}

// TestDistinctTraces: under the actor relation two schedules are the same trace iff every
// actor receives its events in the same order; the session's trace count (a hash of the
// dependent pairs) agrees with that count over the session's own schedules.
func TestDistinctTraces(t *testing.T) {
	fig3 := newShape([][3]string{{"A", "1", ""}, {"C", "1", ""}, {"E", "2", ""}, {"B", "1", "A"}, {"D", "3", "C"}, {"F", "2", "E"}}, 1,
		func([]string) bool { return false })
	sys := fig3.system(4)
	for _, name := range samplers.Names() {
		cfg, _ := samplers.New(name, samplers.Options{Depth: 2})
		perActor := map[string]bool{}
		res, err := Run(context.Background(), sys, Options{Sampling: cfg, Seed: 3, MaxSchedules: 300,
			OnSchedule: func(e *ScheduleEnd) {
				seqs := make([][]uint64, 4)
				for _, s := range e.Steps {
					seqs[s.To] = append(seqs[s.To], s.ID)
				}
				perActor[fmt.Sprint(seqs)] = true
			}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Sampling.Traces; got != len(perActor) || got > 3 {
			t.Errorf("%s: %d distinct traces, per-actor orders give %d (at most 3)", name, got, len(perActor))
		}
	}
}
