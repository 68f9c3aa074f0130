package report

import (
	"slices"
	"strconv"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// NewHistoryPage builds the page of a recorded history, which has no schedule: the
// operations per client on an axis of their calls and returns in order, and, when res
// says it is not linearizable, the explanation on them.
func NewHistoryPage[S, I, O comparable](title, verdict string, stats [][2]string, spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result) Page {
	p := Page{Title: title, Verdict: verdict, Stats: stats}
	var times []int64
	for _, o := range ops {
		times = append(times, o.Call)
		if !o.Open {
			times = append(times, o.Return)
		}
		p.Clients = max(p.Clients, o.Client+1)
	}
	slices.Sort(times)
	times = slices.Compact(times)
	rank := func(t int64) int { i, _ := slices.BinarySearch(times, t); return i }
	p.Events = len(times)
	for c := range p.Clients {
		p.Lifelines = append(p.Lifelines, "c"+strconv.Itoa(c))
	}
	lin, stuck := map[int]int{}, -1
	var expected string
	if res.Verdict == wgl.NotLinearizable {
		e := Explain(spec, ops, res)
		for i, k := range e.Prefix {
			lin[k] = i + 1
		}
		if e.Stuck >= 0 {
			stuck, expected = e.Stuck, spec.Output(ops[e.Stuck].Input, e.Expected)
		}
		p.Why = ExplainViolation(spec, ops, res, 10)
	}
	for k, o := range ops {
		op := PageOp{Client: o.Client, Label: spec.Input(o.Input), CallAt: rank(o.Call), ReturnAt: -1, Return: -1, CallStep: 0, ReturnStep: -1, Lin: lin[k], Stuck: k == stuck}
		op.Call = op.CallAt
		if !o.Open {
			op.Output, op.ReturnAt = spec.Output(o.Input, o.Output), rank(o.Return)
			op.Return = op.ReturnAt
		}
		if op.Stuck {
			op.Expected = expected
		}
		p.Ops = append(p.Ops, op)
	}
	return p
}
