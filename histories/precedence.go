package histories

import (
	"fmt"
	"slices"
)

// IntervalTimes gives call and return times that realize exactly the real-time
// precedence precedes over n operations, of which those with open[i] never returned:
// for every i and j, operation i precedes j (a pair {i, j} in precedes) if and only if
// !open[i] && ret[i] < call[j]. It is how a canonical history written as a precedence
// (CanonicalJSON, `ravel check --histories`) gets the times the checker needs back.
//
// Such times exist exactly when the precedence is an interval order: irreflexive, an
// open operation preceding nothing, and the sets of operations preceding each one
// nested (no two operations a, b with c preceding a but not b and d preceding b but not
// a). The precedence of any execution is one; anything else is refused, naming the
// operations that break it. Times are small integers, none equal to another of the
// other kind, so no call meets a return at one instant.
func IntervalTimes(n int, open []bool, precedes [][2]int) (call, ret []int64, err error) {
	if len(open) != n {
		return nil, nil, fmt.Errorf("%d operations but %d open flags", n, len(open))
	}
	pred := make([][]bool, n) // pred[j][i]: i precedes j
	for j := range pred {
		pred[j] = make([]bool, n)
	}
	for _, p := range precedes {
		i, j := p[0], p[1]
		switch {
		case i < 0 || i >= n || j < 0 || j >= n:
			return nil, nil, fmt.Errorf("precedence [%d,%d] names an operation that is not there (0 to %d)", i, j, n-1)
		case i == j:
			return nil, nil, fmt.Errorf("precedence [%d,%d]: an operation cannot precede itself", i, j)
		case open[i]:
			return nil, nil, fmt.Errorf("precedence [%d,%d]: operation %d never returned, so it precedes nothing", i, j, i)
		}
		pred[j][i] = true
	}
	count := make([]int, n)
	for j := range n {
		for i := range n {
			if pred[j][i] {
				count[j]++
			}
		}
	}
	// The predecessor sets, smallest first, must form a chain; rank[j] is the place of
	// j's set among the distinct ones.
	order := make([]int, n)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return count[a] - count[b] })
	rank := make([]int, n)
	levels := 0
	for k, j := range order {
		if k > 0 {
			prev := order[k-1]
			for i := range n {
				if pred[prev][i] && !pred[j][i] {
					// j's set is no smaller and misses i, so it holds some d that prev's
					// does not: the two are crossed, which no intervals are.
					d := 0
					for x := range n {
						if pred[j][x] && !pred[prev][x] {
							d = x
							break
						}
					}
					return nil, nil, fmt.Errorf("the precedence is not that of any execution: %d precedes %d and %d precedes %d, but neither %d precedes %d nor %d precedes %d", i, prev, d, j, i, j, d, prev)
				}
			}
			if count[j] > count[prev] {
				levels++
			}
		}
		rank[j] = levels
	}
	// first[i] is the first level whose set holds i: i returns just before the calls of
	// that level.
	call, ret = make([]int64, n), make([]int64, n)
	for i := range n {
		first := levels + 1
		for j := range n {
			if pred[j][i] && rank[j] < first {
				first = rank[j]
			}
		}
		call[i] = 2*int64(rank[i]) + 1
		if !open[i] {
			ret[i] = 2 * int64(first)
		}
	}
	for i := range n {
		for j := range n {
			if got := !open[i] && ret[i] < call[j]; got != pred[j][i] {
				return nil, nil, fmt.Errorf("the precedence is not that of any execution: no times give %d and %d their order", i, j)
			}
		}
	}
	return call, ret, nil
}
