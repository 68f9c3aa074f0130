package formats

import (
	"fmt"
	"io"
	"strings"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// maxLine bounds one line of a history: appends make values grow, so lines can be long,
// but a line of this size means the input is not a history.
const maxLine = 64 << 20

// ReadPorcupineKV reads a key-value history in porcupine's format, one EDN map a line:
//
//	{:process 0, :type :invoke, :f :get, :key "4", :value nil}
//	{:process 0, :type :ok, :f :get, :key "4", :value "x 0 1 y"}
//
// for the specification specs.KV. :f is :get, :put or :append; :key is a string; :value
// is the string put or appended, or on the :ok of a :get the value read (nil there reads
// as "", the value of a key never written); on the :invoke of a :get it is ignored and
// may be missing. Each process runs one operation at a time:
// an :invoke starts it, and the process's next line of another type ends it. Besides
// porcupine's :ok, Jepsen's other two endings are understood: :fail (the operation had
// no effect, so it is dropped from the history) and :info (its outcome is unknown, so it
// stays Open). An operation never ended is Open too.
//
// Times are line numbers: an operation's Call is the line of its :invoke and its Return
// the line of its :ok. An Open operation's Return is one past the last line (it is
// ignored by the checker). Client is the process. Operations are returned in the order
// they were invoked. Blank lines are ignored, and so are the keys :time, :index and
// :error that Jepsen adds; anything else unexpected is a *ParseError naming name and the
// line.
func ReadPorcupineKV(r io.Reader, name string) ([]histories.Operation[specs.KVInput, specs.KVOutput], error) {
	type pendingOp struct {
		op   int // index into ops
		line int // of the invocation
	}
	var ops []histories.Operation[specs.KVInput, specs.KVOutput]
	dropped := map[int]bool{}      // operations that failed
	pending := map[int]pendingOp{} // by process
	sc := newLineScanner(r, name)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.TrimSpace(text) == "" {
			continue
		}
		ev, err := parseKVEvent(text)
		if err != nil {
			if t := []byte(strings.TrimSpace(text)); IsCheckHistoryLine(t) {
				return nil, errorf(name, line, "this line is a whole history of ravel check --histories, not an operation in porcupine's kv format: read the file with --format histories")
			} else if isRavelLine(t) {
				return nil, errorf(name, line, "this line is one operation in the ravel format (it has \"client\" and \"call\"), not in porcupine's kv format: read the file with --format ravel")
			}
			return nil, errorf(name, line, "%v", err)
		}
		p, busy := pending[ev.process]
		if ev.typ == "invoke" {
			if busy {
				return nil, errorf(name, line, "expected process %d to complete its operation invoked at line %d before invoking another",
					ev.process, p.line)
			}
			if ev.f != specs.KVGet && ev.value.Kind != ednString {
				found := "no :value"
				if ev.hasValue {
					found = ev.value.String()
				}
				return nil, errorf(name, line, "expected a string :value for :%s, found %s", kvOpName(ev.f), found)
			}
			in := specs.KVInput{Op: ev.f, Key: ev.key}
			if ev.f != specs.KVGet {
				in.Value = ev.value.Str
			}
			pending[ev.process] = pendingOp{op: len(ops), line: line}
			ops = append(ops, histories.Operation[specs.KVInput, specs.KVOutput]{
				Client: ev.process, Input: in, Call: int64(line), Open: true,
			})
			continue
		}
		if !busy {
			return nil, errorf(name, line, "expected an :invoke from process %d before its :%s", ev.process, ev.typ)
		}
		op := &ops[p.op]
		if op.Input.Op != ev.f || op.Input.Key != ev.key {
			return nil, errorf(name, line, "expected :f :%s, :key %q as invoked at line %d, found :f :%s, :key %q",
				kvOpName(op.Input.Op), op.Input.Key, p.line, kvOpName(ev.f), ev.key)
		}
		delete(pending, ev.process)
		switch ev.typ {
		case "ok":
			switch {
			case ev.f == specs.KVGet && !ev.hasValue:
				return nil, errorf(name, line, "expected a :value (the value read) on the :ok of a :get")
			case ev.f == specs.KVGet:
				op.Output = specs.KVOutput{Value: ev.value.Str} // nil has Str ""
			case ev.value.Kind == ednString && ev.value.Str != op.Input.Value:
				return nil, errorf(name, line, "expected :value %q as invoked at line %d, found %s",
					op.Input.Value, p.line, ev.value)
			}
			op.Return, op.Open = int64(line), false
		case "fail":
			dropped[p.op] = true
		case "info":
			// The outcome is unknown: the operation stays open.
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return finishOps(ops, func(i int) bool { return dropped[i] }, int64(line+1)), nil
}

// kvEvent is one line of a key-value history.
type kvEvent struct {
	process  int
	typ      string // invoke, ok, fail or info
	f        specs.KVOp
	key      string
	value    ednValue // a string or nil
	hasValue bool     // whether the line has a :value at all
}

// parseKVEvent parses and checks one line.
func parseKVEvent(text string) (kvEvent, error) {
	entries, err := parseEDNMap(text)
	if err != nil {
		return kvEvent{}, err
	}
	var ev kvEvent
	var have struct{ process, typ, f, key bool }
	for _, e := range entries {
		v := e.Value
		switch e.Key {
		case "process":
			if v.Kind != ednInt || int64(int(v.Int)) != v.Int {
				return kvEvent{}, fmt.Errorf("expected an integer :process, found %s", v)
			}
			ev.process, have.process = int(v.Int), true
		case "type":
			if v.Kind != ednKeyword || (v.Str != "invoke" && v.Str != "ok" && v.Str != "fail" && v.Str != "info") {
				return kvEvent{}, fmt.Errorf("expected :type :invoke, :ok, :fail or :info, found %s", v)
			}
			ev.typ, have.typ = v.Str, true
		case "f":
			op, ok := kvOps[v.Str]
			if v.Kind != ednKeyword || !ok {
				return kvEvent{}, fmt.Errorf("expected :f :get, :put or :append, found %s", v)
			}
			ev.f, have.f = op, true
		case "key":
			if v.Kind != ednString {
				return kvEvent{}, fmt.Errorf("expected a string :key, found %s", v)
			}
			ev.key, have.key = v.Str, true
		case "value":
			if v.Kind != ednString && v.Kind != ednNil {
				return kvEvent{}, fmt.Errorf("expected a string or nil :value, found %s", v)
			}
			ev.value, ev.hasValue = v, true
		case "time", "index", "error":
			// Jepsen's bookkeeping; the line order is the time line.
		default:
			return kvEvent{}, fmt.Errorf("expected only :process, :type, :f, :key and :value, found :%s", e.Key)
		}
	}
	for _, m := range []struct {
		ok   bool
		name string
	}{{have.process, "process"}, {have.typ, "type"}, {have.f, "f"}, {have.key, "key"}} {
		if !m.ok {
			return kvEvent{}, fmt.Errorf("expected a :%s in the map", m.name)
		}
	}
	return ev, nil
}

// kvOps maps the names of :f to the operations of specs.KV.
var kvOps = map[string]specs.KVOp{"get": specs.KVGet, "put": specs.KVPut, "append": specs.KVAppend}

// kvOpName is the :f name of op.
func kvOpName(op specs.KVOp) string {
	switch op {
	case specs.KVPut:
		return "put"
	case specs.KVAppend:
		return "append"
	default:
		return "get"
	}
}
