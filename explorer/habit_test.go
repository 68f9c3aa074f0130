package explorer

import "testing"

// TestSendsHabit: a habit forms after habitTrusted deliveries that all sent the same, and
// ends for good when one sends otherwise.
func TestSendsHabit(t *testing.T) {
	same := func(n int) []uint64 {
		xs := make([]uint64, n)
		for i := range xs {
			xs[i] = 0b10
		}
		return xs
	}
	for _, tc := range []struct {
		name    string
		sends   []uint64
		trusted bool
	}{
		{"none", nil, false},
		{"one short", same(habitTrusted - 1), false},
		{"enough", same(habitTrusted), true},
		{"more than enough", same(habitTrusted + 5), true},
		{"one differs first", append([]uint64{0b100}, same(habitTrusted)...), false},
		{"one differs before enough", append(same(habitTrusted-1), 0b100, 0b10, 0b10), false},
		{"one differs after enough", append(same(habitTrusted), 0b100), false},
		{"the same after one differed", append(append(same(habitTrusted), 0b100), same(habitTrusted)...), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &engine{habits: map[uint64]sendsHabit{}}
			for _, s := range tc.sends {
				e.learnSends(7, s)
			}
			h, ok := e.habits[7]
			if got := ok && h.trusted(); got != tc.trusted {
				t.Errorf("trusted = %v after %v, want %v (%+v)", got, tc.sends, tc.trusted, h)
			}
			if got := ok && h.trusted() && h.Sends != 0b10; got {
				t.Errorf("habit sends %b, want 10", h.Sends)
			}
		})
	}
	t.Run("a search that keeps none learns none", func(t *testing.T) {
		e := &engine{}
		e.learnSends(7, 1)
		if e.habits != nil {
			t.Errorf("habits = %v, want nil", e.habits)
		}
	})
}
