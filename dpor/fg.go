package dpor

// DS2's refinements of Flanagan–Godefroid DPOR (docs/strategies.md): TransDPOR, IRed and
// LiViola. They keep FG's race rule — at each state, for each enabled message, the latest
// earlier step it races with — and differ in which backtrack point that race adds. They
// are heuristics: what they keep is measured (docs/strategies.md), not guaranteed.

type variant uint8

const (
	vTransDPOR variant = iota // the first later step leading to m; one point per visit
	vIRed                     // the root of m's causal chain after i; one point per visit
)

type fg struct {
	name string
	v    variant
	dep  Dependence
}

// TransDPOR returns Tasharofi et al.'s TransDPOR (FORTE 2012): DPOR whose backtrack sets
// take at most one event between two visits of a state (freeze), and which, when the
// racing message was not yet sent at the earlier state, backtracks on the first later step
// that leads to it.
func TransDPOR(dep Dependence) Strategy { return &fg{name: "transdpor", v: vTransDPOR, dep: dep} }

// IRed returns DS2's IRed: TransDPOR that backtracks on the root of the racing message's
// causal chain (the step that sent it, the step that sent that step's message, …), so that
// retries of one request collapse into one backtrack point.
func IRed(dep Dependence) Strategy { return &fg{name: "ired", v: vIRed, dep: dep} }

// LiViola returns DS2's LiViola: IRed over dep, normally Key().
func LiViola(dep Dependence) Strategy { return &fg{name: "liviola", v: vIRed, dep: dep} }

func (f *fg) Name() string         { return f.name }
func (f *fg) Relation() Dependence { return f.dep }
func (f *fg) Needs() Needs {
	return Needs{Clocks: true, Keys: f.dep.NeedsKeys(), Peek: f.dep.NeedsReturns()}
}

func (f *fg) Arrive(p Path) {
	nodes := p.Nodes()
	backtrackDisabled(nodes)
	top := &nodes[len(nodes)-1]
	if top.Final {
		return
	}
	for k := range top.Enabled {
		if i := f.race(p, nodes, k); i >= 0 {
			f.backtrack(nodes, i, &top.Enabled[k])
		}
	}
	top.Backtrack.Add(0)
}

// race returns the largest index i of a step on the path that is dependent with the
// delivery of the top node's event k and does not precede its sending, or −1.
func (f *fg) race(p Path, nodes []Node, k int) int {
	n := len(nodes) - 1
	m := &nodes[n].Enabled[k]
	next := StepInfo{Event: *m, Invokes: m.Kind == Request}
	peeked := false
	for i := n - 1; i >= 0; i-- {
		si := nodes[i].Step()
		if PrecedesSend(nodes, i, m) {
			continue
		}
		if f.dep.Dependent(si, &next) {
			return i
		}
		// Whether the delivery records a response is known only once it has run; it
		// matters only against a step that invoked or answered.
		if !peeked && f.dep.NeedsReturns() && (si.Invokes || len(si.Answers) > 0) {
			peeked = true
			full := p.Next(k)
			next.Returns, next.Answers = full.Returns, full.Answers
			if f.dep.Dependent(si, &next) {
				return i
			}
		}
	}
	return -1
}

// backtrack adds to the backtrack set of nodes[i] what the race between step i and the
// delivery of m calls for: m if it was enabled there, else the variant's enabler; at most
// one event between two visits.
func (f *fg) backtrack(nodes []Node, i int, m *Event) {
	pre := &nodes[i]
	if pre.Freeze {
		return
	}
	cand := pre.Find(m.ID)
	if cand < 0 {
		cand = f.enabler(nodes, i, m)
	}
	if cand >= 0 && !pre.Backtrack.Has(cand) {
		pre.Backtrack.Add(cand)
		pre.Freeze = true
	}
}

// enabler returns the index in nodes[i].Enabled of the event that leads to m, which was
// not yet sent at nodes[i], or −1.
func (f *fg) enabler(nodes []Node, i int, m *Event) int {
	pre := &nodes[i]
	n := len(nodes) - 1
	switch f.v {
	case vTransDPOR: // the first later step that leads to m, if it was enabled at pre
		for j := i + 1; j < n; j++ {
			if PrecedesSend(nodes, j, m) {
				return pre.Find(nodes[j].Step().Event.ID)
			}
		}
	case vIRed: // the earliest step after i on m's causal chain, if it was enabled at pre
		root := -1
		for p := m.Parent; p > i; p = nodes[p].Step().Event.Parent {
			root = p
		}
		if root >= 0 {
			return pre.Find(nodes[root].Step().Event.ID)
		}
	}
	return -1
}
