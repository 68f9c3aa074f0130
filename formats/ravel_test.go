package formats

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// roundTrip writes ops, reads them back and compares, open operations' Return and
// Output (which mean nothing) excepted.
func roundTrip[I, O comparable](t *testing.T, ops []histories.Operation[I, O], codec Codec[I, O]) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteRavel(&buf, ops, codec); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRavel(&buf, "h.jsonl", codec)
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, buf.String())
	}
	if len(got) != len(ops) {
		t.Fatalf("read back %d operations, wrote %d", len(got), len(ops))
	}
	for i, op := range ops {
		if op.Open {
			var zero O
			op.Return, op.Output = 0, zero
		}
		if got[i] != op {
			t.Errorf("operation %d read back as %+v, written %+v", i, got[i], op)
		}
	}
}

// randomOps makes n operations with inputs and outputs from the given functions, each of
// its own client (negative ones too), since a client runs one operation at a time.
func randomOps[I, O any](r *rand.Rand, n int, input func() I, output func(I) O) []histories.Operation[I, O] {
	ops := make([]histories.Operation[I, O], n)
	for i := range ops {
		call := r.Int64N(1000) - 10
		in := input()
		ops[i] = histories.Operation[I, O]{Client: i - 2, Input: in, Output: output(in),
			Call: call, Return: call + r.Int64N(50), Open: r.IntN(5) == 0}
	}
	return ops
}

// TestRavelRoundTrip writes and reads random histories of each specification, with
// awkward values: negative numbers, empty, quoted and non-ASCII strings.
func TestRavelRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ints := []int{0, 1, -1, 7, math.MaxInt, math.MinInt}
	strs := []string{"", "x", "a \"quoted\" \\ value", "héllo\n", "x 0 1 y"}
	for range 50 {
		roundTrip(t, randomOps(r, 30,
			func() specs.RegisterInput {
				if r.IntN(2) == 0 {
					return specs.Read()
				}
				return specs.Write(ints[r.IntN(len(ints))])
			},
			func(in specs.RegisterInput) specs.RegisterOutput {
				if in.Write {
					return specs.WriteOK()
				}
				return specs.ReadOK(ints[r.IntN(len(ints))])
			}), RegisterCodec())
		roundTrip(t, randomOps(r, 30,
			func() specs.CASInput {
				switch r.IntN(3) {
				case 0:
					return specs.CASInput{Op: specs.CASRead}
				case 1:
					return specs.CASInput{Op: specs.CASWrite, A: ints[r.IntN(len(ints))]}
				}
				return specs.CASInput{Op: specs.CASSwap, A: ints[r.IntN(len(ints))], B: ints[r.IntN(len(ints))]}
			},
			func(in specs.CASInput) specs.CASOutput {
				switch in.Op {
				case specs.CASRead:
					if r.IntN(3) == 0 {
						return specs.CASOutput{OK: true, Absent: true}
					}
					return specs.CASOutput{OK: true, Value: ints[r.IntN(len(ints))]}
				case specs.CASWrite:
					return specs.CASOutput{OK: true}
				}
				return specs.CASOutput{OK: r.IntN(2) == 0}
			}), CASCodec())
		roundTrip(t, randomOps(r, 30,
			func() specs.KVInput {
				in := specs.KVInput{Op: specs.KVOp(r.IntN(3)), Key: strs[r.IntN(len(strs))]}
				if in.Op != specs.KVGet {
					in.Value = strs[r.IntN(len(strs))]
				}
				return in
			},
			func(in specs.KVInput) specs.KVOutput {
				if in.Op == specs.KVGet {
					return specs.KVOutput{Value: strs[r.IntN(len(strs))]}
				}
				return specs.KVOutput{}
			}), KVCodec())
	}
}

// TestRavelExample reads the example history of docs/lincheck.md as the page shows it
// (the block marked <!-- file: register.jsonl -->, which TestDocExamples checks with
// the command line).
func TestRavelExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "lincheck.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "<!-- file: register.jsonl -->\n```\n")
	if !ok {
		t.Fatal("docs/lincheck.md has no block marked <!-- file: register.jsonl -->")
	}
	example, _, _ := strings.Cut(after, "```")
	got, err := ReadRavel(strings.NewReader(example), "register.jsonl", CASCodec())
	if err != nil {
		t.Fatal(err)
	}
	write := func(v int) specs.CASInput { return specs.CASInput{Op: specs.CASWrite, A: v} }
	read := specs.CASInput{Op: specs.CASRead}
	ok1 := specs.CASOutput{OK: true}
	val := func(v int) specs.CASOutput { return specs.CASOutput{OK: true, Value: v} }
	want := []casOp{
		{Client: 0, Input: write(1), Output: ok1, Call: 1, Return: 4},
		{Client: 1, Input: read, Output: val(1), Call: 2, Return: 3},
		{Client: 2, Input: specs.CASInput{Op: specs.CASSwap, A: 1, B: 2}, Call: 5, Open: true},
		{Client: 1, Input: read, Output: val(2), Call: 6, Return: 7},
		{Client: 0, Input: write(3), Output: ok1, Call: 8, Return: 9},
		{Client: 1, Input: read, Output: val(2), Call: 10, Return: 11},
	}
	if len(got) != len(want) {
		t.Fatalf("read %d operations, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("operation %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestRavelFormatDetails reads what the example does not show: a blank line, a null
// read of the absent register, and an "ok" left out.
func TestRavelFormatDetails(t *testing.T) {
	in := `# a compare-and-set register
{"client":0,"input":{"f":"write","value":1},"output":"ok","call":1,"return":4}
{"client":1,"input":{"f":"read"},"output":1,"call":2,"return":3}

{"client":2,"input":{"f":"cas","from":1,"to":2},"call":5,"open":true}
{"client":1,"input":{"f":"read"},"output":null,"call":6,"return":7}
{"client":0,"input":{"f":"write","value":3},"call":8,"return":9}
`
	got, err := ReadRavel(strings.NewReader(in), "h.jsonl", CASCodec())
	if err != nil {
		t.Fatal(err)
	}
	want := []casOp{
		{Client: 0, Input: specs.CASInput{Op: specs.CASWrite, A: 1}, Output: specs.CASOutput{OK: true}, Call: 1, Return: 4},
		{Client: 1, Input: specs.CASInput{Op: specs.CASRead}, Output: specs.CASOutput{OK: true, Value: 1}, Call: 2, Return: 3},
		{Client: 2, Input: specs.CASInput{Op: specs.CASSwap, A: 1, B: 2}, Call: 5, Open: true},
		{Client: 1, Input: specs.CASInput{Op: specs.CASRead}, Output: specs.CASOutput{OK: true, Absent: true}, Call: 6, Return: 7},
		{Client: 0, Input: specs.CASInput{Op: specs.CASWrite, A: 3}, Output: specs.CASOutput{OK: true}, Call: 8, Return: 9},
	}
	if len(got) != len(want) {
		t.Fatalf("read %d operations, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("operation %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestRavelErrors checks that malformed lines are rejected with the file name, the line
// and what was expected.
func TestRavelErrors(t *testing.T) {
	const ok = `{"client":0,"input":{"f":"read"},"output":1,"call":1,"return":2}` + "\n"
	for _, c := range []struct {
		name, in string
		codec    string
		line     int
		want     string
	}{
		{"not JSON", "\n\nhello", "register", 3, "expected one JSON object"},
		{"truncated", `{"client":0,"input":`, "register", 1, "ends inside it"},
		{"two objects", ok[:len(ok)-1] + ok, "register", 1, "found more after it"},
		{"unknown field", `{"client":0,"input":{"f":"read"},"output":1,"call":1,"return":2,"colour":3}`, "register", 1, `unknown field "colour"`},
		{"no client", `{"input":{"f":"read"},"output":1,"call":1,"return":2}`, "register", 1, `expected a "client"`},
		{"client not a number", `{"client":"a","input":{"f":"read"},"output":1,"call":1,"return":2}`, "register", 1, "want an integer"},
		{"no input", ok + `{"client":0,"output":1,"call":1,"return":2}`, "register", 2, `expected an "input"`},
		{"no call", `{"client":0,"input":{"f":"read"},"output":1,"return":2}`, "register", 1, `expected a "call"`},
		{"no return", `{"client":0,"input":{"f":"read"},"output":1,"call":1}`, "register", 1, `"open": true`},
		{"return before call", `{"client":0,"input":{"f":"read"},"output":1,"call":5,"return":2}`, "register", 1, "return 2 before call 5"},
		{"open with output", `{"client":0,"input":{"f":"read"},"output":1,"call":5,"open":true}`, "register", 1, "neither"},
		{"input not an object", `{"client":0,"input":"read","output":1,"call":1,"return":2}`, "register", 1, `expected an object with "f"`},
		{"unknown f", `{"client":0,"input":{"f":"swap"},"output":1,"call":1,"return":2}`, "register", 1, `found "swap"`},
		{"no f", `{"client":0,"input":{"value":1},"output":1,"call":1,"return":2}`, "register", 1, `found no "f"`},
		{"extra input field", `{"client":0,"input":{"f":"read","value":1},"output":1,"call":1,"return":2}`, "register", 1, `found "value"`},
		{"write without value", `{"client":0,"input":{"f":"write"},"call":1,"return":2}`, "register", 1, `found no "value"`},
		{"read of a string", `{"client":0,"input":{"f":"read"},"output":"1","call":1,"return":2}`, "register", 1, "the value read (an integer)"},
		{"read of null", `{"client":0,"input":{"f":"read"},"output":null,"call":1,"return":2}`, "register", 1, "the value read (an integer)"},
		{"write answering 1", `{"client":0,"input":{"f":"write","value":1},"output":1,"call":1,"return":2}`, "register", 1, `expected "ok"`},
		{"cas answering true", `{"client":0,"input":{"f":"cas","from":1,"to":2},"output":true,"call":1,"return":2}`, "cas-register", 1, `"ok" or "fail"`},
		{"cas without to", `{"client":0,"input":{"f":"cas","from":1},"output":"ok","call":1,"return":2}`, "cas-register", 1, `found no "to"`},
		{"cas of strings", `{"client":0,"input":{"f":"cas","from":"1","to":2},"output":"ok","call":1,"return":2}`, "cas-register", 1, "want an integer"},
		{"cas read without output", `{"client":0,"input":{"f":"read"},"call":1,"return":2}`, "cas-register", 1, "found nothing"},
		{"get of a number", `{"client":0,"input":{"f":"get","key":"k"},"output":1,"call":1,"return":2}`, "kv", 1, "the value read (a string)"},
		{"put without key", `{"client":0,"input":{"f":"put","value":"v"},"call":1,"return":2}`, "kv", 1, `found no "key"`},
		{"value beyond 64 bits", `{"client":0,"input":{"f":"write","value":99999999999999999999},"call":1,"return":2}`, "register", 1, "out of range (beyond 64 bits)"},
		{"read beyond 64 bits", `{"client":0,"input":{"f":"read"},"output":-99999999999999999999,"call":1,"return":2}`, "register", 1, "out of range (beyond 64 bits)"},
		{"one client, two operations at once", `{"client":0,"input":{"f":"read"},"output":1,"call":1,"return":4}` + "\n" + `{"client":0,"input":{"f":"read"},"output":1,"call":2,"return":3}`, "register", 2, "expected client 0 to run one operation at a time"},
		{"put of a number", `{"client":0,"input":{"f":"put","key":"k","value":1},"call":1,"return":2}`, "kv", 1, `"value" (a string)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			switch c.codec {
			case "register":
				_, err = ReadRavel(strings.NewReader(c.in), "dir/h.jsonl", RegisterCodec())
			case "cas-register":
				_, err = ReadRavel(strings.NewReader(c.in), "dir/h.jsonl", CASCodec())
			default:
				_, err = ReadRavel(strings.NewReader(c.in), "dir/h.jsonl", KVCodec())
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, want a *ParseError", err, err)
			}
			prefix := "dir/h.jsonl:" + strconv.Itoa(c.line) + ": "
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, c.want) {
				t.Errorf("error %q, want it to start with %q and contain %q", msg, prefix, c.want)
			}
		})
	}
}

// FuzzReadRavel checks that no input makes the reader panic, that what it accepts is a
// well-formed history, and that writing it and reading it back gives it again.
func FuzzReadRavel(f *testing.F) {
	f.Add(`{"client":0,"input":{"f":"cas","from":1,"to":2},"output":"ok","call":1,"return":4}`)
	f.Add(`{"client":1,"input":{"f":"read"},"output":null,"call":2,"return":3}` + "\n" +
		`{"client":2,"input":{"f":"write","value":-3},"call":5,"open":true}`)
	f.Add("\xef\xbb\xbf# a comment\n\n" + `{"client":0,"input":{"f":"get","key":"k\u001b"},"output":"","call":1,"return":1}`)
	addRavelSeeds(f, "porcupine/jepsen/etcd_00*.log", func(r *strings.Reader, name string) ([]histories.Operation[specs.CASInput, specs.CASOutput], error) {
		return ReadJepsen(r, name)
	}, CASCodec())
	addRavelSeeds(f, "porcupine/kv/*.txt", func(r *strings.Reader, name string) ([]histories.Operation[specs.KVInput, specs.KVOutput], error) {
		return ReadPorcupineKV(r, name)
	}, KVCodec())
	f.Fuzz(func(t *testing.T, in string) {
		fuzzRavel(t, in, CASCodec())
		fuzzRavel(t, in, KVCodec())
		fuzzRavel(t, in, RegisterCodec())
	})
}

func fuzzRavel[I, O comparable](t *testing.T, in string, codec Codec[I, O]) {
	ops, err := ReadRavel(strings.NewReader(in), "fuzz", codec)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "fuzz:") {
			t.Errorf("error %q does not start with the name", err)
		}
		return
	}
	for i, op := range ops {
		if !op.Open && op.Return < op.Call {
			t.Errorf("operation %d returns at %d, before its call at %d", i, op.Return, op.Call)
		}
	}
	roundTrip(t, ops, codec)
}

// TestRavelNilCodecFunc: a codec with a nil function is refused with an error naming
// it, reading or writing. ReadRavel and WriteRavel used to panic (a nil dereference)
// on the first line.
func TestRavelNilCodecFunc(t *testing.T) {
	ops := []histories.Operation[specs.RegisterInput, specs.RegisterOutput]{{Client: 0, Call: 1, Return: 2}}
	var line bytes.Buffer
	if err := WriteRavel(&line, ops, RegisterCodec()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		unset func(c *Codec[specs.RegisterInput, specs.RegisterOutput])
	}{
		{"EncodeInput", func(c *Codec[specs.RegisterInput, specs.RegisterOutput]) { c.EncodeInput = nil }},
		{"EncodeOutput", func(c *Codec[specs.RegisterInput, specs.RegisterOutput]) { c.EncodeOutput = nil }},
		{"DecodeInput", func(c *Codec[specs.RegisterInput, specs.RegisterOutput]) { c.DecodeInput = nil }},
		{"DecodeOutput", func(c *Codec[specs.RegisterInput, specs.RegisterOutput]) { c.DecodeOutput = nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			codec := RegisterCodec()
			tc.unset(&codec)
			var err error
			if strings.HasPrefix(tc.name, "Encode") {
				err = WriteRavel(&bytes.Buffer{}, ops, codec)
			} else {
				_, err = ReadRavel(bytes.NewReader(line.Bytes()), "h.jsonl", codec)
			}
			if err == nil || !strings.Contains(err.Error(), "lacks") {
				t.Errorf("error %v, want one saying the codec lacks a function", err)
			}
		})
	}
}
