package formats

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

type kvOp = histories.Operation[specs.KVInput, specs.KVOutput]

// TestReadPorcupineKVFiles reads porcupine's histories and checks the operation counts
// its README gives.
func TestReadPorcupineKVFiles(t *testing.T) {
	for _, c := range []struct {
		file string
		ops  int
	}{
		{"c01-ok.txt", 58}, {"c01-bad.txt", 38}, {"c10-ok.txt", 337}, {"c10-bad.txt", 405},
	} {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "porcupine", "kv", c.file)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ops, err := ReadPorcupineKV(f, path)
			if err != nil {
				t.Fatal(err)
			}
			if len(ops) != c.ops {
				t.Errorf("read %d operations, want %d", len(ops), c.ops)
			}
			for i, op := range ops {
				if op.Open || op.Return <= op.Call {
					t.Errorf("operation %d: open %v, call %d, return %d; want completed after its call",
						i, op.Open, op.Call, op.Return)
				}
				if i > 0 && op.Call <= ops[i-1].Call {
					t.Errorf("operation %d is called at %d, before operation %d at %d", i, op.Call, i-1, ops[i-1].Call)
				}
			}
		})
	}
}

func TestReadPorcupineKV(t *testing.T) {
	get := func(k string) specs.KVInput { return specs.Get(k) }
	for _, c := range []struct {
		name, in string
		want     []kvOp
	}{
		{"empty", "", nil},
		{"get and put", `{:process 0, :type :invoke, :f :get, :key "1", :value nil}
{:process 1, :type :invoke, :f :put, :key "1", :value "a"}

{:process 0, :type :ok, :f :get, :key "1", :value "a"}
{:process 1, :type :ok, :f :put, :key "1", :value "a"}
`, []kvOp{
			{Client: 0, Input: get("1"), Output: specs.KVOutput{Value: "a"}, Call: 1, Return: 4},
			{Client: 1, Input: specs.Put("1", "a"), Call: 2, Return: 5},
		}},
		{"never completed, info and fail; extra Jepsen keys", `{:process 0, :type :invoke, :f :append, :key "k", :value "x"}
{:process 1, :type :invoke, :f :append, :key "k", :value "y", :time 5}
{:process 2, :type :invoke, :f :get, :key "k"}
{:process 1, :type :info, :f :append, :key "k", :value "y"}
{:process 2, :type :fail, :f :get, :key "k", :value nil, :error :timeout}
{:process 2, :type :invoke, :f :get, :key "k", :index 7}
{:process 2, :type :ok, :f :get, :key "k", :value nil}`, []kvOp{
			{Client: 0, Input: specs.Append("k", "x"), Call: 1, Return: 8, Open: true},
			{Client: 1, Input: specs.Append("k", "y"), Call: 2, Return: 8, Open: true},
			{Client: 2, Input: get("k"), Output: specs.KVOutput{Value: ""}, Call: 6, Return: 7},
		}},
		{"escapes and no commas", `{:process 3 :type :invoke :f :put :key "q\"\\" :value "a\nb\u00e9"}`, []kvOp{
			{Client: 3, Input: specs.Put("q\"\\", "a\nbé"), Call: 1, Return: 2, Open: true},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadPorcupineKV(strings.NewReader(c.in), "h.txt")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("read %d operations %+v, want %d %+v", len(got), got, len(c.want), c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("operation %d = %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}

// TestReadPorcupineKVErrors checks that malformed input is rejected with the file name,
// the line and what was expected.
func TestReadPorcupineKVErrors(t *testing.T) {
	const inv = `{:process 0, :type :invoke, :f :put, :key "1", :value "a"}` + "\n"
	for _, c := range []struct {
		name, in string
		line     int
		want     string // part of the message
	}{
		{"not a map", "hello\n", 1, "expected '{'"},
		{"unclosed map", `{:process 0, :type :invoke`, 1, "expected a value"},
		{"unclosed string", `{:process 0, :key "abc}`, 1, "not closed"},
		{"bad escape", `{:key "a\qb"}`, 1, "unknown escape"},
		{"trailing text", "{:process 0, :type :invoke, :f :get, :key \"1\"} x\n", 1, "end of line"},
		{"duplicate key", "{:process 0, :process 1}\n", 1, "appears twice"},
		{"non-keyword key", `{"process" 0}`, 1, "expected a keyword"},
		{"a history of check --histories", `{"spec":"kv","ops":[{"req":"c0.0","input":"Get(1)","output":"\"\""}],"precedes":[],"verdict":"linearizable"}`, 1, "--format histories"},
		{"a line of the ravel format", `{"client":0,"input":{"f":"get","key":"1"},"output":"","call":1,"return":2}`, 1, "--format ravel"},
		{"missing key", `{:process 0, :type :invoke, :f :get}`, 1, "expected a :key"},
		{"unknown key", `{:process 0, :type :invoke, :f :get, :key "1", :colour :red}`, 1, "found :colour"},
		{"bad type", `{:process 0, :type :start, :f :get, :key "1"}`, 1, "expected :type"},
		{"bad f", `{:process 0, :type :invoke, :f :delete, :key "1"}`, 1, "expected :f"},
		{"bad process", `{:process :nemesis, :type :invoke, :f :get, :key "1"}`, 1, "integer :process"},
		{"bad integer", `{:process 0x1, :type :invoke, :f :get, :key "1"}`, 1, "expected an integer"},
		{"numeric key", `{:process 0, :type :invoke, :f :get, :key 1}`, 1, "string :key"},
		{"put without value", "\n" + `{:process 0, :type :invoke, :f :put, :key "1", :value nil}`, 2,
			"expected a string :value for :put"},
		{"ok without invoke", "\n\n" + `{:process 0, :type :ok, :f :get, :key "1", :value "a"}`, 3,
			"expected an :invoke from process 0"},
		{"two invokes", inv + inv, 2, "invoked at line 1"},
		{"ok for another key", inv + `{:process 0, :type :ok, :f :put, :key "2", :value "a"}`, 2,
			"as invoked at line 1"},
		{"ok of put with another value", inv + `{:process 0, :type :ok, :f :put, :key "1", :value "b"}`, 2,
			`expected :value "a"`},
		{"ok of get without value", `{:process 0, :type :invoke, :f :get, :key "1"}` + "\n" +
			`{:process 0, :type :ok, :f :get, :key "1"}`, 2, "expected a :value"},
		{"deep vectors", `{:value ` + strings.Repeat("[", 100) + `}`, 1, "nested"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadPorcupineKV(strings.NewReader(c.in), "dir/h.txt")
			if err == nil {
				t.Fatal("no error")
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %q is a %T, want a *ParseError", err, err)
			}
			if pe.Name != "dir/h.txt" || pe.Line != c.line {
				t.Errorf("error at %s:%d, want dir/h.txt:%d", pe.Name, pe.Line, c.line)
			}
			prefix := "dir/h.txt:" + strconv.Itoa(c.line) + ": "
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, c.want) {
				t.Errorf("error %q, want it to start with %q and contain %q", msg, prefix, c.want)
			}
		})
	}
}

// TestReadPorcupineKVReadError checks that a failing reader's error is wrapped with the
// name.
func TestReadPorcupineKVReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := ReadPorcupineKV(failingReader{boom}, "h.txt")
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "h.txt:") {
		t.Errorf("error %v, want one wrapping %v that starts with the name", err, boom)
	}
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

// FuzzReadPorcupineKV checks that no input makes the reader panic, and that what it
// accepts is a well-formed history.
func FuzzReadPorcupineKV(f *testing.F) {
	f.Add(`{:process 0, :type :invoke, :f :get, :key "1", :value nil}
{:process 0, :type :ok, :f :get, :key "1", :value "x 0 0 y"}`)
	f.Add(`{:process 1 :type :invoke :f :append :key "k" :value "a\"b"}` + "\n" +
		`{:process 1, :type :info, :f :append, :key "k", :value "a\"b", :time 3}`)
	f.Add(`{:value [1 [2 :x] "s" true nil -4]}`)
	addSeeds(f, "porcupine/kv/*.txt", 40)
	f.Fuzz(func(t *testing.T, in string) {
		ops, err := ReadPorcupineKV(strings.NewReader(in), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz:") {
				t.Errorf("error %q does not start with the name", err)
			}
			return
		}
		for i, op := range ops {
			if !op.Open && op.Return <= op.Call {
				t.Errorf("operation %d returns at %d, not after its call at %d", i, op.Return, op.Call)
			}
		}
	})
}
