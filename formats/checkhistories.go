package formats

import (
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

// The histories format is what `ravel check --histories FILE` writes: JSON Lines, one
// canonical history a line (histories.CanonicalJSON) with the verdict check gave it:
//
//	{"ops":[{"req":"c0.0","input":"Write(1)","output":"ok"},{"req":"c1.0","input":"Read()","output":"0"}],"precedes":[[0,1]],"verdict":"not-linearizable"}
//
// "req" names the request, client and sequence number ("c0.0"); "input" and "output"
// are written as the specification describes them (specs.Spec.DescribeInput and
// DescribeOutput: "Write(1)", "ok"), and a null "output" is an operation never
// answered. "precedes" holds the pairs [i, j] of operation indices where i returned
// before j was invoked: a canonical history records the real-time order, not the
// times, and histories.IntervalTimes builds times that give exactly that order.
// "verdict" is "linearizable", "not-linearizable" or "unknown". "spec", written since
// the thirty-third round and optional when read, names the specification the verdict
// was given against (specs.Spec.Name): a line whose spec is not the codec's is an error.
// "workload", written since the forty-third round by check --workloads and absent
// otherwise, names the generated workload the history was found under (its name, which
// check --workloads NAME checks alone): the histories of several workloads share a file.

// TextCodec reads back the inputs and outputs of one specification as its
// DescribeInput and DescribeOutput write them. Each function is exact: a text that the
// specification would not write for what it reads is an error.
type TextCodec[I, O any] struct {
	// Spec is the name of the specification, as specs names it.
	Spec        string
	ParseInput  func(text string) (I, error)
	ParseOutput func(in I, text string) (O, error)
}

// CheckHistory is one line of a histories file: the history's operations, with times
// that realize its precedence, and the verdict recorded with it; or, for a line that is
// not a history, Err, a *ParseError naming the line.
type CheckHistory[I, O any] struct {
	Line int
	// Workload is the workload the line names ("workload"), "" for none.
	Workload string
	Ops      []histories.Operation[I, O]
	Verdict  string
	Err      error
}

// checkLine is one line of the format. Pointers tell a missing field from a zero one.
type checkLine struct {
	Spec     *string   `json:"spec"`
	Workload *string   `json:"workload"`
	Ops      []checkOp `json:"ops"`
	Precedes [][2]int  `json:"precedes"`
	Verdict  *string   `json:"verdict"`
}

type checkOp struct {
	Req    *string `json:"req"`
	Input  *string `json:"input"`
	Output *string `json:"output"`
}

// CheckVerdicts are the verdicts a histories file may record.
var CheckVerdicts = []string{"linearizable", "not-linearizable", "unknown"}

// ReadCheckHistories reads a file `ravel check --histories` wrote, the inputs and
// outputs read with codec, naming it name in errors. Blank lines and lines starting
// with # are skipped; anything else that is not a history is a *ParseError naming the
// line, kept as that line's CheckHistory.Err: one damaged line does not hide the other
// histories. A file of which no line is a history is not one of these files, and its
// first error is returned instead, as is a failure to read when no line was a history.
func ReadCheckHistories[I, O any](r io.Reader, name string, codec TextCodec[I, O]) ([]CheckHistory[I, O], error) {
	var out []CheckHistory[I, O]
	var first error
	good := 0
	sc := newLineScanner(r, name)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		h, err := parseCheckLine(text, codec)
		if err != nil {
			h = CheckHistory[I, O]{Err: errorf(name, line, "%v", err)}
			first = cmp.Or(first, h.Err)
		} else {
			good++
		}
		h.Line = line
		out = append(out, h)
	}
	if err := sc.Err(); err != nil {
		if good == 0 {
			return nil, err
		}
		h := CheckHistory[I, O]{Line: line + 1, Err: err}
		var pe *ParseError
		if errors.As(err, &pe) {
			h.Line = pe.Line
		}
		out = append(out, h)
	}
	if good == 0 && first != nil {
		return nil, first
	}
	return out, nil
}

func parseCheckLine[I, O any](text []byte, codec TextCodec[I, O]) (CheckHistory[I, O], error) {
	var h CheckHistory[I, O]
	var l checkLine
	if err := decodeLine(text, &l, func(err error) error {
		if isRavelLine(text) {
			return fmt.Errorf("this line is one operation in the ravel format (it has \"client\" and \"call\"), not a history of ravel check --histories: use --format ravel")
		}
		return fmt.Errorf("expected one JSON object with \"ops\", \"precedes\" and \"verdict\" (a history of ravel check --histories): %s", jsonProblem(err))
	}); err != nil {
		return h, err
	}
	switch {
	case l.Ops == nil:
		return h, fmt.Errorf("expected \"ops\", the history's operations")
	case l.Precedes == nil:
		return h, fmt.Errorf("expected \"precedes\", the pairs of operations in real-time order")
	case l.Verdict == nil:
		return h, fmt.Errorf("expected \"verdict\" (%s)", strings.Join(CheckVerdicts, ", "))
	}
	if l.Spec != nil && *l.Spec != codec.Spec {
		return h, fmt.Errorf("the history was checked against the %s specification, not %s, the one this run checks against (--spec, or the first history of the first file): check the %s histories in a run of their own, with --spec %s", *l.Spec, codec.Spec, *l.Spec, *l.Spec)
	}
	if !slices.Contains(CheckVerdicts, *l.Verdict) {
		return h, fmt.Errorf("expected \"verdict\" to be one of %s, found %q", strings.Join(CheckVerdicts, ", "), *l.Verdict)
	}
	h.Verdict = *l.Verdict
	if l.Workload != nil {
		h.Workload = *l.Workload
	}
	open := make([]bool, len(l.Ops))
	h.Ops = make([]histories.Operation[I, O], len(l.Ops))
	seen := make(map[string]int, len(l.Ops))
	for i, o := range l.Ops {
		switch {
		case o.Req == nil:
			return h, fmt.Errorf("operation %d: expected a \"req\" (\"c0.0\": client 0's first request)", i)
		case o.Input == nil:
			return h, fmt.Errorf("operation %d: expected an \"input\"", i)
		}
		if j, dup := seen[*o.Req]; dup {
			return h, fmt.Errorf("operation %d: request %s is operation %d too", i, *o.Req, j)
		}
		seen[*o.Req] = i
		client, err := parseReq(*o.Req)
		if err != nil {
			return h, fmt.Errorf("operation %d: %v", i, err)
		}
		in, err := codec.ParseInput(*o.Input)
		if err != nil {
			return h, fmt.Errorf("operation %d: input: %v", i, err)
		}
		op := histories.Operation[I, O]{Client: client, Input: in, Open: o.Output == nil}
		if !op.Open {
			if op.Output, err = codec.ParseOutput(in, *o.Output); err != nil {
				return h, fmt.Errorf("operation %d: output: %v", i, err)
			}
		}
		open[i] = op.Open
		h.Ops[i] = op
	}
	call, ret, err := histories.IntervalTimes(len(l.Ops), open, l.Precedes)
	if err != nil {
		return h, err
	}
	for i := range h.Ops {
		h.Ops[i].Call, h.Ops[i].Return = call[i], ret[i]
	}
	return h, nil
}

// isRavelLine reports whether text is an object with the fields of Ravel's format.
func isRavelLine(text []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(text, &m) != nil {
		return false
	}
	_, client := m["client"]
	_, call := m["call"]
	return client && call
}

// IsCheckHistoryLine reports whether text, one line of a file, is an object with the
// fields of a history of ravel check --histories, for a reader of another format to
// say which format the file is in.
func IsCheckHistoryLine(text []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(text, &m) != nil {
		return false
	}
	_, ops := m["ops"]
	_, prec := m["precedes"]
	return ops && prec
}

// CheckHistorySpec returns the specification a line of a histories file names ("spec"),
// and whether the line is such a history and names one: for a reader to pick the
// specification the file was checked against.
func CheckHistorySpec(text []byte) (string, bool) {
	var l struct {
		Spec *string `json:"spec"`
	}
	if !IsCheckHistoryLine(text) || json.Unmarshal(text, &l) != nil || l.Spec == nil || *l.Spec == "" {
		return "", false
	}
	return *l.Spec, true
}

// parseReq reads a request name, "c3.0", and returns its client.
func parseReq(s string) (int, error) {
	c, seq, ok := strings.Cut(s, ".")
	bad := fmt.Errorf("expected a \"req\" such as \"c0.0\" (client 0's first request), found %q", s)
	if !ok || !strings.HasPrefix(c, "c") {
		return 0, bad
	}
	client, err := strconv.Atoi(c[1:])
	if err != nil || client < 0 || strconv.Itoa(client) != c[1:] {
		return 0, bad
	}
	if n, err := strconv.Atoi(seq); err != nil || n < 0 || strconv.Itoa(n) != seq {
		return 0, bad
	}
	return client, nil
}

// exact returns v when the specification describes it as text, and an error naming
// what was expected otherwise: the parsers below are lenient about nothing.
func exact[T any](v T, err error, text, describe string, want string) (T, error) {
	if err == nil && describe != text {
		err = errors.New("not as the specification writes it")
	}
	if err != nil {
		var zero T
		return zero, fmt.Errorf("expected %s, found %q", want, text)
	}
	return v, nil
}

// inside returns what is between prefix and suffix in s.
func inside(s, prefix, suffix string) (string, bool) {
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) || len(s) < len(prefix)+len(suffix) {
		return "", false
	}
	return s[len(prefix) : len(s)-len(suffix)], true
}

var errNoMatch = errors.New("no match")

// RegisterText is the TextCodec of specs.Register: inputs "Read()" and "Write(N)"; a
// read's output is the integer read, a write's "ok".
func RegisterText() TextCodec[specs.RegisterInput, specs.RegisterOutput] {
	spec := specs.Register()
	return TextCodec[specs.RegisterInput, specs.RegisterOutput]{
		Spec: spec.Name,
		ParseInput: func(text string) (specs.RegisterInput, error) {
			in, err := specs.Read(), error(nil)
			if v, ok := inside(text, "Write(", ")"); ok {
				var n int
				n, err = strconv.Atoi(v)
				in = specs.Write(n)
			}
			return exact(in, err, text, spec.Input(in), `"Read()" or "Write(N)"`)
		},
		ParseOutput: func(in specs.RegisterInput, text string) (specs.RegisterOutput, error) {
			if in.Write {
				return exact(specs.WriteOK(), nil, text, "ok", `"ok" for a write`)
			}
			n, err := strconv.Atoi(text)
			out := specs.ReadOK(n)
			return exact(out, err, text, spec.Output(in, out), "the integer read")
		},
	}
}

// CASText is the TextCodec of specs.CASRegister: inputs "Read()", "Write(N)" and
// "CAS(A→B)"; a read's output is the integer read or "nil" while absent, a write's
// "ok", a compare-and-set's "ok" or "fail".
func CASText() TextCodec[specs.CASInput, specs.CASOutput] {
	spec := specs.CASRegister()
	return TextCodec[specs.CASInput, specs.CASOutput]{
		Spec: spec.Name,
		ParseInput: func(text string) (specs.CASInput, error) {
			in, err := specs.CASInput{Op: specs.CASRead}, error(nil)
			if v, ok := inside(text, "Write(", ")"); ok {
				in.Op = specs.CASWrite
				in.A, err = strconv.Atoi(v)
			} else if v, ok := inside(text, "CAS(", ")"); ok {
				a, b, found := strings.Cut(v, "→")
				in.Op, err = specs.CASSwap, errNoMatch
				if found {
					var errA, errB error
					in.A, errA = strconv.Atoi(a)
					in.B, errB = strconv.Atoi(b)
					err = errors.Join(errA, errB)
				}
			}
			return exact(in, err, text, spec.Input(in), `"Read()", "Write(N)" or "CAS(A→B)"`)
		},
		ParseOutput: func(in specs.CASInput, text string) (specs.CASOutput, error) {
			switch in.Op {
			case specs.CASWrite:
				return exact(specs.CASOutput{OK: true}, nil, text, "ok", `"ok" for a write`)
			case specs.CASSwap:
				out := specs.CASOutput{OK: text == "ok"}
				return exact(out, nil, text, spec.Output(in, out), `"ok" or "fail" for a compare-and-set`)
			}
			out := specs.CASOutput{OK: true, Absent: true}
			var err error
			if text != "nil" {
				out.Absent = false
				out.Value, err = strconv.Atoi(text)
			}
			return exact(out, err, text, spec.Output(in, out), `the integer read, or "nil" while absent`)
		},
	}
}

// KVText is the TextCodec of specs.KV: inputs "Get(K)", "Put(K, "V")" and
// "Append(K, "V")", the key bare or quoted as KVInput.String writes it; a get's output
// is the quoted string read, a put's or an append's "ok".
func KVText() TextCodec[specs.KVInput, specs.KVOutput] {
	spec := specs.KV()
	// key reads a key, bare or quoted, from the start of s, and returns the rest.
	key := func(s string) (string, string, error) {
		if strings.HasPrefix(s, `"`) {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return "", "", err
			}
			k, err := strconv.Unquote(q)
			return k, s[len(q):], err
		}
		// A bare key has no comma or space (specs.KVInput.String).
		if k, rest, found := strings.Cut(s, ", "); found {
			return k, ", " + rest, nil
		}
		return s, "", nil
	}
	return TextCodec[specs.KVInput, specs.KVOutput]{
		Spec: spec.Name,
		ParseInput: func(text string) (specs.KVInput, error) {
			var in specs.KVInput
			err := errNoMatch
			if v, ok := inside(text, "Get(", ")"); ok {
				var rest string
				in.Op = specs.KVGet
				in.Key, rest, err = key(v)
				if err == nil && rest != "" {
					err = errNoMatch
				}
			} else {
				for _, op := range []specs.KVOp{specs.KVPut, specs.KVAppend} {
					v, ok := inside(text, kvOpTitle(op)+"(", ")")
					if !ok {
						continue
					}
					var rest string
					in.Op = op
					if in.Key, rest, err = key(v); err == nil {
						if value, ok := strings.CutPrefix(rest, ", "); ok {
							in.Value, err = strconv.Unquote(value)
						} else {
							err = errNoMatch
						}
					}
					break
				}
			}
			return exact(in, err, text, spec.Input(in), `"Get(K)", "Put(K, \"V\")" or "Append(K, \"V\")"`)
		},
		ParseOutput: func(in specs.KVInput, text string) (specs.KVOutput, error) {
			if in.Op != specs.KVGet {
				return exact(specs.KVOutput{}, nil, text, "ok", `"ok" for a put or an append`)
			}
			v, err := strconv.Unquote(text)
			out := specs.KVOutput{Value: v}
			return exact(out, err, text, spec.Output(in, out), "the quoted string read")
		},
	}
}

// kvOpTitle names a put or an append as KVInput.String does.
func kvOpTitle(op specs.KVOp) string {
	if op == specs.KVAppend {
		return "Append"
	}
	return "Put"
}
