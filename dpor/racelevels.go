package dpor

// raceLevels keeps, for every prefix of the search path and every class of step in the
// graph, what a revisit's race analysis (stateful.findRaces) needs of the path: which
// steps of the prefix a step of that class, run after it, would race with, and the last
// step of the prefix it depends on. A revisit at depth n used to work these out by
// walking the whole path once per reachable class; the search is depth first, so the
// prefixes are shared from one revisit to the next, and each level here is computed once
// from the one below when the path first grows past it.
//
// For a class c and the prefix of length L, cand[L][c] holds the steps k < L that c
// depends on and that happen before no later step of the prefix c depends on:
//
//	cand[L+1][c] = (cand[L][c] \ Before(L)) ∪ {L}   when c depends on step L,
//	cand[L+1][c] = cand[L][c]                       otherwise,
//
// since Before(L) is closed under happens-before.
type raceLevels struct {
	cand    [][]Set   // by prefix length, by class
	last    [][]int32 // by prefix length, by class: the last step c depends on, or −1
	valid   int       // the levels up to valid are computed
	classes int       // for this many classes
}

// invalidate records that step d of the path changed: the prefixes longer than d are
// stale.
func (r *raceLevels) invalidate(d int) { r.valid = min(r.valid, d) }

// level returns the candidates and last dependences of the prefix of length n of the
// path, by class, computing the levels missing.
func (s *stateful) level(nodes []Node, n int) ([]Set, []int32) {
	r := &s.levels
	nc := len(s.g.classInfo)
	if nc != r.classes {
		r.valid, r.classes = 0, nc
	}
	for len(r.cand) <= n {
		r.cand = append(r.cand, nil)
		r.last = append(r.last, nil)
	}
	if len(r.cand[0]) < nc {
		r.cand[0] = make([]Set, nc)
		r.last[0] = make([]int32, nc)
		for c := range r.last[0] {
			r.last[0][c] = -1
		}
	}
	var rows []Bits
	if s.memo {
		rows = s.g.depRows(s.dep)
	}
	for L := r.valid; L < n; L++ {
		prev, prevLast := r.cand[L][:nc], r.last[L][:nc]
		if len(r.cand[L+1]) < nc {
			r.cand[L+1] = append(r.cand[L+1], make([]Set, nc-len(r.cand[L+1]))...)
			r.last[L+1] = append(r.last[L+1], make([]int32, nc-len(r.last[L+1]))...)
		}
		cur, curLast := r.cand[L+1][:nc], r.last[L+1][:nc]
		copy(curLast, prevLast)
		sk := nodes[L].Step()
		var row Bits
		if s.memo {
			row = rows[s.cls.path[L]]
		}
		for c := range cur {
			if len(prev[c].more) == 0 && len(cur[c].more) == 0 {
				cur[c].w = prev[c].w // CopyFrom's common case, inlined
			} else {
				cur[c].CopyFrom(&prev[c])
			}
			var dep bool
			if s.memo {
				dep = c/64 < len(row) && row[c/64]&(1<<(c%64)) != 0
			} else {
				dep = s.dep.Dependent(sk, &s.g.classInfo[c])
			}
			if dep {
				cur[c].AndNot(&sk.Before)
				cur[c].Add(L)
				curLast[c] = int32(L)
			}
		}
	}
	r.valid = n
	return r.cand[n][:nc], r.last[n][:nc]
}
