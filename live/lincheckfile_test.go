package live

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// TestLincheckHistories: writeLincheckHistories writes one file per key that ravel
// lincheck's reader for cas-register reads back to that key's operations, open ones
// included, and the keys' verdicts together are the history's.
func TestLincheckHistories(t *testing.T) {
	w := func(k string, a int) Input { return Input{Key: k, In: specs.CASInput{Op: specs.CASWrite, A: a}} }
	r := func(k string) Input { return Input{Key: k, In: specs.CASInput{Op: specs.CASRead}} }
	cas := func(k string, a, b int) Input {
		return Input{Key: k, In: specs.CASInput{Op: specs.CASSwap, A: a, B: b}}
	}
	for _, c := range []struct {
		name string
		hist []Op
	}{
		{"linearizable", []Op{
			{Client: 0, Input: w("k0", 1), Output: Output{OK: true}, Call: 1, Return: 2},
			{Client: 1, Input: r("k1"), Output: Output{OK: true, Absent: true}, Call: 3, Return: 4},
			{Client: 2, Input: cas("k0", 1, 2), Call: 5, Open: true},
			{Client: 1, Input: r("k0"), Output: Output{OK: true, Value: 2}, Call: 6, Return: 7},
		}},
		{"stale read on k1", []Op{
			{Client: 0, Input: w("k0", 1), Output: Output{OK: true}, Call: 1, Return: 2},
			{Client: 1, Input: w("k1", 3), Output: Output{OK: true}, Call: 3, Return: 4},
			{Client: 2, Input: r("k1"), Output: Output{OK: true, Absent: true}, Call: 5, Return: 6},
			{Client: 0, Input: cas("k0", 1, 4), Output: Output{}, Call: 7, Return: 8},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := writeLincheckHistories(dir, c.hist); err != nil {
				t.Fatal(err)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "history-*.jsonl"))
			if want := []string{filepath.Join(dir, "history-k0.jsonl"), filepath.Join(dir, "history-k1.jsonl")}; !slices.Equal(files, want) {
				t.Fatalf("files %v, want %v", files, want)
			}
			all := wgl.Linearizable
			for _, f := range files {
				in, err := os.Open(f)
				if err != nil {
					t.Fatal(err)
				}
				ops, err := formats.ReadRavel(in, f, formats.CASCodec())
				in.Close()
				if err != nil {
					t.Fatal(err)
				}
				key := filepath.Base(f)[len("history-") : len(filepath.Base(f))-len(".jsonl")]
				var want []Op
				for _, op := range c.hist {
					if op.Input.Key == key {
						want = append(want, op)
					}
				}
				if len(ops) != len(want) {
					t.Fatalf("%s: %d operations, want %d", f, len(ops), len(want))
				}
				for i, op := range ops {
					o := want[i]
					if op.Client != o.Client || op.Input != o.Input.In || op.Call != o.Call || op.Open != o.Open || !o.Open && (op.Output != o.Output || op.Return != o.Return) {
						t.Errorf("%s line %d: %+v, want %+v", f, i+1, op, o)
					}
				}
				if wgl.Check(specs.CASRegister(), ops).Verdict == wgl.NotLinearizable {
					all = wgl.NotLinearizable
				}
			}
			if got := wgl.Check(Spec(), c.hist).Verdict; got != all {
				t.Errorf("the history is %v, the keys' files together %v", got, all)
			}
		})
	}
}

// TestEveryFailingKey: when two keys fail, verdict.txt names both (the check itself
// stops at the first failing key). Only the first used to be reported, while ravel
// lincheck on the iteration's files found both.
func TestEveryFailingKey(t *testing.T) {
	w := func(k string, a int) Input { return Input{Key: k, In: specs.CASInput{Op: specs.CASWrite, A: a}} }
	r := func(k string) Input { return Input{Key: k, In: specs.CASInput{Op: specs.CASRead}} }
	hist := []Op{
		{Client: 0, Input: w("k0", 1), Output: Output{OK: true}, Call: 1, Return: 2},
		{Client: 1, Input: r("k0"), Output: Output{OK: true, Absent: true}, Call: 3, Return: 4},
		{Client: 0, Input: w("k1", 3), Output: Output{OK: true}, Call: 5, Return: 6},
		{Client: 1, Input: r("k1"), Output: Output{OK: true, Absent: true}, Call: 7, Return: 8},
		{Client: 2, Input: w("k2", 3), Output: Output{OK: true}, Call: 9, Return: 10},
	}
	res := wgl.CheckContext(context.Background(), Spec(), hist)
	if res.Verdict != wgl.NotLinearizable {
		t.Fatalf("verdict %v", res.Verdict)
	}
	also := otherFailingKeys(context.Background(), hist, res)
	dir := t.TempDir()
	if err := writeHistory(dir, hist, 0, res, also); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "verdict.txt"))
	other := map[string]string{"k0": "k1", "k1": "k0"}[res.Partition]
	if !strings.Contains(string(b), "key "+res.Partition+": no linearization") || !strings.Contains(string(b), "key "+other+": not linearizable either") || strings.Contains(string(b), "key k2") {
		t.Errorf("verdict.txt names not both failing keys (and only them):\n%s", b)
	}
}
