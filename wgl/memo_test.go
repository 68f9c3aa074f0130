package wgl

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMemoCollisions runs the general memo with every hash word zero, so that every set
// of a state shares one key and the sets must be told apart by comparing words.
func TestMemoCollisions(t *testing.T) {
	m := newMemo[int](130)
	if m.zob == nil || len(m.bits) != 3 {
		t.Fatalf("a memo for 130 operations has hash words %v and %d words a set", m.zob != nil, len(m.bits))
	}
	clear(m.zob)
	current := map[int]bool{}
	steps := []struct {
		set   []int
		state int
		want  bool // addNew's answer
	}{
		{nil, 0, true}, {nil, 0, false}, {nil, 1, true},
		{[]int{3}, 0, true}, {[]int{3}, 0, false}, {[]int{3}, 1, true},
		{[]int{3, 129}, 0, true}, {[]int{129}, 0, true}, {[]int{129, 3}, 0, false},
		{[]int{70}, 0, true}, {nil, 0, false}, {[]int{70}, 0, false}, {[]int{64}, 0, true},
	}
	for i, s := range steps {
		want := map[int]bool{}
		for _, op := range s.set {
			want[op] = true
		}
		for op := range 130 {
			if current[op] != want[op] {
				m.flip(int32(op))
			}
		}
		current = want
		if _, got := m.addNew(s.state, hashState(s.state)); got != s.want {
			t.Errorf("step %d: addNew(%d) with set %v = %v, want %v", i, s.state, s.set, got, s.want)
		}
	}
}

// TestMemoGrows fills the memo far past its first size, with states whose hashes all
// collide, and checks that every configuration is still found.
func TestMemoGrows(t *testing.T) {
	for _, n := range []int{40, 300} {
		m := newMemo[string](n)
		opOf := func(bit int) int32 { return int32(bit * 23 % n) } // spread over the words
		set := 0
		for round := range 2 {
			for i := range 3000 {
				for bit := range 12 {
					if (set^i)&(1<<bit) != 0 {
						m.flip(opOf(bit))
					}
				}
				set = i
				s := string(rune('a' + i%7))
				if _, got := m.addNew(s, 42); got != (round == 0) {
					t.Fatalf("n %d round %d set %d: addNew = %v", n, round, i, got)
				}
			}
		}
	}
}

// TestMemoMatchesSets: the general memo, with every hash word zero and a third of the
// operations open, finds a configuration again exactly when its set and state were
// added before, whatever the order of the flips (an oracle of Go maps).
func TestMemoMatchesSets(t *testing.T) {
	const n = 150
	rank := make([]int32, n)
	completed, open := int32(0), int32(0)
	for i := range rank {
		if i%3 == 1 {
			rank[i] = -1 - open
			open++
		} else {
			rank[i] = completed
			completed++
		}
	}
	m := &memo[int]{}
	m.init(rank)
	clear(m.zob)
	seen := map[string]bool{}
	cur := make([]bool, n)
	r := uint64(7)
	next := func(k int) int { r = mix64(r + 0x9e3779b97f4a7c15); return int(r % uint64(k)) }
	for step := range 20000 {
		// Mostly flips near a moving frontier, as the search does, some anywhere.
		at := step / 200 % n
		op := min(n-1, at+next(12))
		if next(10) == 0 {
			op = next(n)
		}
		m.flip(int32(op))
		cur[op] = !cur[op]
		state := next(3)
		key := fmt.Sprint(cur, state)
		if _, isNew := m.addNew(state, uint64(state)); isNew == seen[key] {
			t.Fatalf("step %d: addNew = %v, but seen before = %v", step, isNew, seen[key])
		}
		seen[key] = true
	}
}

// TestWindowedMemoAgrees: on random histories of up to 64 operations — too long for the
// brute-force oracle, short enough for the exact one-word memo — the windowed memo of
// long partitions gives the same verdict, witness and explanation, for the register, the
// compare-and-set register with open operations, and the key-value map.
func TestWindowedMemoAgrees(t *testing.T) {
	cases := 150
	if testing.Short() {
		cases = 30
	}
	compare := func(t *testing.T, name string, one, windowed Result) {
		t.Helper()
		if one.Verdict != windowed.Verdict || !slices.Equal(one.Witness, windowed.Witness) ||
			!slices.Equal(one.Prefix, windowed.Prefix) || one.Stuck != windowed.Stuck {
			t.Fatalf("%s: one-word memo %v %v %v %d; windowed %v %v %v %d", name,
				one.Verdict, one.Witness, one.Prefix, one.Stuck, windowed.Verdict, windowed.Witness, windowed.Prefix, windowed.Stuck)
		}
	}
	run := func(t *testing.T, check func(r *rand.Rand, n, mode int) (Result, Result)) {
		for i := range cases {
			r := rand.New(rand.NewPCG(uint64(i), 64))
			n, mode := 20+r.IntN(45), r.IntN(outModes)
			one, windowed := check(r, n, mode)
			compare(t, fmt.Sprintf("seed %d, %d ops, mode %d", i, n, mode), one, windowed)
		}
	}
	both := func(f func() Result) (Result, Result) {
		one := f()
		saved := smallMemoMax
		smallMemoMax = 0
		defer func() { smallMemoMax = saved }()
		return one, f()
	}
	t.Run("register", func(t *testing.T) {
		g := registerGen()
		run(t, func(r *rand.Rand, n, mode int) (Result, Result) {
			ops := g.history(r, n, 6, mode)
			return both(func() Result { return Check(g.spec, ops) })
		})
	})
	t.Run("cas", func(t *testing.T) {
		g := casGen()
		run(t, func(r *rand.Rand, n, mode int) (Result, Result) {
			ops := g.history(r, n, 6, mode)
			return both(func() Result { return Check(g.spec, ops) })
		})
	})
	t.Run("kv", func(t *testing.T) {
		g := kvGenKeys(1)
		run(t, func(r *rand.Rand, n, mode int) (Result, Result) {
			ops := g.history(r, n, 6, mode)
			return both(func() Result { return Check(g.spec, ops) })
		})
	})
}
