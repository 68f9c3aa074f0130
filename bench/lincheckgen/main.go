// Command lincheckgen writes long linearizable histories for measuring ravel lincheck's
// time and memory (docs/lincheck.md): the files are tens of megabytes, so they are
// generated rather than kept.
//
//	go run ./bench/lincheckgen -format ravel -ops 558865 > seq.jsonl
//	go run ./bench/lincheckgen -format jepsen -ops 560000 -seed 1 > cas.log
//	go run ./bench/lincheckgen -format repeat -from testdata/porcupine/jepsen/etcd_002.log -ops 631400 > rep.log
//
// -format ravel writes strictly sequential writes to a register in Ravel's JSON-lines
// format (ravel lincheck --spec register). -format jepsen writes a Jepsen log of
// -procs processes sharing an atomic compare-and-set register (ravel lincheck --spec
// cas-register): each operation takes effect at a random instant between its
// invocation and its completion, about one in -info is cut short by a timeout (:info,
// having taken effect or not), and failed compare-and-sets are logged as :fail, as
// Jepsen's etcd test does; the history is linearizable by construction. The seed is
// printed on standard error. -format repeat writes the Jepsen log -from over and over
// until -ops invocations: a long real log (not linearizable past its first copy, whose
// register is no longer absent when the next copy reads nil), as a probe of ravel
// lincheck's memory used.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

// formatHelp is -format's help: every format main writes.
const formatHelp = "ravel (sequential register writes), jepsen (a concurrent compare-and-set register) or repeat (the Jepsen log -from, repeated to -ops operations)"

func main() {
	format := flag.String("format", "ravel", formatHelp)
	ops := flag.Int("ops", 558865, "the number of operations")
	seed := flag.Uint64("seed", 1, "the seed of the jepsen history")
	procs := flag.Int("procs", 5, "jepsen: the processes running at once")
	info := flag.Int("info", 10, "jepsen: about one operation in this many times out (:info)")
	from := flag.String("from", "", "repeat: the Jepsen log to repeat")
	flag.Parse()
	if *ops < 0 || *procs < 1 || *info < 1 {
		fmt.Fprintln(os.Stderr, "lincheckgen: -ops must be at least 0, -procs and -info at least 1")
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	switch *format {
	case "ravel":
		for i := range *ops {
			fmt.Fprintf(w, `{"client":%d,"input":{"f":"write","value":%d},"output":"ok","call":%d,"return":%d}`+"\n", i%7, i%1000, 2*i, 2*i+1)
		}
	case "jepsen":
		fmt.Fprintf(os.Stderr, "lincheckgen: seed %d\n", *seed)
		jepsen(w, rand.New(rand.NewPCG(*seed, 0)), *ops, *procs, *info)
	case "repeat":
		if err := repeat(w, *from, *ops); err != nil {
			fmt.Fprintf(os.Stderr, "lincheckgen: %v\n", err)
			os.Exit(2)
		}
	default:
		fmt.Fprintf(os.Stderr, "lincheckgen: unknown -format %q (valid: ravel, jepsen, repeat)\n", *format)
		os.Exit(2)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "lincheckgen: %v\n", err)
		os.Exit(1)
	}
}

// call is one process's operation in flight.
type call struct {
	f       string // read, write or cas
	a, b    int    // write: a; cas: a → b
	applied bool   // it has taken effect
	out     string // what its completion logs
}

// jepsen simulates procs processes on an atomic register that starts absent (-1).
func jepsen(w *bufio.Writer, r *rand.Rand, ops, procs, info int) {
	reg := -1
	pid := make([]int, procs) // slot → its current process number
	for i := range pid {
		pid[i] = i
	}
	busy := make([]*call, procs)
	started, running := 0, 0
	for started < ops || running > 0 {
		p := r.IntN(procs)
		c := busy[p]
		switch {
		case c == nil && started < ops:
			c = &call{}
			switch r.IntN(3) {
			case 0:
				c.f = "read"
				fmt.Fprintf(w, "INFO  jepsen.util - %d\t:invoke\t:read\tnil\n", pid[p])
			case 1:
				c.f, c.a = "write", r.IntN(5)
				fmt.Fprintf(w, "INFO  jepsen.util - %d\t:invoke\t:write\t%d\n", pid[p], c.a)
			default:
				c.f, c.a, c.b = "cas", r.IntN(5), r.IntN(5)
				fmt.Fprintf(w, "INFO  jepsen.util - %d\t:invoke\t:cas\t[%d %d]\n", pid[p], c.a, c.b)
			}
			busy[p] = c
			started++
			running++
		case c == nil:
		case !c.applied && r.IntN(2) == 0:
			// The linearization point.
			c.applied = true
			switch c.f {
			case "read":
				c.out = ":ok\t:read\tnil"
				if reg >= 0 {
					c.out = fmt.Sprintf(":ok\t:read\t%d", reg)
				}
			case "write":
				reg = c.a
				c.out = fmt.Sprintf(":ok\t:write\t%d", c.a)
			default:
				if reg == c.a {
					reg = c.b
					c.out = fmt.Sprintf(":ok\t:cas\t[%d %d]", c.a, c.b)
				} else {
					c.out = fmt.Sprintf(":fail\t:cas\t[%d %d]", c.a, c.b)
				}
			}
		case r.IntN(info) == 0 && c.f != "read":
			// A timeout: the outcome is unknown, and the process is replaced.
			fmt.Fprintf(w, "INFO  jepsen.util - %d\t:info\t:%s\t:timed-out\n", pid[p], c.f)
			pid[p] += procs
			busy[p] = nil
			running--
		case c.applied:
			fmt.Fprintf(w, "INFO  jepsen.util - %d\t%s\n", pid[p], c.out)
			busy[p] = nil
			running--
		}
	}
}

// repeat writes the lines of the log at path over and over until ops invocations.
func repeat(w *bufio.Writer, path string, ops int) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(string(b), "\n")
	perCopy := strings.Count(string(b), ":invoke")
	if perCopy == 0 {
		return fmt.Errorf("%s has no :invoke line", path)
	}
	for n := 0; n < ops; {
		for _, l := range lines {
			if strings.Contains(l, ":invoke") {
				if n == ops {
					return nil
				}
				n++
			}
			w.WriteString(l)
		}
	}
	return nil
}
