package formats

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/histories"
)

// addSeeds adds to f's seed corpus the files matching glob under the repository's
// testdata, each cut to its first lines so that the fuzzer mutates small inputs.
func addSeeds(f *testing.F, glob string, lines int) {
	f.Helper()
	for _, text := range seedFiles(f, glob, lines) {
		f.Add(text)
	}
}

func seedFiles(f *testing.F, glob string, lines int) []string {
	f.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "testdata", glob))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no seeds match %s (%v)", glob, err)
	}
	var out []string
	for _, p := range paths[:min(len(paths), 8)] {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		ls := strings.SplitAfter(string(b), "\n")
		out = append(out, strings.Join(ls[:min(len(ls), lines)], ""))
	}
	return out
}

// addRavelSeeds adds the histories of the files matching glob, read with read and
// written in Ravel's format with codec.
func addRavelSeeds[I, O any](f *testing.F, glob string, read func(r *strings.Reader, name string) ([]histories.Operation[I, O], error), codec Codec[I, O]) {
	f.Helper()
	for _, text := range seedFiles(f, glob, 30) {
		ops, err := read(strings.NewReader(text), glob)
		if err != nil {
			continue // a file cut mid-operation
		}
		var buf bytes.Buffer
		if err := WriteRavel(&buf, ops, codec); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.String())
	}
}
