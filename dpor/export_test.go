package dpor

// CheckEveryPair makes stateful DPOR's context-sensitive sleep sets run the check on
// pairs that both record history too, until the returned function is called: for the
// test that answering those without the check changes nothing.
func CheckEveryPair() (restore func()) {
	checkEveryPair = true
	return func() { checkEveryPair = false }
}

// OpenParts returns, for stateful DPOR s, the open parts its graph has made (the most
// ever in use at once: a freed one is reused before another is made), how many of them
// are free, and the states that hold one and that are not summarized, which must be the
// same.
func OpenParts(s Revisiter) (made, free int, holding, open []int32) {
	g := s.(*stateful).g
	for k := range g.nstates {
		if g.st(k).open >= 0 {
			holding = append(holding, k)
		}
		if g.st(k).sum < 0 {
			open = append(open, k)
		}
	}
	return len(g.opens), len(g.freeOpen), holding, open
}
