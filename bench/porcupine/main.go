// Command porcupine-bench times Ravel's linearizability checker (package wgl) side by
// side with porcupine v1.3.1 on porcupine's own test histories: the 102 Jepsen etcd logs
// (a compare-and-set register) and the six key-value logs.
//
//	cd bench/porcupine && go run .
//
// Every file is parsed once, by Ravel's readers, and handed to both checkers as the same
// history. Then, for each of several rounds, every file is checked by porcupine and by
// Ravel in turn (which goes first alternates from round to round, and the garbage
// collector runs before each measurement). A measurement repeats the check enough times
// to last a few milliseconds, so that small files are timed above the clock's noise; both
// checkers get the same repetitions. The report gives, per file, the median time of each
// checker and their ratio, and per set (etcd, kv) the median over rounds of the set's
// total time. Both checkers' verdicts are compared with expected.txt first.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// history is one parsed file, ready for both checkers.
type history struct {
	rel     string // path under the data folder, as in expected.txt
	set     string // "etcd" or "kv"
	ops     int
	want    bool // linearizable, by expected.txt
	ravel   func() bool
	porc    func() bool
	reps    int
	porcT   []time.Duration // per round, per check
	ravelT  []time.Duration
	porcMed time.Duration
	ravMed  time.Duration
}

func main() {
	data := flag.String("data", filepath.Join("..", "..", "testdata", "porcupine"), "the folder with expected.txt, jepsen/ and kv/")
	rounds := flag.Int("rounds", 7, "rounds of alternating measurements (at least 5)")
	target := flag.Duration("target", 5*time.Millisecond, "repeat a check until one measurement lasts about this long")
	perFile := flag.Bool("files", true, "print the per-file table")
	one := flag.String("one", "", "check only this compare-and-set register `FILE`, with porcupine, once (for /usr/bin/time -v)")
	oneFormat := flag.String("format", "jepsen", "with -one: the file's format, jepsen or ravel")
	flag.Parse()
	if *one != "" {
		checkOne(*one, *oneFormat)
		return
	}
	if *rounds < 5 {
		fail("-rounds must be at least 5, got %d", *rounds)
	}
	hs, err := load(*data)
	if err != nil {
		fail("%v", err)
	}
	// Verdicts first: a fast wrong answer is worth nothing.
	for _, h := range hs {
		if got := h.porc(); got != h.want {
			fail("porcupine says linearizable=%v on %s, expected.txt says %v", got, h.rel, h.want)
		}
		if got := h.ravel(); got != h.want {
			fail("ravel says linearizable=%v on %s, expected.txt says %v", got, h.rel, h.want)
		}
	}
	// Calibrate the repetitions on the slower of the two, once.
	for _, h := range hs {
		d := max(timeOnce(h.porc, 1), timeOnce(h.ravel, 1))
		h.reps = max(1, int(*target/max(d, time.Microsecond)))
	}
	fmt.Printf("porcupine v1.3.1 vs Ravel (wgl) on %s: %d files, %d rounds, GOMAXPROCS %d, %s/%s, %s\n",
		*data, len(hs), *rounds, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version())
	for r := range *rounds {
		for _, h := range hs {
			if r%2 == 0 {
				h.porcT = append(h.porcT, timeOnce(h.porc, h.reps))
				h.ravelT = append(h.ravelT, timeOnce(h.ravel, h.reps))
			} else {
				h.ravelT = append(h.ravelT, timeOnce(h.ravel, h.reps))
				h.porcT = append(h.porcT, timeOnce(h.porc, h.reps))
			}
		}
	}
	for _, h := range hs {
		h.porcMed, h.ravMed = median(h.porcT), median(h.ravelT)
	}
	if *perFile {
		fmt.Printf("\n%-22s %5s  %-16s %12s %12s %7s\n", "file", "ops", "verdict", "porcupine", "ravel", "ratio")
		for _, h := range hs {
			v := "linearizable"
			if !h.want {
				v = "not-linearizable"
			}
			fmt.Printf("%-22s %5d  %-16s %12s %12s %7.3f\n", h.rel, h.ops, v, dur(h.porcMed), dur(h.ravMed),
				float64(h.ravMed)/float64(h.porcMed))
		}
	}
	fmt.Printf("\n%-5s %5s %14s %14s %7s   %s\n", "set", "files", "porcupine", "ravel", "ratio", "worst file (ratio of medians)")
	worstAll := 0.0
	for _, set := range []string{"etcd", "kv"} {
		var in []*history
		for _, h := range hs {
			if h.set == set {
				in = append(in, h)
			}
		}
		if len(in) == 0 {
			continue
		}
		// The set's time in each round is the sum of its files' times; the median is
		// taken over rounds.
		pt := make([]time.Duration, *rounds)
		rt := make([]time.Duration, *rounds)
		worst, worstFile := 0.0, ""
		for _, h := range in {
			for r := range *rounds {
				pt[r] += h.porcT[r]
				rt[r] += h.ravelT[r]
			}
			if q := float64(h.ravMed) / float64(h.porcMed); q > worst {
				worst, worstFile = q, h.rel
			}
		}
		worstAll = max(worstAll, worst)
		p, rv := median(pt), median(rt)
		fmt.Printf("%-5s %5d %14s %14s %7.3f   %s %.3f\n", set, len(in), dur(p), dur(rv), float64(rv)/float64(p), worstFile, worst)
	}
	fmt.Printf("\nratio = ravel / porcupine (below 1: Ravel is faster); set times are medians over rounds of the set's total\n")
	if worstAll > 1 {
		fmt.Printf("WARNING: on some file Ravel's median is slower than porcupine's (worst ratio %.3f)\n", worstAll)
	}
}

// load reads expected.txt and parses every file it lists.
func load(dir string) ([]*history, error) {
	f, err := os.Open(filepath.Join(dir, "expected.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var hs []*history
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("expected.txt: bad line %q", sc.Text())
		}
		h := &history{rel: fields[0], want: fields[1] == "linearizable"}
		path := filepath.Join(dir, filepath.FromSlash(h.rel))
		switch {
		case strings.HasPrefix(h.rel, "jepsen/"):
			ops, err := readFile(path, formats.ReadJepsen)
			if err != nil {
				return nil, err
			}
			po := casForPorcupine(ops)
			spec := specs.CASRegister()
			h.set, h.ops = "etcd", len(ops)
			h.ravel = func() bool { return wgl.Check(spec, ops).Verdict == wgl.Linearizable }
			h.porc = func() bool { return porcupine.CheckOperations(casModel, po) }
		case strings.HasPrefix(h.rel, "kv/"):
			ops, err := readFile(path, formats.ReadPorcupineKV)
			if err != nil {
				return nil, err
			}
			po := kvForPorcupine(ops)
			spec := specs.KV()
			h.set, h.ops = "kv", len(ops)
			h.ravel = func() bool { return wgl.Check(spec, ops).Verdict == wgl.Linearizable }
			h.porc = func() bool { return porcupine.CheckOperations(kvModel, po) }
		default:
			return nil, fmt.Errorf("expected.txt: unknown kind of file %s", h.rel)
		}
		hs = append(hs, h)
	}
	return hs, sc.Err()
}

func readFile[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	return read(f, path)
}

// timeOnce runs check reps times after a garbage collection and returns the time per
// check.
func timeOnce(check func() bool, reps int) time.Duration {
	runtime.GC()
	start := time.Now()
	for range reps {
		check()
	}
	return time.Since(start) / time.Duration(reps)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3fs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3fms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.1fµs", float64(d)/1e3)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "porcupine-bench: "+format+"\n", args...)
	os.Exit(1)
}
