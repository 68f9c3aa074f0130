package formats

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// jepsenLogger is the logger Jepsen logs each operation with: the part of a log line
// after it records an operation, and a line without it is noise (Jepsen logs much else)
// and is skipped. Jepsen's logs until about 2017 (the etcd logs of Knossos and
// porcupine) write "jepsen.util - " before the operation; later ones write
// "jepsen worker 3 - jepsen.util 3\t:invoke…", the logger followed by a space.
const jepsenLogger = "jepsen.util"

// JepsenLineForms shows the lines ReadJepsen reads, for a message that says what a file
// should hold.
const JepsenLineForms = `"INFO  jepsen.util - 3\t:invoke\t:cas\t[1 4]" (Jepsen's log until about 2017), ` +
	`"INFO [2019-04-01 11:25:23,790] jepsen worker 3 - jepsen.util 3\t:invoke\t:cas\t[1 4]" (later) or ` +
	`"{:type :invoke, :f :cas, :value [1 4], :process 3}" (history.edn)`

// jepsenOpText returns the part of a log line after the marker of an operation, and
// whether the line has one. The older form, "jepsen.util - ", is always an operation's
// line (and malformed if it does not parse); after the later form, "jepsen.util "
// with no dash, only a line going on with a process number or the nemesis is one: the
// logger's other lines are skipped.
func jepsenOpText(text string) (string, bool) {
	for from := 0; ; {
		at := strings.Index(text[from:], jepsenLogger)
		if at < 0 {
			return "", false
		}
		rest := text[from+at+len(jepsenLogger):]
		if op, ok := strings.CutPrefix(rest, " - "); ok {
			return op, true
		}
		if rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			first, _, _ := strings.Cut(strings.TrimLeft(rest, " \t"), "\t")
			first, _, _ = strings.Cut(first, " ")
			if _, err := strconv.Atoi(first); err == nil || first == ":nemesis" || first == "nemesis" {
				return rest, true
			}
		}
		from += at + len(jepsenLogger)
	}
}

// jepsenEDNText returns the EDN map of a line of Jepsen's history.edn, and whether the
// line is one: a map (or a record, #jepsen.history.Op{…}) with :type and :f, alone on its
// line or, in a history written as one vector, after its "[" or before its "]".
func jepsenEDNText(text string) (string, bool) {
	t := strings.TrimSpace(text)
	t = strings.TrimSpace(strings.TrimPrefix(t, "["))
	if strings.HasSuffix(t, "]") && !strings.HasSuffix(t, "]}") {
		t = strings.TrimSpace(strings.TrimSuffix(t, "]"))
	}
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "#jepsen") {
		return "", false
	}
	return t, strings.Contains(t, ":type") && strings.Contains(t, ":f")
}

// parseJepsenEDN parses one operation of Jepsen's history.edn, a map such as
//
//	{:type :invoke, :f :cas, :value [1 4], :time 3291485317, :process 3, :index 7}
//
// into the event its log line would give: :process, :type, :f and :value as there; the
// other keys (:time, :index, :error) are ignored. A :process that is a keyword
// (:nemesis) is the fault injector's.
func parseJepsenEDN(text string) (jepsenEvent, error) {
	entries, err := parseEDNMap(text)
	if err != nil {
		return jepsenEvent{}, err
	}
	get := func(key string) (ednValue, bool) {
		for _, e := range entries {
			if e.Key == key {
				return e.Value, true
			}
		}
		return ednValue{}, false
	}
	proc, ok := get("process")
	if !ok {
		return jepsenEvent{}, fmt.Errorf("expected a :process in the map")
	}
	if proc.Kind == ednKeyword {
		return jepsenEvent{nemesis: true}, nil
	}
	if proc.Kind != ednInt || proc.Int < 0 || proc.Int > math.MaxInt32 {
		return jepsenEvent{}, fmt.Errorf("expected a process number or :nemesis as :process, found %s", quoteShort(proc.String()))
	}
	ev := jepsenEvent{process: int(proc.Int)}
	typ, _ := get("type")
	switch {
	case typ.Kind == ednKeyword && (typ.Str == "invoke" || typ.Str == "ok" || typ.Str == "fail" || typ.Str == "info"):
		ev.typ = typ.Str
	default:
		return jepsenEvent{}, fmt.Errorf("expected :invoke, :ok, :fail or :info as :type, found %s", quoteShort(typ.String()))
	}
	f, _ := get("f")
	switch {
	case f.Kind == ednKeyword && f.Str == "read":
		ev.f = specs.CASRead
	case f.Kind == ednKeyword && f.Str == "write":
		ev.f = specs.CASWrite
	case f.Kind == ednKeyword && f.Str == "cas":
		ev.f = specs.CASSwap
	default:
		hint := ""
		if _, keyed := get("key"); keyed {
			hint = " (a map with :key is porcupine's kv log: --spec kv, --format porcupine-kv)"
		}
		return jepsenEvent{}, fmt.Errorf("expected :read, :write or :cas as :f, found %s%s", quoteShort(f.String()), hint)
	}
	v, _ := get("value") // absent reads as nil
	ev.value.text = v.String()
	switch {
	case v.Kind == ednNil:
		ev.value.kind = jvNil
	case v.Kind == ednKeyword:
		ev.value.kind = jvKeyword
	case v.Kind == ednInt && v.Int >= math.MinInt && v.Int <= math.MaxInt:
		ev.value.kind, ev.value.a = jvInt, int(v.Int)
	case v.Kind == ednVector && len(v.Items) == 2 && v.Items[0].Kind == ednInt && v.Items[1].Kind == ednInt:
		ev.value = jepsenValue{kind: jvPair, a: int(v.Items[0].Int), b: int(v.Items[1].Int), text: ev.value.text}
	default:
		return jepsenEvent{}, fmt.Errorf("expected nil, an integer, a pair [A B] of integers or a keyword as :value, found %s", quoteShort(ev.value.text))
	}
	return ev, nil
}

// ReadJepsen reads a compare-and-set register history from a Jepsen log, such as the
// etcd logs of porcupine's and Knossos's test data, for the specification
// specs.CASRegister. The lines that matter look like
//
//	INFO  jepsen.util - 3	:invoke	:cas	[1 4]
//
// as Jepsen logged until about 2017, or, as it has logged since,
//
//	INFO [2019-04-01 11:25:23,790] jepsen worker 3 - jepsen.util 3	:invoke	:cas	[1 4]
//
// — a process number, a type (:invoke, :ok, :fail or :info), a function (:read, :write
// or :cas) and a value, separated by tabs or spaces; a :fail or an :info may carry an
// error after the value, which is ignored. It reads Jepsen's history.edn too, one EDN
// map an operation, with the same four as :process, :type, :f and :value,
//
//	{:type :invoke, :f :cas, :value [1 4], :time 3291485317, :process 3, :index 7}
//
// (the other keys, such as :time, :index and :error, are ignored; a record's tag,
// #jepsen.history.Op{…}, and a history written as one vector of maps are read too).
// Every other line is skipped; a line with "jepsen.util - " that does not parse is a
// *ParseError naming name and the line and saying what was expected, and so is one with
// "jepsen.util N" (a process number) or "jepsen.util :nemesis", and a map with :type
// and :f. A line whose process is :nemesis (or "nemesis") is the fault injector's and
// is skipped.
//
// An :invoke of :read carries nil, of :write the value N, of :cas the pair [A B]. The
// :ok of a :read carries the value read, nil when the register is still absent (Jepsen's
// nil); the :ok of a :write or :cas says it took effect. A :fail of a :cas carries [A B]
// and says the register did not hold A: the operation is kept, completed, with the
// output CASOutput{} (a failed compare-and-set). Any other :fail (a timed-out read, a
// write refused) means the operation had no effect, and it is dropped. An :info means
// the outcome is unknown: the operation stays Open, and the process is free again (Jepsen
// gives the next operation a fresh process number, but a reused one is accepted). An
// operation that never ends is Open too.
//
// Times are line numbers, as for ReadPorcupineKV: Call is the line of the :invoke and
// Return the line of the completion; an Open operation's Return is one past the last
// line. Client is the process. Operations are returned in the order they were invoked.
//
// An input with no line of either kind — empty, or not a Jepsen log at all — gives an
// empty history and no error, and an empty history is linearizable: a caller that must
// not pass such a file checks for it (ravel lincheck refuses it).
func ReadJepsen(r io.Reader, name string) ([]histories.Operation[specs.CASInput, specs.CASOutput], error) {
	type pendingOp struct {
		op   int // index into ops
		line int // of the invocation
	}
	var ops []histories.Operation[specs.CASInput, specs.CASOutput]
	var dropped []bool             // by operation
	pending := map[int]pendingOp{} // by process
	sc := newLineScanner(r, name)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		var ev jepsenEvent
		var err error
		if opText, ok := jepsenOpText(text); ok {
			ev, err = parseJepsenEvent(opText)
		} else if edn, ok := jepsenEDNText(text); ok {
			ev, err = parseJepsenEDN(edn)
		} else {
			continue
		}
		if err != nil {
			return nil, errorf(name, line, "%v", err)
		}
		if ev.nemesis {
			continue
		}
		p, busy := pending[ev.process]
		if ev.typ == "invoke" {
			if busy {
				return nil, errorf(name, line, "expected process %d to complete its operation invoked at line %d before invoking another",
					ev.process, p.line)
			}
			in, err := jepsenInput(ev)
			if err != nil {
				return nil, errorf(name, line, "%v", err)
			}
			pending[ev.process] = pendingOp{op: len(ops), line: line}
			ops = append(ops, histories.Operation[specs.CASInput, specs.CASOutput]{
				Client: ev.process, Input: in, Call: int64(line), Open: true,
			})
			dropped = append(dropped, false)
			continue
		}
		if !busy {
			return nil, errorf(name, line, "expected an :invoke from process %d before its :%s", ev.process, ev.typ)
		}
		op := &ops[p.op]
		if ev.f != op.Input.Op {
			return nil, errorf(name, line, "expected :%s as invoked at line %d, found :%s",
				casOpName(op.Input.Op), p.line, casOpName(ev.f))
		}
		delete(pending, ev.process)
		switch ev.typ {
		case "ok":
			out, err := jepsenOutput(op.Input, ev, p.line)
			if err != nil {
				return nil, errorf(name, line, "%v", err)
			}
			op.Output, op.Return, op.Open = out, int64(line), false
		case "fail":
			if op.Input.Op == specs.CASSwap && ev.value.kind == jvPair {
				if err := samePair(op.Input, ev, p.line); err != nil {
					return nil, errorf(name, line, "%v", err)
				}
				op.Output, op.Return, op.Open = specs.CASOutput{}, int64(line), false
			} else {
				dropped[p.op] = true
			}
		case "info":
			// The outcome is unknown: the operation stays open.
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return finishOps(ops, func(i int) bool { return dropped[i] }, int64(line+1)), nil
}

// The kinds of value a Jepsen line carries.
const (
	jvNil     = iota // nil
	jvInt            // N
	jvPair           // [A B]
	jvKeyword        // :timed-out and the like
)

// jepsenValue is the value of one line.
type jepsenValue struct {
	kind int
	a, b int
	text string // as written, for messages
}

// jepsenEvent is one line of a Jepsen log, from the process number on.
type jepsenEvent struct {
	process int
	typ     string // invoke, ok, fail or info
	f       specs.CASOp
	value   jepsenValue
	nemesis bool // a line of the fault injector, not of a client: skipped
}

// parseJepsenEvent parses "<process> :<type> :<f> <value>", and for a :fail or an
// :info an optional error after the value.
func parseJepsenEvent(s string) (jepsenEvent, error) {
	fields := strings.Fields(s)
	if len(fields) < 4 {
		return jepsenEvent{}, fmt.Errorf("expected a process, a :type, an :f and a value after %q, found %d fields %s",
			jepsenLogger, len(fields), quoteShort(strings.TrimSpace(s)))
	}
	var ev jepsenEvent
	if fields[0] == ":nemesis" || fields[0] == "nemesis" {
		return jepsenEvent{nemesis: true}, nil
	}
	p, err := strconv.Atoi(fields[0])
	if err != nil || p < 0 {
		return jepsenEvent{}, fmt.Errorf("expected a process number, found %s", quoteShort(fields[0]))
	}
	ev.process = p
	switch fields[1] {
	case ":invoke", ":ok", ":fail", ":info":
		ev.typ = fields[1][1:]
	default:
		return jepsenEvent{}, fmt.Errorf("expected :invoke, :ok, :fail or :info, found %s", quoteShort(fields[1]))
	}
	switch fields[2] {
	case ":read":
		ev.f = specs.CASRead
	case ":write":
		ev.f = specs.CASWrite
	case ":cas":
		ev.f = specs.CASSwap
	default:
		return jepsenEvent{}, fmt.Errorf("expected :read, :write or :cas, found %s", quoteShort(fields[2]))
	}
	// The value: one field, or a pair [A B] however spaced; Jepsen writes an error
	// after the value of a :fail or an :info (…	:info	:cas	[1 2]	:timeout).
	v, extra := fields[3], fields[4:]
	if strings.HasPrefix(v, "[") {
		all := strings.Join(fields[3:], " ")
		if end := strings.Index(all, "]"); end >= 0 {
			v, extra = all[:end+1], strings.Fields(all[end+1:])
		} else {
			v, extra = all, nil
		}
	}
	if len(extra) > 0 && ev.typ != "fail" && ev.typ != "info" {
		return jepsenEvent{}, fmt.Errorf("expected nothing after the value %s of an :%s (only a :fail or an :info carries an error), found %s",
			quoteShort(v), ev.typ, quoteShort(strings.Join(extra, " ")))
	}
	ev.value.text = v
	switch {
	case v == "nil":
		ev.value.kind = jvNil
	case strings.HasPrefix(v, ":") && len(v) > 1 && !strings.ContainsAny(v, " []"):
		ev.value.kind = jvKeyword
	case strings.HasPrefix(v, "["):
		inner, ok := strings.CutSuffix(v[1:], "]")
		parts := strings.Fields(inner)
		if !ok || len(parts) != 2 {
			return jepsenEvent{}, fmt.Errorf("expected a pair [A B] of integers, found %s", quoteShort(v))
		}
		a, errA := jepsenInt(parts[0])
		b, errB := jepsenInt(parts[1])
		if err := errors.Join(errA, errB); err != nil {
			return jepsenEvent{}, fmt.Errorf("expected a pair [A B] of integers, found %s: %v", quoteShort(v), err)
		}
		ev.value = jepsenValue{kind: jvPair, a: a, b: b, text: v}
	default:
		n, err := jepsenInt(v)
		if errors.Is(err, errIntRange) {
			return jepsenEvent{}, err
		}
		if err != nil {
			return jepsenEvent{}, fmt.Errorf("expected nil, an integer, a pair [A B] or a keyword as the value, found %s", quoteShort(v))
		}
		ev.value = jepsenValue{kind: jvInt, a: n, text: v}
	}
	return ev, nil
}

// errIntRange is an integer beyond 64 bits.
var errIntRange = errors.New("out of range (beyond 64 bits)")

// jepsenInt reads an integer; one beyond 64 bits is an error that says so.
func jepsenInt(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("expected an integer of 64 bits, found %s: %w", quoteShort(s), errIntRange)
	}
	return n, err
}

// quoteShort quotes s for a message, cut to its first 40 bytes (and a count of the rest)
// when longer: a bad value may be megabytes long.
func quoteShort(s string) string {
	const most = 40
	if len(s) <= most {
		return strconv.Quote(s)
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// jepsenInput is the input an :invoke line asks for.
func jepsenInput(ev jepsenEvent) (specs.CASInput, error) {
	switch ev.f {
	case specs.CASWrite:
		if ev.value.kind != jvInt {
			return specs.CASInput{}, fmt.Errorf("expected an integer to :write, found %s", quoteShort(ev.value.text))
		}
		return specs.CASInput{Op: specs.CASWrite, A: ev.value.a}, nil
	case specs.CASSwap:
		if ev.value.kind != jvPair {
			return specs.CASInput{}, fmt.Errorf("expected a pair [A B] to :cas, found %s", quoteShort(ev.value.text))
		}
		return specs.CASInput{Op: specs.CASSwap, A: ev.value.a, B: ev.value.b}, nil
	default:
		if ev.value.kind != jvNil {
			return specs.CASInput{}, fmt.Errorf("expected nil as the value of a :read's :invoke, found %s", quoteShort(ev.value.text))
		}
		return specs.CASInput{Op: specs.CASRead}, nil
	}
}

// jepsenOutput is the output an :ok line reports for the operation with input in,
// invoked at line invoked.
func jepsenOutput(in specs.CASInput, ev jepsenEvent, invoked int) (specs.CASOutput, error) {
	switch in.Op {
	case specs.CASRead:
		switch ev.value.kind {
		case jvNil:
			return specs.CASOutput{OK: true, Absent: true}, nil
		case jvInt:
			return specs.CASOutput{OK: true, Value: ev.value.a}, nil
		}
		return specs.CASOutput{}, fmt.Errorf("expected nil or an integer as the value read, found %s", quoteShort(ev.value.text))
	case specs.CASWrite:
		if ev.value.kind != jvInt || ev.value.a != in.A {
			return specs.CASOutput{}, fmt.Errorf("expected :write %d as invoked at line %d, found %s", in.A, invoked, quoteShort(ev.value.text))
		}
		return specs.CASOutput{OK: true}, nil
	default:
		if err := samePair(in, ev, invoked); err != nil {
			return specs.CASOutput{}, err
		}
		return specs.CASOutput{OK: true}, nil
	}
}

// samePair checks that a :cas completion carries the pair it was invoked with.
func samePair(in specs.CASInput, ev jepsenEvent, invoked int) error {
	if ev.value.kind != jvPair || ev.value.a != in.A || ev.value.b != in.B {
		return fmt.Errorf("expected :cas [%d %d] as invoked at line %d, found %s", in.A, in.B, invoked, quoteShort(ev.value.text))
	}
	return nil
}

// casOpName is the :f name of op.
func casOpName(op specs.CASOp) string {
	switch op {
	case specs.CASWrite:
		return "write"
	case specs.CASSwap:
		return "cas"
	default:
		return "read"
	}
}
