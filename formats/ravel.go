package formats

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// Ravel's own format for recorded histories: JSON Lines, one operation a line, in the
// order the operations were invoked (any order is accepted):
//
//	{"client":0,"input":{"f":"write","value":1},"output":"ok","call":1,"return":4}
//	{"client":1,"input":{"f":"read"},"output":1,"call":2,"return":3}
//	{"client":2,"input":{"f":"cas","from":1,"to":2},"call":5,"open":true}
//
// "client" is an integer naming who invoked the operation. "call" and "return" are
// integer times on one clock — timestamps, or positions of the events in the history —
// and operation A precedes operation B in real time when A returns strictly before B is
// called (at an equal time they are concurrent). "input" is what was asked and "output"
// what was answered, written as the specification's Codec says. An operation whose
// outcome is unknown (it timed out, or the client crashed) has "open": true and neither
// "output" nor "return": it may have taken effect at any time after its call, or never.
// Blank lines and lines starting with # are skipped. Anything else is a *ParseError
// naming the line and saying what was expected.

// Codec writes and reads the inputs and outputs of one specification as JSON values.
// The three specifications of package specs have one each (RegisterCodec, CASCodec,
// KVCodec).
type Codec[I, O any] struct {
	// Spec is the name of the specification, as specs names it.
	Spec string
	// EncodeInput and EncodeOutput give the JSON of an input, and of the output of an
	// operation with input in.
	EncodeInput  func(in I) any
	EncodeOutput func(in I, out O) any
	// DecodeInput and DecodeOutput read them back; a missing output is passed as nil.
	// Their errors say what was expected, for a ParseError.
	DecodeInput  func(raw json.RawMessage) (I, error)
	DecodeOutput func(in I, raw json.RawMessage) (O, error)
}

// ravelLine is one line of the format. Pointers tell a missing field from a zero one.
type ravelLine struct {
	Client *int            `json:"client"`
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output,omitempty"`
	Call   *int64          `json:"call"`
	Return *int64          `json:"return,omitempty"`
	Open   bool            `json:"open,omitempty"`
	// Index is the operation's place in the history it came from, which lincheck's --out
	// writes beside each operation of a violation's prefix; it is read and ignored, so
	// that the prefix, written out as a file, checks as it is.
	Index *int `json:"index,omitempty"`
}

// canEncode refuses a codec without both Encode functions.
func (c Codec[I, O]) canEncode() error {
	if c.EncodeInput == nil || c.EncodeOutput == nil {
		return fmt.Errorf("formats: codec %q lacks an Encode function (EncodeInput and EncodeOutput must both be set)", c.Spec)
	}
	return nil
}

// ReadRavel reads a history in Ravel's format, decoding inputs and outputs with codec.
// Operations are returned in the order of the lines; an Open operation has Return 0 and
// the zero Output. A codec whose DecodeInput or DecodeOutput is nil is refused with an
// error, before anything is read.
func ReadRavel[I, O any](r io.Reader, name string, codec Codec[I, O]) ([]histories.Operation[I, O], error) {
	if codec.DecodeInput == nil || codec.DecodeOutput == nil {
		return nil, fmt.Errorf("formats: reading %s: codec %q lacks a Decode function (DecodeInput and DecodeOutput must both be set)", name, codec.Spec)
	}
	var ops []histories.Operation[I, O]
	var lines []int // of each operation
	sc := newLineScanner(r, name)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		op, err := parseRavelLine(text, codec)
		if err != nil {
			return nil, errorf(name, line, "%v", err)
		}
		ops = append(ops, op)
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := oneAtATime(ops, lines, name); err != nil {
		return nil, err
	}
	return ops, nil
}

// oneAtATime refuses two answered operations of one client that overlap in time: a
// client runs one operation at a time, and two at once is a recorder's bug (wrong
// client numbers or clocks), as Jepsen's and porcupine's readers refuse a process's
// second invocation before its completion. An open operation (never answered: the
// client gave up on it) does not hold its client, which may go on, as after Jepsen's
// :info.
func oneAtATime[I, O any](ops []histories.Operation[I, O], lines []int, name string) error {
	idx := make([]int, 0, len(ops))
	for i, op := range ops {
		if !op.Open {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(ops[a].Client, ops[b].Client), cmp.Compare(ops[a].Call, ops[b].Call), cmp.Compare(a, b))
	})
	for k := 1; k < len(idx); k++ {
		p, q := ops[idx[k-1]], ops[idx[k]]
		if p.Client == q.Client && q.Call < p.Return {
			first, second := idx[k-1], idx[k]
			if lines[second] < lines[first] {
				first, second = second, first
			}
			return errorf(name, lines[second], "expected client %d to run one operation at a time, but this one (call %d, return %d) overlaps its operation of line %d (call %d, return %d)",
				p.Client, ops[second].Call, ops[second].Return, lines[first], ops[first].Call, ops[first].Return)
		}
	}
	return nil
}

// decodeLine decodes text, one JSON object, into v: unknown fields, anything after the
// object and a key given twice are refused. A failure to decode is handed to explain,
// which says what the line should have been.
func decodeLine(text []byte, v any, explain func(error) error) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return explain(err)
	}
	if rest := bytes.TrimSpace(text[dec.InputOffset():]); len(rest) > 0 {
		// dec.More would not see a stray closing bracket.
		return fmt.Errorf("expected one JSON object on the line, found more after it: %.20q", rest)
	}
	if k, dup := duplicateKey(text); dup {
		return fmt.Errorf("expected each field of an object once, found %q twice", k)
	}
	return nil
}

func parseRavelLine[I, O any](text []byte, codec Codec[I, O]) (histories.Operation[I, O], error) {
	var op histories.Operation[I, O]
	var l ravelLine
	if err := decodeLine(text, &l, func(err error) error {
		if IsCheckHistoryLine(text) {
			return fmt.Errorf("this line is a whole history, written by ravel check --histories (it has \"ops\" and \"precedes\"), not one operation: read the file with --format histories")
		}
		return fmt.Errorf("expected one JSON object with \"client\", \"input\", \"output\", \"call\", \"return\" and \"open\": %s", jsonProblem(err))
	}); err != nil {
		return op, err
	}
	switch {
	case l.Client == nil:
		return op, fmt.Errorf("expected a \"client\" (an integer)")
	case l.Input == nil:
		return op, fmt.Errorf("expected an \"input\"")
	case l.Call == nil:
		return op, fmt.Errorf("expected a \"call\" time (an integer)")
	}
	in, err := codec.DecodeInput(l.Input)
	if err != nil {
		return op, fmt.Errorf("input: %v", err)
	}
	op.Client, op.Input, op.Call, op.Open = *l.Client, in, *l.Call, l.Open
	if l.Open {
		if l.Output != nil || l.Return != nil {
			return op, fmt.Errorf("expected neither \"output\" nor \"return\" for an open operation (its outcome is unknown)")
		}
		return op, nil
	}
	if l.Return == nil {
		return op, fmt.Errorf("expected a \"return\" time (an integer), or \"open\": true for an operation that never returned")
	}
	if *l.Return < *l.Call {
		return op, fmt.Errorf("expected \"return\" at or after \"call\", found return %d before call %d", *l.Return, *l.Call)
	}
	op.Return = *l.Return
	if op.Output, err = codec.DecodeOutput(in, l.Output); err != nil {
		return op, fmt.Errorf("output: %v", err)
	}
	return op, nil
}

// jsonProblem words a JSON decoding error for a person.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("%v at column %d", syn, syn.Offset)
	case errors.As(err, &typ) && typ.Field == "":
		// The line itself is not an object: the Go type it was read into means nothing
		// to the reader.
		return fmt.Sprintf("found a JSON %s", typ.Value)
	case errors.As(err, &typ):
		return fmt.Sprintf("field %q holds %s, want %s", typ.Field, typ.Value, jsonType(typ.Type.String()))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the line ends inside it"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonType(goType string) string {
	switch goType {
	case "int", "int64", "*int", "*int64":
		return "an integer"
	case "bool":
		return "true or false"
	}
	return goType
}

// WriteRavel writes ops in Ravel's format, one line each in the order given. Reading the
// result back with ReadRavel gives ops again, except that an Open operation's Return and
// Output, which mean nothing, come back as zero. A codec whose EncodeInput or
// EncodeOutput is nil is refused with an error, before anything is written.
func WriteRavel[I, O any](w io.Writer, ops []histories.Operation[I, O], codec Codec[I, O]) error {
	if err := codec.canEncode(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, op := range ops {
		b, err := MarshalRavelOp(op, codec)
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// MarshalRavelOp gives the line of Ravel's format for op, without the newline. A codec
// whose EncodeInput or EncodeOutput is nil is refused with an error.
func MarshalRavelOp[I, O any](op histories.Operation[I, O], codec Codec[I, O]) ([]byte, error) {
	if err := codec.canEncode(); err != nil {
		return nil, err
	}
	type line struct {
		Client int    `json:"client"`
		Input  any    `json:"input"`
		Output any    `json:"output,omitempty"`
		Call   int64  `json:"call"`
		Return *int64 `json:"return,omitempty"`
		Open   bool   `json:"open,omitempty"`
	}
	l := line{Client: op.Client, Input: codec.EncodeInput(op.Input), Call: op.Call, Open: op.Open}
	if !op.Open {
		ret := op.Return
		l.Return = &ret
		l.Output = codec.EncodeOutput(op.Input, op.Output)
		if l.Output == nil {
			l.Output = json.RawMessage("null")
		}
	}
	return json.Marshal(l)
}

// The inputs of the three specifications: "f" names the operation, the other fields
// are its arguments.
type (
	fOnly struct {
		F string `json:"f"`
	}
	fInt struct {
		F     string `json:"f"`
		Value int    `json:"value"`
	}
	fCAS struct {
		F    string `json:"f"`
		From int    `json:"from"`
		To   int    `json:"to"`
	}
	fKey struct {
		F   string `json:"f"`
		Key string `json:"key"`
	}
	fKeyValue struct {
		F     string `json:"f"`
		Key   string `json:"key"`
		Value string `json:"value"`
	}
)

// rawInput is an input object as read, pointers telling missing fields.
type rawInput struct {
	F     *string         `json:"f"`
	Value json.RawMessage `json:"value"`
	From  *int            `json:"from"`
	To    *int            `json:"to"`
	Key   *string         `json:"key"`
}

// decodeInputObject reads an input object, allowing only the fields named in allowed
// for its "f" (given as f → fields).
func decodeInputObject(raw json.RawMessage, allowed map[string][]string) (rawInput, error) {
	var in rawInput
	fs := make([]string, 0, len(allowed))
	for f := range allowed {
		fs = append(fs, strconv.Quote(f))
	}
	slices.Sort(fs)
	want := "an object with \"f\": " + strings.Join(fs, ", ")
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return in, fmt.Errorf("expected %s, found %s", want, short(raw))
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("expected %s: %s", want, jsonProblem(err))
	}
	if in.F == nil {
		return in, fmt.Errorf("expected %s, found no \"f\"", want)
	}
	names, ok := allowed[*in.F]
	if !ok {
		return in, fmt.Errorf("expected \"f\" to be one of %s, found %q", strings.Join(fs, ", "), *in.F)
	}
	for k := range fields {
		if k != "f" && !slices.Contains(names, k) {
			return in, fmt.Errorf("expected only %s in a %q input, found %q", fieldList(names), *in.F, k)
		}
	}
	for _, k := range names {
		if _, ok := fields[k]; !ok {
			return in, fmt.Errorf("expected %s in a %q input, found no %q", fieldList(names), *in.F, k)
		}
	}
	return in, nil
}

func fieldList(names []string) string {
	q := []string{`"f"`}
	for _, n := range names {
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}

// short renders raw JSON for a message, cut if long.
func short(raw json.RawMessage) string {
	if raw == nil {
		return "nothing"
	}
	s := string(raw)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// intValue reads an integer field.
func intValue(raw json.RawMessage, what string) (int, error) {
	var v int
	if err := json.Unmarshal(raw, &v); err != nil || raw == nil || string(raw) == "null" {
		if _, err := strconv.ParseInt(string(raw), 10, 64); errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("expected %s (an integer of 64 bits), found %s: %w", what, short(raw), errIntRange)
		}
		return 0, fmt.Errorf("expected %s (an integer), found %s", what, short(raw))
	}
	return v, nil
}

// stringValue reads a string field.
func stringValue(raw json.RawMessage, what string) (string, error) {
	var v string
	if err := json.Unmarshal(raw, &v); err != nil || string(raw) == "null" {
		return "", fmt.Errorf("expected %s (a string), found %s", what, short(raw))
	}
	return v, nil
}

// okOutput reads the output of an operation whose only answer is "ok": the string
// "ok", or nothing.
func okOutput(raw json.RawMessage, f string) error {
	if raw == nil || string(raw) == `"ok"` {
		return nil
	}
	return fmt.Errorf("expected \"ok\" (or no output) for %q, found %s", f, short(raw))
}

// RegisterCodec is the codec of specs.Register: inputs {"f":"read"} and
// {"f":"write","value":N}; a read's output is the integer read, a write's "ok".
func RegisterCodec() Codec[specs.RegisterInput, specs.RegisterOutput] {
	return Codec[specs.RegisterInput, specs.RegisterOutput]{
		Spec: "register",
		EncodeInput: func(in specs.RegisterInput) any {
			if in.Write {
				return fInt{"write", in.Value}
			}
			return fOnly{"read"}
		},
		EncodeOutput: func(in specs.RegisterInput, out specs.RegisterOutput) any {
			if in.Write {
				return "ok"
			}
			return out.Value
		},
		DecodeInput: func(raw json.RawMessage) (specs.RegisterInput, error) {
			r, err := decodeInputObject(raw, map[string][]string{"read": nil, "write": {"value"}})
			if err != nil {
				return specs.RegisterInput{}, err
			}
			if *r.F == "read" {
				return specs.Read(), nil
			}
			v, err := intValue(r.Value, `"value"`)
			return specs.Write(v), err
		},
		DecodeOutput: func(in specs.RegisterInput, raw json.RawMessage) (specs.RegisterOutput, error) {
			if in.Write {
				return specs.WriteOK(), okOutput(raw, "write")
			}
			v, err := intValue(raw, "the value read")
			return specs.ReadOK(v), err
		},
	}
}

// CASCodec is the codec of specs.CASRegister: inputs {"f":"read"}, {"f":"write",
// "value":N} and {"f":"cas","from":A,"to":B}; a read's output is the integer read, or
// null while the register is absent; a write's is "ok"; a compare-and-set's is "ok"
// when it swapped and "fail" when it did not.
func CASCodec() Codec[specs.CASInput, specs.CASOutput] {
	return Codec[specs.CASInput, specs.CASOutput]{
		Spec: "cas-register",
		EncodeInput: func(in specs.CASInput) any {
			switch in.Op {
			case specs.CASWrite:
				return fInt{"write", in.A}
			case specs.CASSwap:
				return fCAS{"cas", in.A, in.B}
			default:
				return fOnly{"read"}
			}
		},
		EncodeOutput: func(in specs.CASInput, out specs.CASOutput) any {
			switch {
			case in.Op == specs.CASRead && out.Absent:
				return nil
			case in.Op == specs.CASRead:
				return out.Value
			case out.OK:
				return "ok"
			default:
				return "fail"
			}
		},
		DecodeInput: func(raw json.RawMessage) (specs.CASInput, error) {
			r, err := decodeInputObject(raw, map[string][]string{"read": nil, "write": {"value"}, "cas": {"from", "to"}})
			if err != nil {
				return specs.CASInput{}, err
			}
			switch *r.F {
			case "write":
				v, err := intValue(r.Value, `"value"`)
				return specs.CASInput{Op: specs.CASWrite, A: v}, err
			case "cas":
				if r.From == nil || r.To == nil {
					return specs.CASInput{}, fmt.Errorf("expected integers \"from\" and \"to\", found null")
				}
				return specs.CASInput{Op: specs.CASSwap, A: *r.From, B: *r.To}, nil
			}
			return specs.CASInput{Op: specs.CASRead}, nil
		},
		DecodeOutput: func(in specs.CASInput, raw json.RawMessage) (specs.CASOutput, error) {
			switch in.Op {
			case specs.CASWrite:
				return specs.CASOutput{OK: true}, okOutput(raw, "write")
			case specs.CASSwap:
				switch string(raw) {
				case `"ok"`:
					return specs.CASOutput{OK: true}, nil
				case `"fail"`:
					return specs.CASOutput{}, nil
				}
				return specs.CASOutput{}, fmt.Errorf("expected \"ok\" or \"fail\" for \"cas\", found %s", short(raw))
			}
			if raw == nil {
				return specs.CASOutput{}, fmt.Errorf("expected the value read (an integer, or null when absent), found nothing")
			}
			if string(raw) == "null" {
				return specs.CASOutput{OK: true, Absent: true}, nil
			}
			v, err := intValue(raw, "the value read (or null when absent)")
			return specs.CASOutput{OK: true, Value: v}, err
		},
	}
}

// KVCodec is the codec of specs.KV: inputs {"f":"get","key":K}, {"f":"put","key":K,
// "value":V} and {"f":"append","key":K,"value":V}, with string keys and values; a get's
// output is the string read, a put's or an append's "ok".
func KVCodec() Codec[specs.KVInput, specs.KVOutput] {
	return Codec[specs.KVInput, specs.KVOutput]{
		Spec: "kv",
		EncodeInput: func(in specs.KVInput) any {
			switch in.Op {
			case specs.KVPut:
				return fKeyValue{"put", in.Key, in.Value}
			case specs.KVAppend:
				return fKeyValue{"append", in.Key, in.Value}
			default:
				return fKey{"get", in.Key}
			}
		},
		EncodeOutput: func(in specs.KVInput, out specs.KVOutput) any {
			if in.Op != specs.KVGet {
				return "ok"
			}
			return out.Value
		},
		DecodeInput: func(raw json.RawMessage) (specs.KVInput, error) {
			r, err := decodeInputObject(raw, map[string][]string{"get": {"key"}, "put": {"key", "value"}, "append": {"key", "value"}})
			if err != nil {
				return specs.KVInput{}, err
			}
			if r.Key == nil {
				return specs.KVInput{}, fmt.Errorf("expected \"key\" to be a string, found null")
			}
			in := specs.KVInput{Op: kvOps[*r.F], Key: *r.Key}
			if in.Op != specs.KVGet {
				if in.Value, err = stringValue(r.Value, `"value"`); err != nil {
					return specs.KVInput{}, err
				}
			}
			return in, nil
		},
		DecodeOutput: func(in specs.KVInput, raw json.RawMessage) (specs.KVOutput, error) {
			if in.Op != specs.KVGet {
				return specs.KVOutput{}, okOutput(raw, kvOpName(in.Op))
			}
			v, err := stringValue(raw, "the value read")
			return specs.KVOutput{Value: v}, err
		},
	}
}
