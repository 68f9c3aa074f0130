package report_test

import (
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// explainText checks ops with spec and returns the explanation of a checked history
// and of a recorded one.
func explainText[S, I, O comparable](t *testing.T, spec specs.Spec[S, I, O], ops []histories.Operation[I, O]) (checked, recorded string) {
	t.Helper()
	res := wgl.Check(spec, ops)
	if res.Verdict != wgl.NotLinearizable {
		t.Fatalf("verdict %v, want %v", res.Verdict, wgl.NotLinearizable)
	}
	return report.ExplainViolation(spec, ops, res, 10), report.ExplainRecorded(spec, ops, res, 10)
}

// The explanation of a violation names the completed operation that rules out the
// stuck one's answer, and leaves out of the prefix an open operation that need not
// have taken effect (probe M4: a kv Get answered "" after a Put of "2" had returned,
// and the explanation put an open Put of "1" in the prefix and said the Get should
// have answered "1").
func TestExplanationNamesTheConflict(t *testing.T) {
	kv := specs.KV()
	reg := specs.Register()
	w := func(v int) specs.RegisterInput { return specs.RegisterInput{Write: true, Value: v} }
	r := specs.RegisterInput{}
	for _, tc := range []struct {
		name     string
		explain  func(t *testing.T) (checked, recorded string)
		want     []string // in both explanations, in this order
		recorded []string // in the recorded one, with times
		not      []string // in neither
	}{
		{"kv: a completed Put returned before the Get, an open Put need not have taken effect",
			func(t *testing.T) (string, string) {
				return explainText(t, kv, []histories.Operation[specs.KVInput, specs.KVOutput]{
					{Client: 0, Input: specs.Put("k1", "1"), Call: 1, Open: true},
					{Client: 1, Input: specs.Get("k1"), Call: 2, Open: true},
					{Client: 2, Input: specs.Put("k1", "2"), Call: 3, Return: 4},
					{Client: 3, Input: specs.Get("k1"), Output: specs.KVOutput{Value: ""}, Call: 5, Return: 6},
				})
			},
			[]string{
				`the longest linearizable prefix found has 2 of the 4 operations of key "k1";`,
				`here without the open c0 Put(k1, "1")`,
				`which need not have taken effect`,
				`      1  c2  Put(k1, "2")`,
				`✗  c3  Get(k1)`, `""   but the specification answers "2" here`,
				`c3 Get(k1)`, `answered "", as it would have at the start,`,
				`but c2 Put(k1, "2")`, `returned before c3's call and changes the answer`,
			},
			[]string{`c3 Get(k1) [5…6] answered "", as it would have at the start,`, `but c2 Put(k1, "2") [3…4] returned before c3's call`},
			[]string{`answers "1"`, `(open: no response)`}},
		{"register: a read of the initial value after a write returned",
			func(t *testing.T) (string, string) {
				return explainText(t, reg, []histories.Operation[specs.RegisterInput, specs.RegisterOutput]{
					{Client: 0, Input: w(1), Call: 1, Return: 2},
					{Client: 1, Input: r, Output: specs.RegisterOutput{Value: 0}, Call: 3, Return: 4},
				})
			},
			[]string{
				"the longest linearizable prefix found has 1 of the 2 operations, in linearization order,",
				"      1  c0  Write(1)", "✗  c1  Read()", "0   but the specification answers 1 here",
				"c1 Read()", "answered 0, as it would have at the start,",
				"but c0 Write(1)", "returned before c1's call and changes the answer",
			},
			nil, []string{"here without"}},
		{"register: a stale read of a write that a later one overwrote",
			func(t *testing.T) (string, string) {
				return explainText(t, reg, []histories.Operation[specs.RegisterInput, specs.RegisterOutput]{
					{Client: 0, Input: w(1), Call: 1, Return: 2},
					{Client: 1, Input: w(2), Call: 3, Return: 4},
					{Client: 2, Input: r, Output: specs.RegisterOutput{Value: 1}, Call: 5, Return: 6},
				})
			},
			[]string{
				"✗  c2  Read()", "1   but the specification answers 2 here",
				"c2 Read()", "answered 1, as it would have right after",
				"c0 Write(1)", "(#1), but c1 Write(2)", "comes after it and before c2's call, in real time, and changes the answer",
			},
			nil, []string{"at the start", "here without"}},
		{"register: the open write is needed, by the read that returned its value",
			func(t *testing.T) (string, string) {
				return explainText(t, reg, []histories.Operation[specs.RegisterInput, specs.RegisterOutput]{
					{Client: 0, Input: w(1), Call: 1, Open: true},
					{Client: 1, Input: r, Output: specs.RegisterOutput{Value: 1}, Call: 2, Return: 3},
					{Client: 2, Input: r, Output: specs.RegisterOutput{Value: 0}, Call: 4, Return: 5},
				})
			},
			[]string{
				"the longest linearizable prefix found has 2 of the 3 operations, in linearization order,",
				"      1  c0  Write(1)", "(open: no response)",
				"      2  c1  Read()", "✗  c2  Read()", "0   but the specification answers 1 here",
			},
			nil, []string{"here without", "at the start", "as it would have right after"}},
		{"register: the open write is needed by a read, though the stuck one fails without it too",
			func(t *testing.T) (string, string) {
				return explainText(t, reg, []histories.Operation[specs.RegisterInput, specs.RegisterOutput]{
					{Client: 0, Input: w(1), Call: 1, Open: true},
					{Client: 1, Input: r, Output: specs.RegisterOutput{Value: 1}, Call: 2, Return: 3},
					{Client: 2, Input: r, Output: specs.RegisterOutput{Value: 5}, Call: 4, Return: 5},
				})
			},
			[]string{
				"the longest linearizable prefix found has 2 of the 3 operations, in linearization order,",
				"      1  c0  Write(1)", "(open: no response)",
				"      2  c1  Read()", "✗  c2  Read()", "5   but the specification answers 1 here",
			},
			nil, []string{"here without", "at the start", "as it would have right after"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checked, recorded := tc.explain(t)
			for _, x := range []struct {
				name, text string
				want       []string
			}{
				{"checked", checked, tc.want},
				{"recorded", recorded, tc.want},
			} {
				rest := x.text
				for _, s := range x.want {
					i := strings.Index(rest, s)
					if i < 0 {
						t.Errorf("%s explanation: no %q (in order) in:\n%s", x.name, s, x.text)
						break
					}
					rest = rest[i+len(s):]
				}
				for _, s := range tc.recorded {
					if x.name == "recorded" && !strings.Contains(x.text, s) {
						t.Errorf("recorded explanation: no %q in:\n%s", s, x.text)
					}
				}
				for _, s := range tc.not {
					if strings.Contains(x.text, s) {
						t.Errorf("%s explanation has %q:\n%s", x.name, s, x.text)
					}
				}
			}
		})
	}
}
