package formats

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// jepsenMarker starts the part of a log line that records an operation; a line without
// it is noise (Jepsen logs much else) and is skipped.
const jepsenMarker = "jepsen.util - "

// ReadJepsen reads a compare-and-set register history from a Jepsen log, such as the
// etcd logs of porcupine's and Knossos's test data, for the specification
// specs.CASRegister. The lines that matter look like
//
//	INFO  jepsen.util - 3	:invoke	:cas	[1 4]
//
// — a process number, a type (:invoke, :ok, :fail or :info), a function (:read, :write
// or :cas) and a value, separated by tabs or spaces. Every line without "jepsen.util - "
// is skipped; a line with it that does not parse is a *ParseError naming name and the
// line and saying what was expected.
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
		at := strings.Index(text, jepsenMarker)
		if at < 0 {
			continue
		}
		ev, err := parseJepsenEvent(text[at+len(jepsenMarker):])
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

// parseJepsenEvent parses "<process> :<type> :<f> <value>".
func parseJepsenEvent(s string) (jepsenEvent, error) {
	fields := strings.Fields(s)
	if len(fields) < 4 {
		return jepsenEvent{}, fmt.Errorf("expected a process, a :type, an :f and a value after %q, found %d fields %q",
			strings.TrimSpace(jepsenMarker), len(fields), strings.TrimSpace(s))
	}
	var ev jepsenEvent
	if fields[0] == ":nemesis" || fields[0] == "nemesis" {
		return jepsenEvent{nemesis: true}, nil
	}
	p, err := strconv.Atoi(fields[0])
	if err != nil || p < 0 {
		return jepsenEvent{}, fmt.Errorf("expected a process number, found %q", fields[0])
	}
	ev.process = p
	switch fields[1] {
	case ":invoke", ":ok", ":fail", ":info":
		ev.typ = fields[1][1:]
	default:
		return jepsenEvent{}, fmt.Errorf("expected :invoke, :ok, :fail or :info, found %q", fields[1])
	}
	switch fields[2] {
	case ":read":
		ev.f = specs.CASRead
	case ":write":
		ev.f = specs.CASWrite
	case ":cas":
		ev.f = specs.CASSwap
	default:
		return jepsenEvent{}, fmt.Errorf("expected :read, :write or :cas, found %q", fields[2])
	}
	v := strings.Join(fields[3:], " ")
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
			return jepsenEvent{}, fmt.Errorf("expected a pair [A B] of integers, found %q", v)
		}
		a, errA := strconv.Atoi(parts[0])
		b, errB := strconv.Atoi(parts[1])
		if errA != nil || errB != nil {
			return jepsenEvent{}, fmt.Errorf("expected a pair [A B] of integers, found %q", v)
		}
		ev.value = jepsenValue{kind: jvPair, a: a, b: b, text: v}
	default:
		n, err := strconv.Atoi(v)
		if err != nil {
			return jepsenEvent{}, fmt.Errorf("expected nil, an integer, a pair [A B] or a keyword as the value, found %q", v)
		}
		ev.value = jepsenValue{kind: jvInt, a: n, text: v}
	}
	return ev, nil
}

// jepsenInput is the input an :invoke line asks for.
func jepsenInput(ev jepsenEvent) (specs.CASInput, error) {
	switch ev.f {
	case specs.CASWrite:
		if ev.value.kind != jvInt {
			return specs.CASInput{}, fmt.Errorf("expected an integer to :write, found %q", ev.value.text)
		}
		return specs.CASInput{Op: specs.CASWrite, A: ev.value.a}, nil
	case specs.CASSwap:
		if ev.value.kind != jvPair {
			return specs.CASInput{}, fmt.Errorf("expected a pair [A B] to :cas, found %q", ev.value.text)
		}
		return specs.CASInput{Op: specs.CASSwap, A: ev.value.a, B: ev.value.b}, nil
	default:
		if ev.value.kind != jvNil {
			return specs.CASInput{}, fmt.Errorf("expected nil as the value of a :read's :invoke, found %q", ev.value.text)
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
		return specs.CASOutput{}, fmt.Errorf("expected nil or an integer as the value read, found %q", ev.value.text)
	case specs.CASWrite:
		if ev.value.kind != jvInt || ev.value.a != in.A {
			return specs.CASOutput{}, fmt.Errorf("expected :write %d as invoked at line %d, found %q", in.A, invoked, ev.value.text)
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
		return fmt.Errorf("expected :cas [%d %d] as invoked at line %d, found %q", in.A, in.B, invoked, ev.value.text)
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
