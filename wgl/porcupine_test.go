package wgl

import (
	"bufio"
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

// readPorcupineKV reads one of porcupine's key-value histories, by its path under
// porcupineDir.
func readPorcupineKV(tb testing.TB, rel string) []histories.Operation[specs.KVInput, specs.KVOutput] {
	tb.Helper()
	path := filepath.Join(porcupineDir, rel)
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	ops, err := formats.ReadPorcupineKV(f, path)
	if err != nil {
		tb.Fatal(err)
	}
	return ops
}

// TestPorcupineKV checks that Check gives porcupine's verdict on every key-value history
// present in testdata, reading the verdicts from expected.txt.
func TestPorcupineKV(t *testing.T) {
	f, err := os.Open(filepath.Join(porcupineDir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 || !strings.HasPrefix(fields[0], "kv/") {
			continue
		}
		rel, want := fields[0], fields[1]
		if _, err := os.Stat(filepath.Join(porcupineDir, rel)); err != nil {
			continue // only the small files are kept in testdata
		}
		checked++
		t.Run(rel, func(t *testing.T) {
			ops := readPorcupineKV(t, rel)
			res, err := checkAndVerify(specs.KV(), ops)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Verdict.String(); got != want {
				t.Errorf("Check = %s, want %s (expected.txt)", got, want)
			}
			if res.Verdict == NotLinearizable && res.Partition == "" {
				t.Errorf("Check names no failing partition")
			}
			// Unpartitioned, over a state holding every key, the verdict is the same.
			whole := Check(wholeKV(ops), ops)
			if whole.Verdict != res.Verdict {
				t.Errorf("Check without partitioning = %v, with = %v", whole.Verdict, res.Verdict)
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked < 4 {
		t.Errorf("checked %d kv histories from expected.txt, want the 4 in testdata", checked)
	}
}
