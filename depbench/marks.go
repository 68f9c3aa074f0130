package depbench

import (
	"reflect"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/systems/abd"
	"github.com/ravelmc/ravel/systems/adr"
	"github.com/ravelmc/ravel/systems/leader"
	"github.com/ravelmc/ravel/systems/paxos"
	"github.com/ravelmc/ravel/systems/register"
)

// Marks returns a relation in the style of taPCT's static commutativity marks (Ozkan et al.
// 2019, §4, after Leesatapornwongsa et al. 2014): messages of the marked types are handled by
// handlers that only count (acknowledgements, votes) or discard, so two of them delivered
// to the same actor are declared independent; every other pair is judged by base. marked
// holds a value of each marked message type. It is a hypothesis about the handlers, not a
// fact: CheckCommutation and Compare say whether it holds.
func Marks(name string, base dpor.Dependence, marked ...any) dpor.Dependence {
	m := &marks{name: name, base: base, types: make(map[reflect.Type]bool, len(marked))}
	for _, v := range marked {
		m.types[reflect.TypeOf(v)] = true
	}
	return m
}

type marks struct {
	name  string
	base  dpor.Dependence
	types map[reflect.Type]bool
}

func (m *marks) Name() string       { return m.name }
func (m *marks) NeedsReturns() bool { return m.base.NeedsReturns() }
func (m *marks) NeedsKeys() bool    { return m.base.NeedsKeys() }

func (m *marks) Dependent(a, b *dpor.StepInfo) bool {
	if a.Event.To == b.Event.To && m.marked(&a.Event) && m.marked(&b.Event) {
		return false
	}
	return m.base.Dependent(a, b)
}

func (m *marks) marked(e *dpor.Event) bool {
	return e.Kind == dpor.Message && m.types[reflect.TypeOf(e.Msg)]
}

// ShippedMarks are the message types of the shipped systems whose handlers a taPCT-style
// static analysis marks as commutative: each counts an acknowledgement or a vote towards
// a quorum (some also keep the highest version seen), or discards the message when it is
// stale.
func ShippedMarks() []any {
	return []any{
		register.WriteReplicaAck{}, register.ReadReplicaAck{},
		adr.ReplicateAck{}, adr.QueryReply{},
		paxos.Promise{}, paxos.Accepted{},
		abd.StoreAck{}, abd.QueryAck{},
		leader.AcceptOK{}, leader.CheckOK{}, leader.Promise{}, leader.HeartbeatOK{},
	}
}

// MarksName is the name the shipped command line registers the marks of ShippedMarks
// under; MarksDoc its one-line description.
const (
	MarksName = "marks"
	MarksDoc  = "an experiment (docs/dependence.md), not sound: history, except that two acknowledgements or votes to one actor are independent (taPCT-style marks)"
)

// NewShippedMarks builds the marks relation over history and ShippedMarks, for
// dpor.RegisterDependence.
func NewShippedMarks() dpor.Dependence { return Marks(MarksName, dpor.History(), ShippedMarks()...) }
