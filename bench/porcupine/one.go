package main

import (
	"fmt"
	"io"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// checkOne checks one compare-and-set register file with porcupine alone, once, and
// prints its verdict and time: run under /usr/bin/time -v, it gives porcupine's peak
// memory on a long history beside `ravel lincheck`'s (docs/lincheck.md). format is
// jepsen, or ravel for Ravel's JSON-lines format with the compare-and-set codec.
func checkOne(path, format string) {
	read := formats.ReadJepsen
	if format == "ravel" {
		read = func(r io.Reader, name string) ([]histories.Operation[specs.CASInput, specs.CASOutput], error) {
			return formats.ReadRavel(r, name, formats.CASCodec())
		}
	} else if format != "jepsen" {
		fail("-format must be jepsen or ravel, got %q", format)
	}
	ops, err := readFile(path, read)
	if err != nil {
		fail("%v", err)
	}
	start := time.Now()
	ok := porcupine.CheckOperations(casModel, casForPorcupine(ops))
	v := "linearizable"
	if !ok {
		v = "not-linearizable"
	}
	fmt.Printf("%s  %s  (%d operations, porcupine, %.3fs)\n", path, v, len(ops), time.Since(start).Seconds())
}
