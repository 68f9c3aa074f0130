package dpor

// Dependence is a relation between steps: two dependent steps may not commute, so a
// reduction must explore both of their orders (docs/strategies.md). It must be
// symmetric.
type Dependence interface {
	Name() string
	Dependent(a, b *StepInfo) bool
	// NeedsReturns says whether the relation looks at StepInfo.Returns and Answers, which
	// are known for an enabled event only once it has run (Path.Next).
	NeedsReturns() bool
	// NeedsKeys says whether it looks at keys.
	NeedsKeys() bool
}

// Actor is DS2's relation: two steps are dependent when they have the same receiver.
func Actor() Dependence { return actorDep{} }

// History is Ravel's default: the same receiver, or one step records a response and the
// other an invocation (their order decides whether the two operations overlap), or both
// answer the same request (the first answer is the one the client takes). Under it DPOR,
// optimal DPOR and stateful DPOR keep every canonical history; TransDPOR, IRed and
// LiViola are heuristics and may not. What a step returns and answers is what it did, and
// it moves with the order of the deliveries at its receiver: the strategies allow for
// that where they trust a sleep set (source.moves, seq.covers).
func History() Dependence { return historyDep{} }

// Key is LiViola's: the same receiver and the same key — a message whose key is unknown
// matches every key — and neither message of a type the system excluded.
func Key() Dependence { return keyDep{} }

type actorDep struct{}

func (actorDep) Name() string { return "actor" }
func (actorDep) Dependent(a, b *StepInfo) bool {
	if d, ok := faultDependent(a, b); ok {
		return d
	}
	return a.Event.To == b.Event.To
}
func (actorDep) NeedsReturns() bool { return false }
func (actorDep) NeedsKeys() bool    { return false }

type historyDep struct{}

func (historyDep) Name() string { return "history" }
func (historyDep) Dependent(a, b *StepInfo) bool {
	if d, ok := faultDependent(a, b); ok {
		return d
	}
	if a.Event.To == b.Event.To || (a.Invokes && b.Returns) || (a.Returns && b.Invokes) {
		return true
	}
	for _, x := range a.Answers {
		for _, y := range b.Answers {
			if x == y {
				return true
			}
		}
	}
	return false
}
func (historyDep) NeedsReturns() bool { return true }
func (historyDep) NeedsKeys() bool    { return false }

type keyDep struct{}

func (keyDep) Name() string { return "key" }
func (keyDep) Dependent(a, b *StepInfo) bool {
	if d, ok := faultDependent(a, b); ok {
		return d
	}
	x, y := &a.Event, &b.Event
	if x.To != y.To || x.Excluded || y.Excluded {
		return false
	}
	return !x.KeyKnown || !y.KeyKnown || x.Key == y.Key
}
func (keyDep) NeedsReturns() bool { return false }
func (keyDep) NeedsKeys() bool    { return true }
