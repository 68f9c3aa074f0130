package histories

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIntervalTimesRealizesCanonical: the times IntervalTimes builds from a canonical
// history's precedence give back exactly that precedence, for random executions of up
// to 8 operations (some never answered).
func TestIntervalTimesRealizesCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for k := range 3000 {
		n := 1 + r.IntN(8)
		var events []Event
		var pending []int
		next := 0
		for next < n || len(pending) > 0 {
			if next < n && (len(pending) == 0 || r.IntN(2) == 0) {
				events = append(events, inv(next, 0))
				pending = append(pending, next)
				next++
				continue
			}
			i := r.IntN(len(pending))
			if r.IntN(6) != 0 { // else it never returns
				events = append(events, ret(pending[i], 0, 1))
			}
			pending = append(pending[:i], pending[i+1:]...)
		}
		c := CanonicalOf(events)
		open := make([]bool, len(c.Ops))
		var prec [][2]int
		for i, o := range c.Ops {
			open[i] = o.Open
			for j := range c.Ops {
				if c.Precedes(i, j) {
					prec = append(prec, [2]int{i, j})
				}
			}
		}
		call, rt, err := IntervalTimes(len(c.Ops), open, prec)
		if err != nil {
			t.Fatalf("history %d: %v", k, err)
		}
		for i := range c.Ops {
			if !open[i] && rt[i] <= call[i] {
				t.Fatalf("history %d: operation %d returns at %d, not after its call at %d", k, i, rt[i], call[i])
			}
			for j := range c.Ops {
				if got, want := !open[i] && rt[i] < call[j], c.Precedes(i, j); got != want {
					t.Fatalf("history %d: %d before %d is %v with the times, %v in the history", k, i, j, got, want)
				}
			}
		}
	}
}

// TestIntervalTimesRefuses: a precedence no execution has is refused, saying why.
func TestIntervalTimesRefuses(t *testing.T) {
	tests := []struct {
		name string
		open []bool
		prec [][2]int
		want string
	}{
		{"out of range", []bool{false, false}, [][2]int{{0, 2}}, "not there"},
		{"itself", []bool{false}, [][2]int{{0, 0}}, "cannot precede itself"},
		{"open precedes", []bool{true, false}, [][2]int{{0, 1}}, "never returned"},
		{"2+2", []bool{false, false, false, false}, [][2]int{{0, 1}, {2, 3}}, "neither"},
		{"cycle", []bool{false, false}, [][2]int{{0, 1}, {1, 0}}, "not that of any execution"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := IntervalTimes(len(tt.open), tt.open, tt.prec)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one that says %q", err, tt.want)
			}
		})
	}
}
