package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// NewHistoryPage builds the page of a recorded history, which has no schedule: the
// operations per client on an axis of their calls and returns in order, and, when res
// says it is not linearizable, the explanation on them. A violation of a partitioned
// specification (kv) is within one partition (key): only that partition's operations
// are drawn and listed, and a row of stats says so.
func NewHistoryPage[S, I, O comparable](title, verdict string, stats [][2]string, spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result) Page {
	p := Page{Title: title, Verdict: verdict, Stats: stats, Recorded: true}
	// keep are the indices into ops of the operations drawn.
	keep := make([]int, 0, len(ops))
	for k, o := range ops {
		if res.Verdict != wgl.NotLinearizable || spec.Partition == nil || spec.Partition(o.Input) == res.Partition {
			keep = append(keep, k)
		}
	}
	if len(keep) < len(ops) {
		p.Stats = append(p.Stats, [2]string{"drawn", fmt.Sprintf("the %d operations of key %q, where the violation is (of %d in all)", len(keep), res.Partition, len(ops))})
	}
	var times []int64
	for _, k := range keep {
		o := ops[k]
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
		p.Why = ExplainRecorded(spec, ops, res, 10)
	}
	drawn := make([]histories.Operation[I, O], len(keep))
	lin2, stuck2 := map[int]int{}, -1
	for n, k := range keep {
		drawn[n] = ops[k]
		if lin[k] > 0 {
			lin2[n] = lin[k]
		}
		if k == stuck {
			stuck2 = n
		}
	}
	ops, lin, stuck = drawn, lin2, stuck2
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
	p.Text = historyText(spec, ops, lin, stuck, expected)
	return p
}

// historyText lists a recorded history's operations in call order, one a line: the
// operation's place in the longest linearizable prefix (#n) or ✗ for the one that cannot
// follow it, its client, input and output, and its call and return times as recorded.
func historyText[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], lin map[int]int, stuck int, expected string) string {
	if len(ops) == 0 {
		return "the history is empty\n"
	}
	order := make([]int, len(ops))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ops[a].Call, ops[b].Call) })
	var b strings.Builder
	b.WriteString("operations in call order (call … return, the history's times; #n: the place in the longest linearizable prefix found, ✗: the operation that cannot follow it):\n")
	for _, k := range order {
		o := ops[k]
		mark := ""
		switch {
		case k == stuck:
			mark = "✗"
		case lin[k] > 0:
			mark = "#" + strconv.Itoa(lin[k])
		}
		span, out := fmt.Sprintf("%d … %d", o.Call, o.Return), spec.Output(o.Input, o.Output)
		if o.Open {
			span, out = fmt.Sprintf("%d … (open)", o.Call), "no response"
		}
		fmt.Fprintf(&b, "  %4s  c%-3d %s → %s   [%s]", mark, o.Client, spec.Input(o.Input), out, span)
		if k == stuck {
			b.WriteString("   but the specification answers " + expected + " here")
		}
		b.WriteByte('\n')
	}
	return b.String()
}
