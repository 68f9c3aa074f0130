package formats

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/specs"
)

// textRoundTrip checks that codec reads back what spec writes, for each input and
// output given.
func textRoundTrip[S, I, O comparable](t *testing.T, spec specs.Spec[S, I, O], codec TextCodec[I, O], ops map[I][]O) {
	t.Helper()
	for in, outs := range ops {
		got, err := codec.ParseInput(spec.Input(in))
		if err != nil || got != in {
			t.Errorf("%s: ParseInput(%q) = %v, %v; want %v", spec.Name, spec.Input(in), got, err, in)
			continue
		}
		for _, out := range outs {
			text := spec.Output(in, out)
			if got, err := codec.ParseOutput(in, text); err != nil || got != out {
				t.Errorf("%s: ParseOutput(%q, %q) = %v, %v; want %v", spec.Name, spec.Input(in), text, got, err, out)
			}
		}
	}
}

// TestTextCodecsRoundTrip: each TextCodec reads its specification's descriptions back
// to the same inputs and outputs, keys with commas, quotes and spaces included.
func TestTextCodecsRoundTrip(t *testing.T) {
	textRoundTrip(t, specs.Register(), RegisterText(), map[specs.RegisterInput][]specs.RegisterOutput{
		specs.Read(): {specs.ReadOK(0), specs.ReadOK(-3), specs.ReadOK(42)}, specs.Write(7): {specs.WriteOK()}, specs.Write(-1): {specs.WriteOK()},
	})
	textRoundTrip(t, specs.CASRegister(), CASText(), map[specs.CASInput][]specs.CASOutput{
		{Op: specs.CASRead}:             {{OK: true, Absent: true}, {OK: true, Value: 3}},
		{Op: specs.CASWrite, A: 2}:      {{OK: true}},
		{Op: specs.CASSwap, A: 1, B: 2}: {{OK: true}, {}},
	})
	textRoundTrip(t, specs.KV(), KVText(), map[specs.KVInput][]specs.KVOutput{
		{Op: specs.KVGet, Key: "x"}:                            {{Value: ""}, {Value: "a, b\"c"}},
		{Op: specs.KVGet, Key: "a, b"}:                         {{Value: "v"}},
		{Op: specs.KVPut, Key: "k:1/2", Value: "v, w"}:         {{}},
		{Op: specs.KVAppend, Key: `say "hi", then`, Value: ""}: {{}},
		{Op: specs.KVPut, Key: "", Value: "x"}:                 {{}},
	})
}

// TestReadCheckHistoriesErrors: a damaged line names its line and what was expected.
func TestReadCheckHistoriesErrors(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"a ravel line", `{"client":0,"input":{"f":"read"},"output":0,"call":1,"return":2}`, "--format ravel"},
		{"no verdict", `{"ops":[],"precedes":[]}`, `expected "verdict"`},
		{"bad verdict", `{"ops":[],"precedes":[],"verdict":"maybe"}`, `found "maybe"`},
		{"bad input", `{"ops":[{"req":"c0.0","input":"Write(x)","output":"ok"}],"precedes":[],"verdict":"linearizable"}`, `"Read()" or "Write(N)"`},
		{"bad req", `{"ops":[{"req":"0.0","input":"Read()","output":"0"}],"precedes":[],"verdict":"linearizable"}`, `"c0.0"`},
		{"twice", `{"ops":[{"req":"c0.0","input":"Read()","output":"0"},{"req":"c0.0","input":"Read()","output":"0"}],"precedes":[],"verdict":"linearizable"}`, "operation 0 too"},
		{"2+2", `{"ops":[{"req":"c0.0","input":"Read()","output":"0"},{"req":"c1.0","input":"Read()","output":"0"},{"req":"c2.0","input":"Read()","output":"0"},{"req":"c3.0","input":"Read()","output":"0"}],"precedes":[[0,1],[2,3]],"verdict":"linearizable"}`, "not that of any execution"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadCheckHistories(strings.NewReader("# a comment\n"+tt.line+"\n"), "h.jsonl", RegisterText())
			if err == nil || !strings.Contains(err.Error(), "h.jsonl:2:") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want h.jsonl:2: and %q", err, tt.want)
			}
		})
	}
}

// TestReadRavelNamesHistoriesFormat: a line of check --histories read as Ravel's format
// says which format the file is in.
func TestReadRavelNamesHistoriesFormat(t *testing.T) {
	line := `{"ops":[{"req":"c0.0","input":"Read()","output":"0"}],"precedes":[],"verdict":"linearizable"}`
	_, err := ReadRavel(strings.NewReader(line+"\n"), "h.jsonl", RegisterCodec())
	if err == nil || !strings.Contains(err.Error(), "--format histories") {
		t.Errorf("err = %v, want one that names --format histories", err)
	}
}

// TestReadCheckHistoriesKeepsGoodLines: a damaged line is its own history's error, and
// the lines around it are read; a file of which no line is a history is an error.
func TestReadCheckHistoriesKeepsGoodLines(t *testing.T) {
	good := `{"ops":[{"req":"c0.0","input":"Read()","output":"0"}],"precedes":[],"verdict":"linearizable"}`
	in := good + "\n" + `{"ops":[],"precedes":[],"verdict":"maybe"}` + "\n" + good + "\n" + good[:30] + "\n"
	hs, err := ReadCheckHistories(strings.NewReader(in), "h.jsonl", RegisterText())
	if err != nil || len(hs) != 4 {
		t.Fatalf("read %d histories, err %v; want 4 and no error", len(hs), err)
	}
	for i, h := range hs {
		if h.Line != i+1 || (h.Err != nil) != (i == 1 || i == 3) {
			t.Errorf("history %d: line %d, err %v", i, h.Line, h.Err)
		}
	}
	if err := hs[1].Err; err == nil || !strings.Contains(err.Error(), "h.jsonl:2: ") {
		t.Errorf("line 2: %v, want an error naming h.jsonl:2", err)
	}
	if _, err := ReadCheckHistories(strings.NewReader("nope\nnope\n"), "h.jsonl", RegisterText()); err == nil || !strings.Contains(err.Error(), "h.jsonl:1: ") {
		t.Errorf("no history: err %v, want the first line's", err)
	}
}

// TestReadCheckHistoriesWorkload: a line of check --workloads names its workload, read
// into CheckHistory.Workload; a line without one has none.
func TestReadCheckHistoriesWorkload(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"named", `{"spec":"register","workload":"all:ops=2,clients=2#3","ops":[{"req":"c0.0","input":"Read()","output":"0"}],"precedes":[],"verdict":"linearizable"}`, "all:ops=2,clients=2#3"},
		{"none", `{"spec":"register","ops":[{"req":"c0.0","input":"Read()","output":"0"}],"precedes":[],"verdict":"linearizable"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs, err := ReadCheckHistories(strings.NewReader(tt.line+"\n"), "h.jsonl", RegisterText())
			if err != nil || len(hs) != 1 || hs[0].Err != nil {
				t.Fatalf("read %+v, err %v; want one history", hs, err)
			}
			if got := hs[0].Workload; got != tt.want {
				t.Errorf("workload %q, want %q", got, tt.want)
			}
		})
	}
}
