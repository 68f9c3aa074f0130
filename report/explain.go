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
	// Prefix is the longest linearizable prefix found — indices into the operations, in
	// linearization order — less the open operations of it listed in LeftOut.
	Prefix []int
	// LeftOut are the open operations of the longest prefix found that the explanation
	// leaves out: an open operation may never have taken effect, and without it the
	// prefix still gives every recorded output and Stuck still cannot follow, so it
	// would only point the reader at an answer Stuck was never bound to give, away from
	// the completed operations that rule its answer out. An open operation that another
	// operation's output needs, or without which Stuck could follow, stays in Prefix;
	// so does the last one, so that Prefix is never emptied by leaving out.
	LeftOut []int
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
	if res.Stuck >= 0 && !ops[res.Stuck].Open {
		e.Prefix, e.LeftOut = leaveOutOpen(spec, ops, res)
	}
	state := spec.Init()
	for _, i := range e.Prefix {
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

// leaveOutOpen returns res.Prefix less the open operations it can do without, one at a
// time in prefix order (see Explanation.LeftOut), and those operations. The completed
// operations keep their order: leaving an operation out cannot break real-time order,
// and an open operation precedes none.
func leaveOutOpen[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result) (prefix, left []int) {
	prefix = res.Prefix
	stuck := ops[res.Stuck]
	holds := func(p []int) bool {
		state := spec.Init()
		for _, i := range p {
			var out O
			state, out = spec.Apply(state, ops[i].Input)
			if !ops[i].Open && out != ops[i].Output {
				return false
			}
		}
		_, out := spec.Apply(state, stuck.Input)
		return out != stuck.Output
	}
	for k := 0; k < len(prefix); {
		if !ops[prefix[k]].Open || len(prefix) == 1 {
			k++
			continue
		}
		without := slices.Delete(slices.Clone(prefix), k, k+1)
		if !holds(without) {
			k++
			continue
		}
		left = append(left, prefix[k])
		prefix = without
	}
	return prefix, left
}

// ExplainViolation describes a violation: the longest linearizable prefix found (its
// last rows operations), less the open operations it can do without (see
// Explanation.LeftOut, named in the heading), then the operation that cannot come next,
// as a timeline. Below it, when the stuck operation answered as it would have right
// after some operations (a write of the value a read returned), those are named, each
// with the operation real time puts between it and the stuck one that changes the
// answer; when it answered as it would have at the start (a read of the initial
// value), the completed operation that returned before its call and changes the answer
// is named.
func ExplainViolation[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result, rows int) string {
	return explainViolation(spec, ops, res, rows, false)
}

// ExplainRecorded is ExplainViolation for a recorded history, whose times point into a
// file: each operation is given with its times, [call…return] (in a Jepsen or
// porcupine log, the lines of its invocation and its completion), for a reader to find
// it there. As in ExplainViolation, the operations after which the stuck one would have
// answered as it did, had they come just before it (a write of the value a read
// returned), are drawn too, wherever they are in the prefix, and named below the
// timeline, each with the operation real time puts between it and the stuck one that
// changes the answer: a reader sees what the answer needed, where it was, and what
// ruled it out.
func ExplainRecorded[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result, rows int) string {
	return explainViolation(spec, ops, res, rows, true)
}

func explainViolation[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result, rows int, times bool) string {
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
	place := make(map[int]int, len(e.Prefix)) // an operation's place in the prefix, from 1
	for k, i := range e.Prefix {
		place[i] = k + 1
	}
	producers := producersOf(spec, ops, res, e, place)
	var extra []int // producers the cut prefix does not show
	for _, j := range producers {
		if !slices.Contains(shown, j) {
			extra = append(extra, j)
		}
	}
	fmt.Fprintf(&b, "  the longest linearizable prefix found has %d of the %d operations%s", len(e.Prefix)+len(e.LeftOut), e.InPart, where)
	if len(e.LeftOut) > 0 {
		left := make([]string, len(e.LeftOut))
		for k, i := range e.LeftOut {
			left[k] = "c" + strconv.Itoa(ops[i].Client) + " " + clip(spec.Input(ops[i].Input), 40) + spanIf(ops[i], times)
		}
		fmt.Fprintf(&b, ";\n  here without the open %s, which need not have taken effect", strings.Join(left, ", "))
		if len(shown) == len(e.Prefix) {
			b.WriteString(",\n  in linearization order, then the operation that cannot follow it:\n")
		}
	}
	switch {
	case len(e.LeftOut) > 0 && len(shown) == len(e.Prefix):
	case len(shown) == 0:
		fmt.Fprintf(&b, ";\n  not even the first operation can be linearized:\n")
	case len(shown) < len(e.Prefix):
		fmt.Fprintf(&b, ";\n  its last %d, in linearization order, then the operation that cannot follow it", len(shown))
		if len(extra) > 0 {
			fmt.Fprintf(&b, "\n  (first, %s after which it would have answered as it did: see below)", plural(len(extra), "operation"))
		}
		b.WriteString(":\n")
	default:
		fmt.Fprintf(&b, ", in linearization order,\n  then the operation that cannot follow it:\n")
	}
	slices.SortFunc(extra, func(a, c int) int {
		// Those of the prefix in its order, then the others in call order.
		pa, pc := place[a], place[c]
		switch {
		case pa > 0 && pc > 0:
			return cmp.Compare(pa, pc)
		case pa > 0 || pc > 0:
			return cmp.Compare(pc, pa)
		}
		return cmp.Compare(ops[a].Call, ops[c].Call)
	})
	drawn := append(slices.Clone(extra), shown...)
	marks := make([]string, len(drawn))
	for k, i := range drawn {
		marks[k] = "·"
		if place[i] > 0 {
			marks[k] = strconv.Itoa(place[i])
		}
	}
	b.WriteString(timeline(spec, ops, drawn, marks, res.Stuck, e.Expected, times))
	if len(producers) > 0 {
		st := ops[res.Stuck]
		got, _ := describeOutput(spec, st.Input, st.Output)
		fmt.Fprintf(&b, "  c%d %s%s answered %s, as it would have right after\n", st.Client, clip(spec.Input(st.Input), 40), spanIf(st, times), clip(got, 40))
		for _, j := range producers {
			where := "not in the prefix"
			if place[j] > 0 {
				where = "#" + strconv.Itoa(place[j])
			}
			fmt.Fprintf(&b, "    c%d %s%s (%s)", ops[j].Client, clip(spec.Input(ops[j].Input), 40), spanIf(ops[j], times), where)
			if k := between(spec, ops, res, e, j); k >= 0 {
				fmt.Fprintf(&b, ", but c%d %s%s comes after it and before c%d's call, in real time, and changes the answer",
					ops[k].Client, clip(spec.Input(ops[k].Input), 40), spanIf(ops[k], times), st.Client)
			}
			b.WriteByte('\n')
		}
	}
	if k := fromStart(spec, ops, res); k >= 0 && len(producers) == 0 {
		st := ops[res.Stuck]
		got, _ := describeOutput(spec, st.Input, st.Output)
		fmt.Fprintf(&b, "  c%d %s%s answered %s, as it would have at the start,\n    but c%d %s%s returned before c%d's call and changes the answer\n",
			st.Client, clip(spec.Input(st.Input), 40), spanIf(st, times), clip(got, 40),
			ops[k].Client, clip(spec.Input(ops[k].Input), 40), spanIf(ops[k], times), st.Client)
	}
	return b.String()
}

// fromStart returns, when the stuck operation answered what it would have at the start
// (a read of the initial value), a completed operation of the failing partition that
// returned before the stuck one was called and that, coming first, changes its answer
// from the one it gave: the latest to return. It returns -1 when there is none, or the
// stuck operation is open or would have answered otherwise at the start.
func fromStart[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result) int {
	if res.Stuck < 0 || ops[res.Stuck].Open {
		return -1
	}
	stuck := ops[res.Stuck]
	init := spec.Init()
	if _, out := spec.Apply(init, stuck.Input); out != stuck.Output {
		return -1
	}
	return latestChanger(spec, ops, res, init, func(int, histories.Operation[I, O]) bool { return true })
}

// latestChanger returns the completed operation of the failing partition, other than
// the stuck one, that returned before the stuck one was called, that keep accepts, and
// that applied to state changes the stuck operation's answer from the one it gave: the
// latest to return, or -1 if none does.
func latestChanger[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result, state S, keep func(int, histories.Operation[I, O]) bool) int {
	stuck := ops[res.Stuck]
	best := -1
	for k, op := range ops {
		if k == res.Stuck || op.Open || op.Return >= stuck.Call || !keep(k, op) ||
			spec.Partition != nil && spec.Partition(op.Input) != res.Partition {
			continue
		}
		next, _ := spec.Apply(state, op.Input)
		if _, out := spec.Apply(next, stuck.Input); out != stuck.Output && (best < 0 || op.Return > ops[best].Return) {
			best = k
		}
	}
	return best
}

// mostProducers is how many operations producersOf names.
const mostProducers = 3

// producersOf returns the operations of the failing partition, up to mostProducers of
// them, after which the stuck operation would have answered what it did, had they come
// right after the prefix and it right after them: a write of the value a read returned.
// Only operations called before the stuck one returned count (a later one cannot have
// come before it); the latest calls first. None when the stuck operation is open.
func producersOf[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result, e Explanation[I, O], place map[int]int) []int {
	if res.Stuck < 0 || ops[res.Stuck].Open {
		return nil
	}
	stuck := ops[res.Stuck]
	state := spec.Init()
	for _, i := range e.Prefix {
		state, _ = spec.Apply(state, ops[i].Input)
	}
	if _, out := spec.Apply(state, stuck.Input); out == stuck.Output {
		return nil // nothing is missing: the real-time order is what breaks
	}
	var found []int
	for j, op := range ops {
		if j == res.Stuck || op.Call >= stuck.Return || spec.Partition != nil && spec.Partition(op.Input) != res.Partition {
			continue
		}
		next, _ := spec.Apply(state, op.Input)
		if _, out := spec.Apply(next, stuck.Input); out == stuck.Output {
			found = append(found, j)
		}
	}
	slices.SortStableFunc(found, func(a, b int) int { return cmp.Compare(ops[b].Call, ops[a].Call) })
	if len(found) > mostProducers {
		found = found[:mostProducers]
	}
	return found
}

// between returns an operation that real time puts after producer j and before the
// stuck operation — it was called after j returned and returned before the stuck one
// was called — and that, coming between them, changes the stuck one's answer from the
// one it gave; the latest to return, or -1 if none does.
func between[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res wgl.Result, e Explanation[I, O], j int) int {
	if ops[j].Open {
		return -1
	}
	state := spec.Init()
	for _, i := range e.Prefix {
		state, _ = spec.Apply(state, ops[i].Input)
	}
	afterJ, _ := spec.Apply(state, ops[j].Input)
	return latestChanger(spec, ops, res, afterJ, func(k int, op histories.Operation[I, O]) bool {
		return k != j && op.Call > ops[j].Return
	})
}

// spanIf is " " and span(op) when times, and "" otherwise.
func spanIf[I, O any](op histories.Operation[I, O], times bool) string {
	if !times {
		return ""
	}
	return " " + span(op)
}

// span is an operation's times, [call…return], or [call…] when it is open.
func span[I, O any](op histories.Operation[I, O]) string {
	if op.Open {
		return fmt.Sprintf("[%d…]", op.Call)
	}
	return fmt.Sprintf("[%d…%d]", op.Call, op.Return)
}

// plural is n with noun, in the plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// timeline draws the operations rows, marked with marks, then the stuck operation, one
// row each, with each operation's times and its span between its call and its return on
// a shared axis (the times of the rows in order, three columns apart), as
// histories.Timeline does.
func timeline[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], rows []int, marks []string, stuck int, expected O, times bool) string {
	all := slices.Clone(rows)
	if stuck >= 0 {
		all = append(all, stuck)
	}
	var axis []int64
	for _, i := range all {
		axis = append(axis, ops[i].Call)
		if !ops[i].Open {
			axis = append(axis, ops[i].Return)
		}
	}
	slices.Sort(axis)
	axis = slices.Compact(axis)
	col := func(t int64) int { i, _ := slices.BinarySearch(axis, t); return i }
	const width = 3
	end := len(axis) * width
	type row struct{ mark, label, at, span, tail string }
	var out []row
	note := "" // a DescribeOutput's panic, told once
	for k, i := range all {
		op := ops[i]
		r := row{label: "c" + strconv.Itoa(op.Client) + "  " + clip(spec.Input(op.Input), 40)}
		if times {
			r.at = span(op)
		}
		if k < len(marks) {
			r.mark = marks[k]
		}
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
	labelW, atW, spanW := 0, 0, 0
	for _, r := range out {
		labelW = max(labelW, len([]rune(r.label)))
		atW = max(atW, len([]rune(r.at)))
		spanW = max(spanW, len([]rune(r.span)))
	}
	pad := func(s string, w int) string { return s + strings.Repeat(" ", w-len([]rune(s))) }
	var b strings.Builder
	for _, r := range out {
		at := ""
		if times {
			at = pad(r.at, atW) + "  "
		}
		fmt.Fprintf(&b, "  %5s  %s  %s%s%s\n", r.mark, pad(r.label, labelW), at, pad(r.span, spanW), r.tail)
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

// clip shortens s to at most n runes by cutting its middle, keeping its start (the
// operation and its key: `Put(a, "`) and its end (where appended values show).
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}
