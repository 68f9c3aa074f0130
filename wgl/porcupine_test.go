package wgl

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// porcupineDir holds porcupine's test histories and their verdicts (see its README.md).
var porcupineDir = filepath.Join("..", "testdata", "porcupine")

// readHistory reads one of porcupine's histories, by its path under porcupineDir.
func readHistory[I, O any](tb testing.TB, rel string, read func(io.Reader, string) ([]histories.Operation[I, O], error)) []histories.Operation[I, O] {
	tb.Helper()
	path := filepath.Join(porcupineDir, filepath.FromSlash(rel))
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	ops, err := read(f, path)
	if err != nil {
		tb.Fatal(err)
	}
	return ops
}

// readPorcupineKV reads one of porcupine's key-value histories.
func readPorcupineKV(tb testing.TB, rel string) []histories.Operation[specs.KVInput, specs.KVOutput] {
	return readHistory(tb, rel, formats.ReadPorcupineKV)
}

// expectedVerdicts reads expected.txt: file and verdict, in the order listed.
func expectedVerdicts(tb testing.TB) [][2]string {
	tb.Helper()
	f, err := os.Open(filepath.Join(porcupineDir, "expected.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			tb.Fatalf("expected.txt: bad line %q", sc.Text())
		}
		out = append(out, [2]string{fields[0], fields[1]})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestPorcupineVerdicts checks that Check gives porcupine's verdict on every history
// listed in expected.txt — the 102 Jepsen etcd logs against the compare-and-set
// register, the six key-value logs against the key-value map — with a valid witness
// when linearizable and a valid explanation when not.
func TestPorcupineVerdicts(t *testing.T) {
	list := expectedVerdicts(t)
	if len(list) != 108 {
		t.Errorf("expected.txt lists %d files, want 108", len(list))
	}
	counts := map[string]int{}
	for _, e := range list {
		rel, want := e[0], e[1]
		t.Run(rel, func(t *testing.T) {
			var err error
			var got Verdict
			switch {
			case strings.HasPrefix(rel, "jepsen/"):
				got, err = checkExplained(specs.CASRegister(), readHistory(t, rel, formats.ReadJepsen))
			case strings.HasPrefix(rel, "kv/"):
				got, err = checkExplained(specs.KV(), readPorcupineKV(t, rel))
			default:
				t.Fatalf("unknown kind of history %s", rel)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want {
				t.Errorf("Check = %s, want %s (expected.txt)", got, want)
			}
			counts[got.String()]++
		})
	}
	t.Logf("verdicts: %v", counts)
}

// checkExplained runs Check and verifies what comes with its verdict: the witness of a
// linearizable history, or the prefix and stuck operation of one that is not.
func checkExplained[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O]) (Verdict, error) {
	res, err := checkAndVerify(spec, ops)
	if err != nil || res.Verdict != NotLinearizable {
		return res.Verdict, err
	}
	return res.Verdict, verifyExplanation(spec, ops, res)
}

// verifyExplanation checks a NotLinearizable result's Prefix and Stuck: the prefix
// respects real time and replays with the recorded outputs, within one partition; the
// stuck operation is completed, not in the prefix, in the same partition, and gives
// another output than recorded after the prefix.
func verifyExplanation[S, I, O comparable](spec specs.Spec[S, I, O], ops []histories.Operation[I, O], res Result) error {
	key := func(i int) string {
		if spec.Partition == nil {
			return ""
		}
		return spec.Partition(ops[i].Input)
	}
	if res.Stuck < 0 || res.Stuck >= len(ops) || ops[res.Stuck].Open {
		return fmt.Errorf("stuck operation %d is not a completed operation of the history", res.Stuck)
	}
	if key(res.Stuck) != res.Partition {
		return fmt.Errorf("stuck operation %d is in partition %q, not the failing %q", res.Stuck, key(res.Stuck), res.Partition)
	}
	in := make([]bool, len(ops))
	state := spec.Init()
	for k, i := range res.Prefix {
		if i < 0 || i >= len(ops) || in[i] {
			return fmt.Errorf("prefix %v: bad or repeated operation %d", res.Prefix, i)
		}
		in[i] = true
		if key(i) != res.Partition {
			return fmt.Errorf("prefix operation %d is in partition %q, not %q", i, key(i), res.Partition)
		}
		for _, j := range res.Prefix[k+1:] {
			if histories.Precedes(ops[j], ops[i]) {
				return fmt.Errorf("prefix puts %d after %d, which it precedes", j, i)
			}
		}
		var out O
		state, out = spec.Apply(state, ops[i].Input)
		if !ops[i].Open && out != ops[i].Output {
			return fmt.Errorf("prefix operation %d gives %v, recorded %v", i, out, ops[i].Output)
		}
	}
	if in[res.Stuck] {
		return fmt.Errorf("stuck operation %d is in the prefix", res.Stuck)
	}
	if _, out := spec.Apply(state, ops[res.Stuck].Input); out == ops[res.Stuck].Output {
		return fmt.Errorf("stuck operation %d gives its recorded output after the prefix", res.Stuck)
	}
	// Every operation that precedes the stuck one, or any prefix operation, in real
	// time is in the prefix.
	for i := range ops {
		if in[i] || ops[i].Open || key(i) != res.Partition {
			continue
		}
		if histories.Precedes(ops[i], ops[res.Stuck]) {
			return fmt.Errorf("operation %d precedes the stuck %d but is not in the prefix", i, res.Stuck)
		}
	}
	return nil
}

// TestPorcupineKVWhole checks the small key-value histories unpartitioned too, over a
// state holding every key: the verdict must be the same.
func TestPorcupineKVWhole(t *testing.T) {
	for _, rel := range []string{"kv/c01-ok.txt", "kv/c01-bad.txt", "kv/c10-ok.txt", "kv/c10-bad.txt"} {
		ops := readPorcupineKV(t, rel)
		if whole, part := Check(wholeKV(ops), ops), Check(specs.KV(), ops); whole.Verdict != part.Verdict {
			t.Errorf("%s: Check without partitioning = %v, with = %v", rel, whole.Verdict, part.Verdict)
		}
	}
}
