package wgl

import "testing"

// TestMemoCollisions runs the general memo with every hash word zero, so that every set
// of a state shares one map key and the sets must be told apart by comparing words.
func TestMemoCollisions(t *testing.T) {
	m := newMemo[int](130)
	if m.small {
		t.Fatal("a memo for 130 operations uses one word")
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
				m.flip(op)
			}
		}
		current = want
		if got := m.addNew(s.state); got != s.want {
			t.Errorf("step %d: addNew(%d) with set %v = %v, want %v", i, s.state, s.set, got, s.want)
		}
	}
}
