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

// Explanation is what the checker found about a violation, in terms of the history.
type Explanation[I, O any] struct {
	// Prefix is the longest linearizable prefix found: indices into the operations, in
	// linearization order.
	Prefix []int
	// Stuck is the operation that cannot follow the prefix (-1 if none).
	Stuck int
	// Expected is what the specification answers to Stuck after the prefix.
	Expected O
	// InPart is the number of operations in the failing partition.
	InPart int
}

// Explain explains res, the verdict of wgl.Check on ops: a violation.
func Explain[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result) Explanation[I, O] {
	e := Explanation[I, O]{Prefix: res.Prefix, Stuck: res.Stuck}
	state := spec.Init()
	for _, i := range res.Prefix {
		state, _ = spec.Apply(state, ops[i].Input)
	}
	if res.Stuck >= 0 {
		_, e.Expected = spec.Apply(state, ops[res.Stuck].Input)
	}
	for i := range ops {
		if spec.Partition == nil || spec.Partition(ops[i].Input) == res.Partition {
			e.InPart++
		}
	}
	return e
}

// ExplainViolation describes a violation: the longest linearizable prefix found (its
// last rows operations), then the operation that cannot come next, as a timeline.
func ExplainViolation[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result, rows int) string {
	e := Explain(spec, ops, res)
	var b strings.Builder
	where := ""
	if spec.Partition != nil {
		where = fmt.Sprintf(" of key %q", res.Partition)
	}
	shown := e.Prefix
	if len(shown) > rows {
		shown = shown[len(shown)-rows:]
	}
	fmt.Fprintf(&b, "  the longest linearizable prefix found has %d of the %d operations%s", len(e.Prefix), e.InPart, where)
	switch {
	case len(shown) == 0:
		fmt.Fprintf(&b, ";\n  not even the first operation can be linearized:\n")
	case len(shown) < len(e.Prefix):
		fmt.Fprintf(&b, ";\n  its last %d, in linearization order, then the operation that cannot follow it:\n", len(shown))
	default:
		fmt.Fprintf(&b, ", in linearization order,\n  then the operation that cannot follow it:\n")
	}
	b.WriteString(timeline(spec, ops, shown, e.Prefix, res.Stuck, e.Expected))
	return b.String()
}

// timeline draws the operations rows, numbered by their position in the linearization
// prefix, then the stuck operation, one row each, with each operation's span between
// its call and its return on a shared axis (the times of the rows in order, three
// columns apart), as histories.Timeline does.
func timeline[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], rows, prefix []int, stuck int, expected O) string {
	all := slices.Clone(rows)
	if stuck >= 0 {
		all = append(all, stuck)
	}
	var times []int64
	for _, i := range all {
		times = append(times, ops[i].Call)
		if !ops[i].Open {
			times = append(times, ops[i].Return)
		}
	}
	slices.Sort(times)
	times = slices.Compact(times)
	col := func(t int64) int { i, _ := slices.BinarySearch(times, t); return i }
	const width = 3
	end := len(times) * width
	num := len(prefix) - len(rows) + 1
	type row struct{ mark, label, span, tail string }
	var out []row
	note := "" // a DescribeOutput's panic, told once
	for k, i := range all {
		op := ops[i]
		r := row{mark: strconv.Itoa(num + k), label: "c" + strconv.Itoa(op.Client) + "  " + clip(spec.Input(op.Input), 40)}
		start := col(op.Call) * width
		var got, want, n string
		switch {
		case i == stuck && !op.Open:
			got, want, n = describeOutputs(spec, op.Input, op.Output, expected)
		case i == stuck:
			want, n = describeOutput(spec, op.Input, expected)
		case !op.Open:
			got, n = describeOutput(spec, op.Input, op.Output)
		}
		if n != "" {
			note = n
		}
		if op.Open {
			r.span = strings.Repeat(" ", start) + "├" + strings.Repeat("─", end-start)
			r.tail = "  (open: no response)"
		} else {
			r.span = strings.Repeat(" ", start) + "├" + strings.Repeat("─", max(0, col(op.Return)*width-start-1)) + "┤"
			r.tail = " " + clip(got, 40)
		}
		if i == stuck {
			r.mark = "✗"
			r.tail += "   but the specification answers " + clip(want, 40) + " here"
		}
		out = append(out, r)
	}
	labelW, spanW := 0, 0
	for _, r := range out {
		labelW = max(labelW, len([]rune(r.label)))
		spanW = max(spanW, len([]rune(r.span)))
	}
	var b strings.Builder
	for _, r := range out {
		fmt.Fprintf(&b, "  %5s  %s%s  %s%s%s\n", r.mark, r.label, strings.Repeat(" ", labelW-len([]rune(r.label))),
			r.span, strings.Repeat(" ", spanW-len([]rune(r.span))), r.tail)
	}
	if note != "" {
		fmt.Fprintf(&b, "  (outputs shown with %%+v: %s)\n", note)
	}
	return b.String()
}

// describeOutput renders out, the output of an operation with input in, with
// spec.Output, or with %+v when DescribeOutput panics; note is then the panic,
// "PANIC=DescribeOutput: …", and "" otherwise.
func describeOutput[S, I, O comparable](spec specs.Spec[S, I, O], in I, out O) (text, note string) {
	text = spec.Output(in, out)
	if p, ok := specs.DescribePanic(text); ok {
		return fmt.Sprintf("%+v", out), p
	}
	return text, ""
}

// describeOutputs renders actual, the output of an operation with input in, and
// expected, the specification's answer in its place, as describeOutput does, except that
// both are rendered with %+v when either's DescribeOutput panics, or when both render
// the same though they differ ("returns 1, but the specification answers 1"), so that
// the difference shows.
func describeOutputs[S, I, O comparable](spec specs.Spec[S, I, O], in I, actual, expected O) (got, want, note string) {
	got, n1 := describeOutput(spec, in, actual)
	want, n2 := describeOutput(spec, in, expected)
	if note = cmp.Or(n1, n2); note != "" || got == want && actual != expected {
		got, want = fmt.Sprintf("%+v", actual), fmt.Sprintf("%+v", expected)
	}
	return got, want, note
}

// clip shortens s to at most n runes, keeping its end (where appended values show).
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}
