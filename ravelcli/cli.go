// Package ravelcli is the ravel command line over any catalog of systems: a user's own
// main gets list, check, replay, bench, explore, lincheck and run — every flag, --json,
// --out, --html, the exit codes — over the systems it names:
//
//	func main() { ravelcli.Main(ravelcli.Systems(lazybackup.System)) }
//
// where lazybackup.System is a ravelcli.System: a name, the harness names, the default
// number of agents and a Build function (docs/user-guide.md §5). cmd/ravel is
// Main(Builtins()).
//
// Exit status: 0 when no violation was found, 1 when one was, 2 on bad usage or input
// (a bad catalog among them), 130 when interrupted (SIGINT or SIGTERM) before finding
// anything; lincheck adds 3 for an unknown verdict, and 4 (with --format histories) when
// some verdict is not the one its file records; bench and deps exit 0 when they complete,
// whatever they find.
package ravelcli

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
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
  ravel bench samplers --figure 5|6   the samplers on Ozkan et al. 2019's micro-benchmark
  ravel deps [flags]            dependence relations side by side, against exhaustive search
  ravel lincheck [flags] FILE…  check recorded histories (Jepsen's logs, porcupine's, …) for linearizability
  ravel explore SYSTEM [flags]  step through SYSTEM by hand in a browser (127.0.0.1)
  ravel run [flags] CONFIG      test a real cluster: intercept, schedule, inject faults, check

Run 'ravel check -h' (or 'ravel help check') for check's flags, and likewise for each command.
Exit status: 0 no violation found, 1 violation found, 2 bad usage or input
(or a failure of the visited-state store on disk, or a system Ravel could not check
as written: a state it cannot copy, a Clone that shares memory), 3 (lincheck) some verdict
unknown, 4 (lincheck --format histories) some verdict not the one recorded,
130 interrupted (SIGINT or SIGTERM) before a violation was found; explore exits
0 when interrupted, as a server does; bench and deps exit 0 when they complete,
whatever they find, and 130 when interrupted, after printing the runs so far.
`

// Main runs the command line of os.Args over the catalog opts make and exits with its
// status; it does not return.
func Main(opts ...Option) {
	os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr, append(opts, program(os.Args[0]))...))
}

// Run is the whole command line over the catalog opts make: args without the program
// name, the output on stdout and stderr, the exit status returned (0 no violation, 1 a
// violation, 2 bad usage or input, 130 interrupted). A bad catalog — two systems of one
// name, a system without harnesses or Build — is exit 2 before any command runs.
func Run(args []string, stdout, stderr io.Writer, opts ...Option) int {
	c, err := newCatalog(opts)
	if err != nil {
		fmt.Fprintf(stderr, "ravel: bad catalog: %v\n", err)
		return exitUsage
	}
	return c.run(args, stdout, stderr)
}

// run dispatches one command line.
func (c *catalog) run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, c.usage())
		return exitUsage
	}
	var code int
	var err error
	switch args[0] {
	case "list":
		code, err = c.cmdList(args[1:], stdout)
	case "check":
		code, err = c.cmdCheck(args[1:], stdout, stderr)
	case "replay":
		code, err = c.cmdReplay(args[1:], stdout, stderr)
	case "bench":
		code, err = c.cmdBench(args[1:], stdout, stderr)
	case "deps":
		code, err = c.cmdDeps(args[1:], stdout, stderr)
	case "lincheck":
		code, err = c.cmdLincheck(args[1:], stdout, stderr)
	case "explore":
		code, err = c.cmdExplore(args[1:], stdout)
	case "run":
		code, err = c.cmdRun(args[1:], stdout, stderr)
	case "help":
		// help CMD is CMD -h (help bench samplers, bench samplers -h).
		if len(args) > 1 && slices.Contains(commands, args[1]) {
			return c.run(append(slices.Clone(args[1:]), "-h"), stdout, stderr)
		}
		if len(args) > 1 {
			err = usagef("help: unknown command %q (valid: %s)", strings.Join(args[1:], " "), strings.Join(commands, ", "))
			break
		}
		fmt.Fprint(stdout, c.usage())
		return exitOK
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, c.usage())
		return exitOK
	default:
		err = usagef("unknown command %q (valid: %s)", args[0], strings.Join(commands, ", "))
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s\n", c.name(), c.ownCommand(err.Error()))
		return exitUsage
	}
	return code
}

// commands are the subcommands run dispatches, for help CMD and errors.
var commands = []string{"list", "check", "replay", "bench", "deps", "lincheck", "run", "explore"}

// isHelp says whether arg asks a command for its help, as the flag package's -h does.
func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// name is the command's name: "ravel", or a user's own command built on Main.
func (c *catalog) name() string { return cmp.Or(c.prog, "ravel") }

// commandLine matches a command line to type in help and error text: "ravel" and a
// subcommand.
var commandLine = regexp.MustCompile(`\bravel (list|check|replay|bench|deps|lincheck|explore|run|help)\b`)

// ownCommand rewrites, in help or error text, each command line to type ("ravel check",
// "see ravel list") to name the command that is running, when it is a user's own: ravel
// itself does not know their systems. Reports' titles are left alone: they name the tool.
func (c *catalog) ownCommand(text string) string {
	if c.name() == "ravel" {
		return text
	}
	return commandLine.ReplaceAllStringFunc(text, func(m string) string { return c.prog + strings.TrimPrefix(m, "ravel") })
}

// printHelp writes a subcommand's help, its header then its flags, naming the command
// that is running.
func (c *catalog) printHelp(w io.Writer, header string, fs *flag.FlagSet) {
	var b strings.Builder
	b.WriteString(header)
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprint(w, c.ownCommand(b.String()))
}

// usage is the command's usage text, its command lines naming the command that runs.
func (c *catalog) usage() string {
	if c.name() == "ravel" {
		return usage
	}
	text := strings.Replace(usage, "ravel — a model checker", c.prog+" — Ravel, a model checker", 1)
	return c.ownCommand(text)
}
