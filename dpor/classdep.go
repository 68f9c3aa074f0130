package dpor

// A revisit's race analysis asks, for every class of step reachable from the revisited
// state and every step of the path, whether the two are dependent: classes × depth
// questions per revisit, a fifth of a large search when each was a call of the relation.
// Under the built-in relations the answer depends only on what a class keeps of a step
// (receiver, kind, invocation, response, answers, key), so the graph asks the relation
// once per pair of classes and keeps the answers as one bit set per class. There are
// few classes (8 to 11 on the shipped systems' larger configurations: a class is a
// step without its payload).

// summaryOnly reports whether dep decides dependence from a step's summary alone (the
// fields a class keeps), so that classDependent may stand for it. A user's relation may
// look at more (the payload), and is asked about the steps themselves.
func summaryOnly(dep Dependence) bool {
	switch d := dep.(type) {
	case actorDep, historyDep, keyDep:
		return true
	case faultsCoarse:
		return summaryOnly(d.Dependence)
	}
	return false
}

// depRows returns, by class, the classes dependent on it under dep, adding the rows of
// the classes added since the last call. dep must be the same relation every call.
func (g *Graph) depRows(dep Dependence) []Bits {
	if len(g.depRow) == len(g.classInfo) {
		return g.depRow
	}
	for c := len(g.depRow); c < len(g.classInfo); c++ {
		g.depRow = append(g.depRow, nil)
		for b := 0; b <= c; b++ {
			if dep.Dependent(&g.classInfo[c], &g.classInfo[b]) {
				g.depRow[c].Set(b)
				g.depRow[b].Set(c)
			}
		}
	}
	return g.depRow
}
