package ravelcli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/ravelcli"
	"github.com/ravelmc/ravel/wgl"
)

// withQueue is the option a user's main passes.
var withQueue = ravelcli.Spec(QueueSpec(), formats.JSONCodec[QueueOp, QueueOut]("queue"))

// randomQueueHistory has 2–3 clients of 1–3 operations each, at most four enqueues, on
// a random clock. Half the time every output is what applying the operations in call
// order gives (a linearization: call order respects real time); else one dequeue's
// output is changed, which may or may not make it non-linearizable.
func randomQueueHistory(r *rand.Rand) []histories.Operation[QueueOp, QueueOut] {
	var ops []histories.Operation[QueueOp, QueueOut]
	enqs := 0
	for c := range 2 + r.IntN(2) {
		t := int64(r.IntN(3))
		for range 1 + r.IntN(3) {
			in := QueueOp{Op: "deq"}
			if enqs < 4 && r.IntN(2) == 0 {
				in, enqs = QueueOp{Op: "enq", Value: 1 + r.IntN(3)}, enqs+1
			}
			call := t + int64(r.IntN(3))
			ret := call + 1 + int64(r.IntN(4))
			ops = append(ops, histories.Operation[QueueOp, QueueOut]{Client: c, Input: in, Call: call, Return: ret})
			t = ret + 1
		}
	}
	order := make([]int, len(ops))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(ops[a].Call - ops[b].Call) })
	spec, s := QueueSpec(), queueState{}
	for _, i := range order {
		s, ops[i].Output = spec.Apply(s, ops[i].Input)
	}
	if r.IntN(2) == 0 {
		for _, i := range r.Perm(len(ops)) {
			if ops[i].Input.Op == "deq" {
				ops[i].Output = []QueueOut{{Empty: true}, {Value: 1}, {Value: 2}, {Value: 3}}[r.IntN(4)]
				break
			}
		}
	}
	return ops
}

// lincheck --spec with a user's specification: every verdict on random histories,
// written with formats.JSONCodec and read back by the command, equals a brute-force
// search's on the histories themselves.
func TestLincheckUserSpecMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 0))
	dir := t.TempDir()
	var files []string
	want := map[string]string{}
	codec := formats.JSONCodec[QueueOp, QueueOut]("queue")
	for i := range 60 {
		ops := randomQueueHistory(r)
		var buf bytes.Buffer
		if err := formats.WriteRavel(&buf, ops, codec); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, fmt.Sprintf("h%02d.jsonl", i))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
		want[name] = wgl.CheckBruteForce(QueueSpec(), ops).String()
	}
	var stdout, stderr bytes.Buffer
	code := ravelcli.Run(append([]string{"lincheck", "--spec", "queue", "--json"}, files...), &stdout, &stderr, withQueue)
	var results []struct{ File, Verdict string }
	if err := json.Unmarshal(stdout.Bytes(), &results); err != nil {
		t.Fatalf("exit %d, %v; stderr:\n%s", code, err, stderr.String())
	}
	verdicts := map[string]int{}
	for _, res := range results {
		verdicts[res.Verdict]++
		if res.Verdict != want[res.File] {
			t.Errorf("%s: lincheck says %s, brute force %s", res.File, res.Verdict, want[res.File])
		}
	}
	if len(results) != len(files) || verdicts["linearizable"] < 10 || verdicts["not-linearizable"] < 10 {
		t.Errorf("%d results of %d files, verdicts %v: want both verdicts, ten or more each", len(results), len(files), verdicts)
	}
	if code != 1 {
		t.Errorf("exit %d, want %d", code, 1)
	}
}

// What a user with their own specification meets: lincheck's help and list name it, a
// violation is told with the specification's words and saved as the codec writes
// operations, a misspelt field and a specification that panics are errors of their
// file, and bad registrations are refused before any command runs.
func TestLincheckUserSpec(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.jsonl", `{"client":0,"input":{"op":"enq","value":1},"call":1,"return":2}
{"client":1,"input":{"op":"deq"},"output":{"value":1},"call":3,"return":4}
`)
	bad := write("bad.jsonl", `{"client":0,"input":{"op":"enq","value":1},"call":1,"return":2}
{"client":0,"input":{"op":"enq","value":2},"call":3,"return":4}
{"client":1,"input":{"op":"deq"},"output":{"value":2},"call":5,"return":6}
`)
	typo := write("typo.jsonl", `{"client":0,"input":{"op":"enq","valeu":1},"call":1,"return":2}
`)
	var five strings.Builder
	for i := range 5 {
		fmt.Fprintf(&five, `{"client":0,"input":{"op":"enq","value":%d},"call":%d,"return":%d}`+"\n", i, 2*i, 2*i+1)
	}
	overflow := write("five.jsonl", five.String())
	out := filepath.Join(dir, "violations.json")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout []string
	}{
		{"linearizable", []string{"lincheck", "--spec", "queue", ok}, 0, []string{"ok.jsonl  linearizable"}},
		{"violation", []string{"lincheck", "--spec", "queue", "--out", out, bad}, 1, []string{"bad.jsonl  not-linearizable", "Deq()", "Enq(2)", "violations saved to"}},
		{"misspelt field", []string{"lincheck", "--spec", "queue", typo}, 2, []string{`typo.jsonl:1: input: expected the JSON of a ravelcli_test.QueueOp: unknown field "valeu"`}},
		{"the specification panics", []string{"lincheck", "--spec", "queue", overflow}, 2, []string{`five.jsonl  error: specification "queue" panicked: runtime error: index out of range [4] with length 4 (at example_spec_test.go:`}},
		{"help", []string{"lincheck", "-h"}, 0, []string{"\n  queue          ravel\n", "-spec string\n    \tthe specification: cas-register, kv, register, queue "}},
		{"list", []string{"list"}, 0, []string{"\nqueue "}},
		{"unknown", []string{"lincheck", "--spec", "stack", ok}, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := ravelcli.Run(tc.args, &stdout, &stderr, withQueue); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			for _, w := range tc.stdout {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
				}
			}
			if tc.name == "unknown" && !strings.Contains(stderr.String(), "valid: cas-register, kv, register, queue") {
				t.Errorf("stderr does not list the user's specification:\n%s", stderr.String())
			}
		})
	}
	saved, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Spec       string `json:"spec"`
		Violations []struct {
			Stuck struct {
				Input QueueOp `json:"input"`
			} `json:"stuck"`
			Expected QueueOut `json:"stuck_expected_output"`
		} `json:"violations"`
	}
	if err := json.Unmarshal(saved, &v); err != nil || v.Spec != "queue" || len(v.Violations) != 1 ||
		v.Violations[0].Stuck.Input != (QueueOp{Op: "deq"}) || v.Violations[0].Expected != (QueueOut{Value: 1}) {
		t.Errorf("--out: %v; want the queue's violation, stuck at Deq() expecting 1, in the codec's JSON:\n%s", err, saved)
	}

	noApply := QueueSpec()
	noApply.Apply = nil
	noDecode := formats.JSONCodec[QueueOp, QueueOut]("queue")
	noDecode.DecodeOutput = nil
	spaced := QueueSpec()
	spaced.Name = "my queue"
	taken := QueueSpec()
	taken.Name = "kv"
	for _, tc := range []struct {
		name string
		opts []ravelcli.Option
		want string
	}{
		{"no Apply", []ravelcli.Option{ravelcli.Spec(noApply, formats.JSONCodec[QueueOp, QueueOut]("queue"))}, `specification "queue" has no Apply`},
		{"a codec without DecodeOutput", []ravelcli.Option{ravelcli.Spec(QueueSpec(), noDecode)}, "its codec lacks a function"},
		{"a name of two words", []ravelcli.Option{ravelcli.Spec(spaced, formats.JSONCodec[QueueOp, QueueOut]("my queue"))}, "a name is one word"},
		{"a built-in's name", []ravelcli.Option{ravelcli.Spec(taken, formats.JSONCodec[QueueOp, QueueOut]("kv"))}, `two specifications are named "kv"`},
		{"twice", []ravelcli.Option{withQueue, withQueue}, `two specifications are named "queue"`},
	} {
		t.Run("bad catalog/"+tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if code := ravelcli.Run([]string{"list"}, new(bytes.Buffer), &stderr, tc.opts...); code != 2 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), 2, tc.want)
			}
		})
	}
}
