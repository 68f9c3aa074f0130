package ravelcli

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/visited"
	"github.com/ravelmc/ravel/wgl"
)

// exitUnknown is lincheck's exit status when no history was found not linearizable but
// the timeout struck before some verdict.
const exitUnknown = 3

// exitDisagree is lincheck's exit status when some history's verdict is not the one its
// file records (--format histories).
const exitDisagree = 4

type lincheckFlags struct {
	prog    string // the command's name (catalog.name), for its lines on standard error
	spec    string
	format  string
	timeout time.Duration
	json    bool
	out     string
	html    string
	memSize string
	memMax  int64
	// formatDefault is set when --format was not given and format is spec's default;
	// formats are those spec is read from.
	formatDefault bool
	formats       []string
}

// lincheckSpec is a specification lincheck knows, with the formats its histories can be
// read from; the first is the default.
type lincheckSpec struct {
	name    string
	formats []string
	bad     error // what is wrong with a user's specification (Spec), for the catalog
	// check reads files in format and checks them.
	check func(ctx context.Context, format string, files []string, f lincheckFlags, stdout, stderr io.Writer) (int, error)
}

// builtinSpecs are the specifications every lincheck knows; a catalog adds the user's
// (Spec) after them.
var builtinSpecs = []lincheckSpec{
	{"cas-register", []string{"jepsen", "ravel", "histories"}, nil, func(ctx context.Context, format string, files []string, f lincheckFlags, stdout, stderr io.Writer) (int, error) {
		read := readerFor(format, formats.ReadJepsen, formats.CASCodec(), formats.CASText())
		return lincheck(ctx, specs.CASRegister(), formats.CASCodec(), read, files, f, stdout, stderr)
	}},
	{"kv", []string{"porcupine-kv", "ravel", "histories"}, nil, func(ctx context.Context, format string, files []string, f lincheckFlags, stdout, stderr io.Writer) (int, error) {
		read := readerFor(format, formats.ReadPorcupineKV, formats.KVCodec(), formats.KVText())
		return lincheck(ctx, specs.KV(), formats.KVCodec(), read, files, f, stdout, stderr)
	}},
	{"register", []string{"ravel", "histories"}, nil, func(ctx context.Context, format string, files []string, f lincheckFlags, stdout, stderr io.Writer) (int, error) {
		read := readerFor(format, nil, formats.RegisterCodec(), formats.RegisterText())
		return lincheck(ctx, specs.Register(), formats.RegisterCodec(), read, files, f, stdout, stderr)
	}},
}

// readerFor reads format: "ravel" with codec, "histories" (ravel check --histories)
// with text, and any other, a specification's own, with native.
func readerFor[I, O any](format string, native func(io.Reader, string) ([]histories.Operation[I, O], error),
	codec formats.Codec[I, O], text formats.TextCodec[I, O]) historyReader[I, O] {
	switch format {
	case "ravel":
		return oneHistory(ravelReader(codec))
	case "histories":
		return func(r io.Reader, name string) ([]lincheckItem[I, O], error) {
			hs, err := formats.ReadCheckHistories(r, name, text)
			items := make([]lincheckItem[I, O], len(hs))
			for i, h := range hs {
				items[i] = lincheckItem[I, O]{name: fmt.Sprintf("%s:%d", name, h.Line), line: h.Line, ops: h.Ops, recorded: h.Verdict, err: h.Err}
			}
			return items, err
		}
	}
	return oneHistory(native)
}

// ravelSpec checks files in Ravel's format against spec, read with codec.
func ravelSpec[S, I, O comparable](spec specs.Spec[S, I, O], codec formats.Codec[I, O]) func(context.Context, string, []string, lincheckFlags, io.Writer, io.Writer) (int, error) {
	return func(ctx context.Context, _ string, files []string, f lincheckFlags, stdout, stderr io.Writer) (int, error) {
		return lincheck(ctx, spec, codec, oneHistory(ravelReader(codec)), files, f, stdout, stderr)
	}
}

// lincheckItem is one history to check: a file's, or one line of a file of
// ravel check --histories, which records a verdict with each.
type lincheckItem[I, O any] struct {
	name     string // the file, or FILE:LINE
	line     int    // the line, in a file of many histories
	ops      []histories.Operation[I, O]
	recorded string // the verdict the file records, or ""
	err      error  // why the line is not a history: its verdict is then error
}

// historyReader reads the histories of one file, named name in errors.
type historyReader[I, O any] func(r io.Reader, name string) ([]lincheckItem[I, O], error)

// oneHistory reads a file that holds one history, with read.
func oneHistory[I, O any](read func(io.Reader, string) ([]histories.Operation[I, O], error)) historyReader[I, O] {
	return func(r io.Reader, name string) ([]lincheckItem[I, O], error) {
		ops, err := read(r, name)
		return []lincheckItem[I, O]{{name: name, ops: ops}}, err
	}
}

// lincheckSpecs are the specifications this command's lincheck knows.
func (c *catalog) lincheckSpecs() []lincheckSpec {
	return append(slices.Clip(builtinSpecs), c.specs...)
}

// lincheckSpecNames lists their names, for a usage line.
func (c *catalog) lincheckSpecNames() string { return specNames(c.lincheckSpecs()) }

// specNames lists the names of the specifications of list, comma-separated.
func specNames(list []lincheckSpec) string {
	var names []string
	for _, s := range list {
		names = append(names, s.name)
	}
	return strings.Join(names, ", ")
}

func newLincheckFlagSet(f *lincheckFlags, specNames string) *flag.FlagSet {
	fs := flag.NewFlagSet("lincheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.spec, "spec", "", "the specification: "+specNames+" (required unless --format is jepsen, which means cas-register, or porcupine-kv, which means kv, or the file is one of ravel check --histories, which names its own)")
	fs.StringVar(&f.format, "format", "", "the files' format: jepsen, porcupine-kv, ravel, or histories (a file of ravel check --histories) (default: jepsen for cas-register, porcupine-kv for kv, ravel for the others)")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up on a file after this long and call it unknown; 0 means no limit")
	fs.BoolVar(&f.json, "json", false, "print a JSON array of {file, verdict, seconds} instead of text")
	fs.StringVar(&f.out, "out", "", "write every violation found, with its longest linearizable prefix, to `FILE` as JSON")
	fs.StringVar(&f.html, "html", "", "write the first violating history (or the first history) as one HTML page to `FILE`")
	fs.StringVar(&f.memSize, "mem-limit", "", "give up on a file, calling it unknown, when the check would hold more memory than this (512MiB, 4GiB, …; default: three quarters of the machine's or the cgroup's memory)")
	fs.Usage = func() {}
	return fs
}

const lincheckUsage = `Usage: ravel lincheck --spec SPEC [flags] FILE…

Checks recorded histories for linearizability against a sequential specification and
prints a verdict per file: linearizable, not-linearizable, unknown (--timeout or
--mem-limit struck), or error: … for a file that cannot be read (reported as FILE:LINE;
the other files are still checked). An empty file is an empty history; - reads standard
input. For a violation it prints the longest linearizable prefix found and the operation
that cannot follow it. A file of ravel check --histories (--format histories) holds many
histories, each with check's verdict: each gets a verdict, said to agree with check's or
not. Exit status, the worst outcome: 4 some verdict is not the one the file records,
1 some history not linearizable, 130 interrupted (SIGINT or SIGTERM), 2 bad usage or
some file unreadable or malformed, 3 some verdict unknown, 0 every history linearizable.

Specifications and their formats (the first is the default):
`

// lincheckUsageTail follows the table of specifications.
const lincheckUsageTail = `The ravel format is one JSON object per line; see docs/lincheck.md.

Flags:
`

// formatNotes says what a format is, in the table of specifications.
var formatNotes = map[string]string{"jepsen": "jepsen (Jepsen's log lines of operations, of 2014 on, or its history.edn)", "porcupine-kv": "porcupine-kv (EDN maps)", "histories": "histories (ravel check --histories)"}

// lincheckHelp is lincheck's help text before the flags, with a row for each of the
// command's specifications.
func (c *catalog) lincheckHelp() string {
	var b strings.Builder
	b.WriteString(lincheckUsage)
	all := c.lincheckSpecs()
	width := 0
	for _, s := range all {
		width = max(width, len(s.name))
	}
	for _, s := range all {
		var fs []string
		for _, f := range s.formats {
			fs = append(fs, cmp.Or(formatNotes[f], f))
		}
		fmt.Fprintf(&b, "  %-*s   %s\n", width, s.name, strings.Join(fs, ", "))
	}
	b.WriteString(lincheckUsageTail)
	return b.String()
}

func (c *catalog) cmdLincheck(args []string, stdout, stderr io.Writer) (int, error) {
	f := lincheckFlags{prog: c.name()}
	fs := newLincheckFlagSet(&f, c.lincheckSpecNames())
	files, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printHelp(stdout, c.lincheckHelp(), fs)
		return exitOK, nil
	}
	if err != nil {
		return 0, usagef("lincheck: %v (see ravel lincheck -h)", err)
	}
	all := c.lincheckSpecs()
	// The format first: an unknown one is the mistake to name, not the --spec it would
	// have implied.
	if known := lincheckFormats(all); f.format != "" && !slices.Contains(known, f.format) {
		return 0, usagef("lincheck: unknown format %q (valid: %s)", f.format, strings.Join(known, ", "))
	}
	if f.spec == "" && (f.format == "" || f.format == "histories") && len(files) > 0 {
		// A file of ravel check --histories names the specification it was checked
		// against: it is read as what it is.
		if spec, ok := historiesFileSpec(files[0]); ok {
			f.spec, f.format = spec, "histories"
		}
	}
	if f.spec == "" {
		switch f.format {
		case "jepsen":
			f.spec = "cas-register"
		case "porcupine-kv":
			f.spec = "kv"
		default:
			if len(files) > 0 && files[0] == "-" {
				return 0, usagef("lincheck needs --spec (valid: %s): standard input is read once, and not looked at for the specification a file of ravel check --histories names", c.lincheckSpecNames())
			}
			return 0, usagef("lincheck needs --spec (valid: %s)", c.lincheckSpecNames())
		}
	}
	i := slices.IndexFunc(all, func(s lincheckSpec) bool { return s.name == f.spec })
	if i < 0 {
		return 0, usagef("lincheck: unknown spec %q (valid: %s)", f.spec, c.lincheckSpecNames())
	}
	valid := all[i].formats
	f.formats = valid
	if f.format == "" {
		f.format, f.formatDefault = valid[0], true
		// With --spec alone, a file of ravel check --histories is still read as what it
		// is; a history of another specification is then refused, naming it.
		if len(files) > 0 && slices.Contains(valid, "histories") && isHistoriesFile(files[0]) {
			f.format, f.formatDefault = "histories", false
		}
	}
	if !slices.Contains(valid, f.format) {
		return 0, usagef("lincheck: format %q does not hold %s histories (valid for %s: %s)", f.format, f.spec, f.spec, strings.Join(valid, ", "))
	}
	if f.timeout < 0 {
		return 0, usagef("lincheck: --timeout must be 0 (no limit) or positive, got %v", f.timeout)
	}
	if len(files) == 0 {
		return 0, usagef("lincheck needs at least one history file (see ravel lincheck -h)")
	}
	if stdin := slices.Index(files, "-"); stdin >= 0 && slices.Contains(files[stdin+1:], "-") {
		return 0, usagef("lincheck: - (standard input) is given twice; it can be read once")
	}
	inputs := make([]namedPath, len(files))
	for i, name := range files {
		inputs[i] = namedPath{"the history file", name}
	}
	outputs := []namedPath{{"--out", f.out}, {"--html", f.html}}
	if err := checkOutputs("lincheck", outputs, inputs, stdout, stderr); err != nil {
		return 0, err
	}
	f.memMax = defaultMemLimit()
	if f.memSize != "" {
		if f.memMax, err = visited.ParseSize(f.memSize); err != nil {
			return 0, usagef("lincheck: --mem-limit: %v", err)
		}
		if f.memMax < 1<<20 {
			return 0, usagef("lincheck: --mem-limit %s is below the minimum of 1MiB", f.memSize)
		}
	}
	// The collector works harder as the limit nears, so that garbage is not mistaken
	// for memory the check needs.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(f.memMax))
	if err := prepareOutputs("lincheck", outputs); err != nil {
		return 0, err
	}
	ctx, stop := interruptContext(stderr, c.name())
	defer stop()
	return all[i].check(ctx, f.format, files, f, stdout, stderr)
}

// lincheckFormats are the formats some specification of specs is read from, sorted.
func lincheckFormats(specs []lincheckSpec) []string {
	var out []string
	for _, s := range specs {
		for _, f := range s.formats {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return out
}

// ravelReader reads Ravel's format with codec.
func ravelReader[I, O any](codec formats.Codec[I, O]) func(io.Reader, string) ([]histories.Operation[I, O], error) {
	return func(r io.Reader, name string) ([]histories.Operation[I, O], error) {
		return formats.ReadRavel(r, name, codec)
	}
}

// lincheckResult is one history's entry of --json.
type lincheckResult struct {
	File    string  `json:"file"`
	Line    int     `json:"line,omitempty"` // the history's line, in a file of many
	Verdict string  `json:"verdict"`
	Seconds float64 `json:"seconds"`
	Error   string  `json:"error,omitempty"` // why the verdict is error or unknown
	// Recorded is the verdict the file records (--format histories), and Agrees whether
	// this verdict is the same; a history with no verdict of either has no Agrees.
	Recorded string `json:"recorded,omitempty"`
	Agrees   *bool  `json:"agrees,omitempty"`
}

// lincheck reads and checks the files one after the other, each history of a file in
// turn. A file that cannot be read gets its own verdict, "error", and the others are
// still checked; the exit status is the worst outcome (see lincheckExit).
func lincheck[S, I, O comparable](
	ctx context.Context, spec specs.Spec[S, I, O], codec formats.Codec[I, O],
	read historyReader[I, O], files []string, f lincheckFlags, stdout, stderr io.Writer,
) (int, error) {
	var results []lincheckResult
	var violations []json.RawMessage
	var n lincheckCounts
	var late []error
	var page []byte // --html's: the first violation's, or the first history's
	pageFailed := false
	for _, name := range files {
		if ctx.Err() != nil {
			results = append(results, lincheckResult{File: name, Verdict: "unknown", Error: "interrupted before it was checked"})
			n.unknown++
			n.interrupted = true
			if !f.json {
				fmt.Fprintf(stdout, "%s  unknown  (interrupted before it was checked)\n", name)
			}
			continue
		}
		items, err := readHistoryFile(ctx, name, read, f)
		if ctx.Err() != nil && err != nil {
			// The read was stopped, not failed: the file has no verdict.
			n.unknown++
			n.interrupted = true
			results = append(results, lincheckResult{File: name, Verdict: "unknown", Error: "interrupted while it was being read"})
			if !f.json {
				fmt.Fprintf(stdout, "%s  unknown  (interrupted while it was being read)\n", name)
			}
			continue
		}
		if err != nil {
			n.errors++
			n.unread++
			results = append(results, lincheckResult{File: name, Verdict: "error", Error: err.Error()})
			if !f.json {
				fmt.Fprintf(stdout, "%s  error: %v\n", name, err)
			}
			continue
		}
		for _, it := range items {
			n.histories++
			r := lincheckResult{File: name, Line: it.line, Recorded: it.recorded}
			if it.err != nil {
				// A line that is not a history: an error of its own, and the file's other
				// histories are still checked.
				msg := it.err.Error()
				if pe := (*formats.ParseError)(nil); errors.As(it.err, &pe) {
					msg = pe.Msg
				}
				n.errors++
				r.Verdict, r.Error = "error", msg
				results = append(results, r)
				if !f.json {
					fmt.Fprintf(stdout, "%s  error: %s\n", it.name, msg)
				}
				continue
			}
			if ctx.Err() != nil {
				r.Verdict, r.Error = "unknown", "interrupted before it was checked"
				results = append(results, r)
				n.unknown++
				n.interrupted = true
				if !f.json {
					fmt.Fprintf(stdout, "%s  unknown  (interrupted before it was checked)\n", it.name)
				}
				continue
			}
			ops := it.ops
			fctx, cancel := ctx, context.CancelFunc(func() {})
			if f.timeout > 0 {
				fctx, cancel = context.WithTimeout(ctx, f.timeout)
			}
			start := time.Now()
			res := wgl.CheckLimited(fctx, spec, ops, f.memMax)
			elapsed := time.Since(start)
			cancel()
			r.Seconds = elapsed.Seconds()
			if wgl.IsSpecBug(res.Err) {
				// A bug in the specification, not a verdict on the file: an error, like a
				// file that cannot be read.
				n.errors++
				r.Verdict, r.Error = "error", res.Err.Error()
				results = append(results, r)
				if !f.json {
					fmt.Fprintf(stdout, "%s  error: %v\n", it.name, res.Err)
				}
				continue
			}
			r.Verdict = res.Verdict.String()
			switch res.Verdict {
			case wgl.NotLinearizable:
				n.bad++
				if f.out != "" {
					v, err := violationRecord(spec, codec, it.name, ops, res)
					if err != nil {
						late = append(late, fmt.Errorf("lincheck: --out: %s: %w", it.name, err))
					} else {
						violations = append(violations, v)
					}
				}
			case wgl.Unknown:
				n.unknown++
				if ctx.Err() != nil {
					n.interrupted = true
					r.Error = "interrupted"
				} else if res.Err != nil {
					r.Error = unknownReason(res.Err, f)
				}
			}
			// Only two verdicts can agree or not: an unknown on either side says nothing.
			disagrees := false
			if it.recorded != "" && it.recorded != "unknown" && res.Verdict != wgl.Unknown {
				agrees := it.recorded == r.Verdict
				r.Agrees, disagrees = &agrees, !agrees
				if disagrees {
					n.disagree++
				}
			}
			results = append(results, r)
			if !f.json {
				printLincheck(stdout, spec, it, res, elapsed, f, ctx.Err() != nil, disagrees)
			}
			if f.html != "" && (n.histories == 1 || res.Verdict == wgl.NotLinearizable && n.bad == 1) {
				stats := [][2]string{{"file", it.name}, {"specification", spec.Name}, {"operations", fmt.Sprint(len(ops))}, {"seconds", fmt.Sprintf("%.3f", elapsed.Seconds())}}
				if res.Verdict == wgl.Unknown && r.Error != "" {
					stats = append(stats, [2]string{"unknown because", r.Error})
				}
				p := report.NewHistoryPage("ravel lincheck "+it.name, res.Verdict.String(), stats, spec, ops, res)
				var b bytes.Buffer
				if err := report.WriteHTML(&b, p); err != nil {
					late = append(late, fmt.Errorf("lincheck: --html: %w", err))
				} else {
					page = b.Bytes()
				}
			}
		}
	}
	// Written once, at the end: a pipe or a terminal given to --html gets one page.
	if page != nil {
		if err := writeOutput(f.html, page); err != nil {
			late = append(late, fmt.Errorf("lincheck: --html: %w", err))
			pageFailed = true
		}
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if results == nil {
			results = []lincheckResult{}
		}
		if err := enc.Encode(results); err != nil {
			late = append(late, err)
		}
	} else if f.format == "histories" {
		// A file that could not be read is no history: it is counted apart.
		all := len(results) - n.unread
		unread := ""
		if n.unread > 0 {
			unread = fmt.Sprintf(" (and %s not read)", plural(n.unread, "file"))
		}
		histories := plural(all, "history")
		if all != 1 {
			histories = fmt.Sprintf("%d histories", all)
		}
		fmt.Fprintf(stdout, "\n%s%s: %d linearizable, %d not linearizable, %d unknown, %s; %s\n",
			histories, unread, all-n.bad-n.unknown-(n.errors-n.unread), n.bad, n.unknown, plural(n.errors-n.unread, "error"), agreement(n.disagree))
	} else if len(files) > 1 {
		fmt.Fprintf(stdout, "\n%d files: %d linearizable, %d not linearizable, %d unknown, %s\n",
			len(files), len(files)-n.bad-n.unknown-n.errors, n.bad, n.unknown, plural(n.errors, "error"))
	}
	if f.out != "" {
		if err := writeViolations(f.out, spec.Name, violations); err != nil {
			late = append(late, fmt.Errorf("lincheck: --out: %w", err))
		} else if !f.json && n.bad > 0 {
			fmt.Fprintf(stdout, "violations saved to %s\n", f.out)
		}
	}
	if page != nil && !pageFailed && !f.json {
		printPageSaved(stdout, f.html)
	}
	code := n.exit()
	for _, err := range late {
		code = lateFailure(stderr, f.prog, code, err)
	}
	return code, nil
}

// agreement says how the verdicts compare with those the files record.
func agreement(disagree int) string {
	if disagree == 0 {
		return "no verdict disagrees with the one recorded"
	}
	return fmt.Sprintf("%d %s with the verdict recorded", disagree, map[bool]string{true: "disagrees", false: "disagree"}[disagree == 1])
}

// lincheckCounts are the outcomes of a batch.
type lincheckCounts struct {
	histories            int // checked or not, of the files read
	bad, unknown, errors int
	unread               int // of the errors, files that could not be read at all
	disagree             int // verdicts not the one the file records
	interrupted          bool
}

// exit is the worst outcome's status: a verdict other than the one the file records (4)
// above all — check and lincheck, or the file, are wrong —, then a violation (1), an
// interruption (130), a file that could not be read (2), a verdict unknown (3), and 0
// when every history is linearizable.
func (n lincheckCounts) exit() int {
	switch {
	case n.disagree > 0:
		return exitDisagree
	case n.bad > 0:
		return exitViolation
	case n.interrupted:
		return exitInterrupted
	case n.errors > 0:
		return exitUsage
	case n.unknown > 0:
		return exitUnknown
	}
	return exitOK
}

// unknownReason says why a check ended without a verdict, with the limit that struck
// and how to give the check more.
func unknownReason(err error, f lincheckFlags) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("gave up after --timeout %v (raise it, or give --timeout 0 for no limit)", f.timeout)
	case errors.Is(err, wgl.ErrMemLimit):
		limit := "--mem-limit " + f.memSize
		if f.memSize == "" {
			limit = fmt.Sprintf("--mem-limit, by default three quarters of the memory: %s", mib(f.memMax))
		}
		return fmt.Sprintf("gave up: the check needs more memory than %s (raise --mem-limit)", limit)
	}
	return err.Error()
}

// readHistoryFile opens and reads one file ("-" is standard input). An empty file is
// an empty history; a file with lines but no operation is almost always one of the
// wrong format (a Jepsen reader skips lines that are not operations) and is an error.
//
// Opening and reading may wait — on a pipe's writer, on standard input — for as long as
// the other side likes, so they are done on a goroutine of their own: an interrupt ends
// the wait at once (the goroutine is left to the process's end), and the error then
// says the read was stopped.
func readHistoryFile[I, O any](ctx context.Context, name string, read historyReader[I, O], f lincheckFlags) ([]lincheckItem[I, O], error) {
	type result struct {
		items []lincheckItem[I, O]
		err   error
	}
	done := make(chan result, 1)
	go func() {
		items, err := readAll(name, read, f)
		done <- result{items, err}
	}()
	select {
	case r := <-done:
		return r.items, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: interrupted while it was being read: %w", name, ctx.Err())
	}
}

func readAll[I, O any](name string, read historyReader[I, O], f lincheckFlags) ([]lincheckItem[I, O], error) {
	fh, err := openInput(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	cr := &countingReader{r: fh}
	items, err := read(cr, name)
	if err == nil && cr.n > 0 && (len(items) == 0 || len(items) == 1 && len(items[0].ops) == 0) {
		what := "no operations"
		if f.format == "histories" {
			what = "no histories"
		}
		if f.format == "jepsen" {
			// The file is most likely Jepsen's: another --format would not help.
			return nil, fmt.Errorf("%s: %s found in the jepsen format, which reads only Jepsen's log lines of operations and history.edn's maps, such as %s, and skips any other line (a file in another format needs --format: valid for %s: %s)", name, what, formats.JepsenLineForms, f.spec, strings.Join(f.formats, ", "))
		}
		if f.formatDefault {
			return nil, fmt.Errorf("%s: %s found in the %s format, %s's default: name the file's format with --format (valid for %s: %s)", name, what, f.format, f.spec, f.spec, strings.Join(f.formats, ", "))
		}
		return nil, fmt.Errorf("%s: %s found in the %s format (--format %s): is the file in another? (valid for %s: %s)", name, what, f.format, f.format, f.spec, strings.Join(f.formats, ", "))
	}
	return items, err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}

// printLincheck prints one history's verdict, and for a violation its explanation; of
// a history whose file records a verdict (--format histories), it says whether the two
// agree, and explains only a disagreement.
func printLincheck[S, I, O comparable](w io.Writer, spec specs.Spec[S, I, O], it lincheckItem[I, O],
	res wgl.Result, elapsed time.Duration, f lincheckFlags, interrupted, disagrees bool) {
	ops := it.ops
	fmt.Fprintf(w, "%s  %s  (%s, %s)", it.name, res.Verdict, plural(len(ops), "operation"), seconds(elapsed.Seconds()))
	switch {
	case disagrees:
		fmt.Fprintf(w, "  DISAGREES: the file records %s", it.recorded)
	case it.recorded != "" && it.recorded == res.Verdict.String():
		fmt.Fprint(w, "  as recorded")
	case it.recorded != "":
		fmt.Fprintf(w, "  (the file records %s)", it.recorded)
	}
	fmt.Fprintln(w)
	switch res.Verdict {
	case wgl.Unknown:
		switch {
		case interrupted:
			fmt.Fprintln(w, "  interrupted before a verdict")
		case res.Err != nil:
			fmt.Fprintf(w, "  %s\n", unknownReason(res.Err, f))
		}
	case wgl.NotLinearizable:
		if it.recorded == "" || disagrees {
			fmt.Fprint(w, report.ExplainRecorded(spec, ops, res, explainRows))
		}
	}
}

// explainRows is how many operations of the prefix the text explanation shows.
const explainRows = 10

// violationRecord is one violation for --out: the file, the failing partition, the
// longest linearizable prefix (less the open operations the explanation leaves out,
// report.Explanation.LeftOut) and the stuck operation, each operation as a line of
// Ravel's format with its index in the history, and the text timeline.
func violationRecord[S, I, O comparable](spec specs.Spec[S, I, O], codec formats.Codec[I, O], name string,
	ops []histories.Operation[I, O], res wgl.Result) (json.RawMessage, error) {
	e := report.Explain(spec, ops, res)
	opJSON := func(i int) (json.RawMessage, error) {
		b, err := formats.MarshalRavelOp(ops[i], codec)
		if err != nil {
			return nil, err
		}
		return json.RawMessage(`{"index":` + strconv.Itoa(i) + `,` + string(b[1:])), nil
	}
	type record struct {
		File       string            `json:"file"`
		Operations int               `json:"operations"`
		Partition  *string           `json:"partition,omitempty"`
		Prefix     []json.RawMessage `json:"prefix"`
		Stuck      json.RawMessage   `json:"stuck"`
		Expected   any               `json:"stuck_expected_output"`
		Timeline   string            `json:"timeline"`
	}
	r := record{File: name, Operations: len(ops), Prefix: []json.RawMessage{}}
	if spec.Partition != nil {
		r.Partition = &res.Partition
	}
	for _, i := range e.Prefix {
		j, err := opJSON(i)
		if err != nil {
			return nil, err
		}
		r.Prefix = append(r.Prefix, j)
	}
	if res.Stuck >= 0 {
		j, err := opJSON(res.Stuck)
		if err != nil {
			return nil, err
		}
		r.Stuck, r.Expected = j, codec.EncodeOutput(ops[res.Stuck].Input, e.Expected)
	}
	r.Timeline = report.ExplainRecorded(spec, ops, res, explainRows)
	b, err := json.Marshal(r)
	return b, err
}

// lincheckFormat names the layout of lincheck's --out file.
const lincheckFormat = "ravel-lincheck/1"

func writeViolations(path, spec string, violations []json.RawMessage) error {
	if violations == nil {
		violations = []json.RawMessage{}
	}
	b, err := json.MarshalIndent(struct {
		Format     string            `json:"format"`
		Spec       string            `json:"spec"`
		Violations []json.RawMessage `json:"violations"`
	}{lincheckFormat, spec, violations}, "", "  ")
	if err != nil {
		return err
	}
	return writeOutput(path, append(b, '\n'))
}

// historiesFileSpec returns the specification the first history of a file of ravel check
// --histories names, and whether path is such a file that names one. Only a regular file
// is looked at: standard input or a pipe can be read once only, and opening a named pipe
// would wait for its writer before an interrupt could end the wait.
func historiesFileSpec(path string) (string, bool) {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	file, err := os.Open(path)
	if err != nil {
		return "", false // the reader reports it, with the file's verdict line
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		return formats.CheckHistorySpec(text)
	}
	return "", false
}

// isHistoriesFile reports whether path is a file of ravel check --histories that names
// its specification (see historiesFileSpec).
func isHistoriesFile(path string) bool {
	_, ok := historiesFileSpec(path)
	return ok
}
