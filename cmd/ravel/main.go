// Command ravel checks distributed systems written as Go actors for linearizability by
// exploring the orders in which their messages can be delivered.
//
//	ravel list
//	ravel check SYSTEM [flags]
//	ravel replay FILE
//	ravel bench [flags]
//	ravel explore SYSTEM [--port N]
//
// Exit status: 0 when no violation was found, 1 when one was, 2 on bad usage or input,
// 130 when interrupted (SIGINT or SIGTERM) before finding anything.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Exit codes.
const (
	exitOK          = 0
	exitViolation   = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// usageError is bad usage or input: exit 2 with a one-line reason.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

const usage = `ravel — a model checker for distributed systems written as Go actors

Usage:
  ravel list                    the systems with their harnesses, and the strategies
  ravel check SYSTEM [flags]    explore SYSTEM's schedules and check every history
  ravel replay FILE             re-run the violation saved by check --out FILE
  ravel bench [flags]           every strategy on every system, in the DS2 paper's tables
  ravel bench samplers --figure 5|6   the samplers on seeds/000's micro-benchmark
  ravel lincheck [flags] FILE…  check recorded histories (Jepsen, porcupine, …) for linearizability
  ravel explore SYSTEM [flags]  step through SYSTEM by hand in a browser (127.0.0.1)
  ravel run [flags] CONFIG      test a real cluster: intercept, schedule, inject faults, check

Run 'ravel check -h' for check's flags.
Exit status: 0 no violation found, 1 violation found, 2 bad usage or input
(or a failure of the visited-state store on disk), 130 interrupted (SIGINT or
SIGTERM) before a violation was found.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command, for tests: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var code int
	var err error
	switch args[0] {
	case "list":
		code, err = cmdList(args[1:], stdout)
	case "check":
		code, err = cmdCheck(args[1:], stdout, stderr)
	case "replay":
		code, err = cmdReplay(args[1:], stdout)
	case "bench":
		code, err = cmdBench(args[1:], stdout, stderr)
	case "lincheck":
		code, err = cmdLincheck(args[1:], stdout, stderr)
	case "explore":
		code, err = cmdExplore(args[1:], stdout)
	case "run":
		code, err = cmdRun(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		err = usagef("unknown command %q (valid: list, check, replay, bench, lincheck, run, explore)", args[0])
	}
	if err != nil {
		var u *usageError
		if errors.As(err, &u) {
			fmt.Fprintf(stderr, "ravel: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(stderr, "ravel: %v\n", err)
		return exitUsage
	}
	return code
}
