package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/specs"
	"github.com/ravelmc/ravel/wgl"
)

// exitUnknown is lincheck's exit status when no history was found not linearizable but
// the timeout struck before some verdict.
const exitUnknown = 3

type lincheckFlags struct {
	spec    string
	format  string
	timeout time.Duration
	json    bool
	out     string
	html    string
}

// lincheckSpec is a specification lincheck knows, with the formats its histories can be
// read from; the first is the default.
type lincheckSpec struct {
	name    string
	formats []string
}

// lincheckSpecs are the specifications lincheck knows.
var lincheckSpecs = []lincheckSpec{
	{"cas-register", []string{"jepsen", "ravel"}},
	{"kv", []string{"porcupine-kv", "ravel"}},
	{"register", []string{"ravel"}},
}

func lincheckSpecNames() string {
	var names []string
	for _, s := range lincheckSpecs {
		names = append(names, s.name)
	}
	return strings.Join(names, ", ")
}

func newLincheckFlagSet(f *lincheckFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("lincheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.spec, "spec", "", "the specification: cas-register, kv or register (default: the one --format holds)")
	fs.StringVar(&f.format, "format", "", "the files' format: jepsen, porcupine-kv or ravel (default: jepsen for cas-register, porcupine-kv for kv, ravel for register)")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up on a file after this long and call it unknown; 0 means no limit")
	fs.BoolVar(&f.json, "json", false, "print a JSON array of {file, verdict, seconds} instead of text")
	fs.StringVar(&f.out, "out", "", "write every violation found, with its longest linearizable prefix, to `FILE` as JSON")
	fs.StringVar(&f.html, "html", "", "write the first violating history (or the first history) as one HTML page to `FILE`")
	fs.Usage = func() {}
	return fs
}

const lincheckUsage = `Usage: ravel lincheck --spec SPEC [flags] FILE…

Checks recorded histories for linearizability against a sequential specification and
prints a verdict per file: linearizable, not-linearizable, or unknown (--timeout struck).
For a violation it prints the longest linearizable prefix found and the operation that
cannot follow it. Exit status: 0 every file linearizable, 1 some file not linearizable,
2 bad usage or a malformed file (reported as FILE:LINE), 3 some verdict unknown,
130 interrupted.

Specifications and their formats (the first is the default):
  cas-register   jepsen (Jepsen logs, e.g. etcd), ravel
  kv             porcupine-kv (EDN maps), ravel
  register       ravel
The ravel format is one JSON object per line; see docs/lincheck.md.

Flags:
`

func cmdLincheck(args []string, stdout, stderr io.Writer) (int, error) {
	var f lincheckFlags
	fs := newLincheckFlagSet(&f)
	files, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, lincheckUsage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return exitOK, nil
	}
	if err != nil {
		return 0, usagef("lincheck: %v (see ravel lincheck -h)", err)
	}
	if f.spec == "" {
		switch f.format {
		case "jepsen":
			f.spec = "cas-register"
		case "porcupine-kv":
			f.spec = "kv"
		default:
			return 0, usagef("lincheck needs --spec (valid: %s)", lincheckSpecNames())
		}
	}
	i := slices.IndexFunc(lincheckSpecs, func(s lincheckSpec) bool { return s.name == f.spec })
	if i < 0 {
		return 0, usagef("lincheck: unknown spec %q (valid: %s)", f.spec, lincheckSpecNames())
	}
	valid := lincheckSpecs[i].formats
	if f.format == "" {
		f.format = valid[0]
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch f.spec {
	case "cas-register":
		read := formats.ReadJepsen
		if f.format == "ravel" {
			read = ravelReader(formats.CASCodec())
		}
		return lincheck(ctx, specs.CASRegister(), formats.CASCodec(), read, files, f, stdout)
	case "kv":
		read := formats.ReadPorcupineKV
		if f.format == "ravel" {
			read = ravelReader(formats.KVCodec())
		}
		return lincheck(ctx, specs.KV(), formats.KVCodec(), read, files, f, stdout)
	default:
		return lincheck(ctx, specs.Register(), formats.RegisterCodec(), ravelReader(formats.RegisterCodec()), files, f, stdout)
	}
}

// ravelReader reads Ravel's format with codec.
func ravelReader[I, O any](codec formats.Codec[I, O]) func(io.Reader, string) ([]histories.Operation[I, O], error) {
	return func(r io.Reader, name string) ([]histories.Operation[I, O], error) {
		return formats.ReadRavel(r, name, codec)
	}
}

// lincheckResult is one file's line of --json.
type lincheckResult struct {
	File    string  `json:"file"`
	Verdict string  `json:"verdict"`
	Seconds float64 `json:"seconds"`
}

// lincheck reads every file (a malformed one stops everything, with exit 2), then checks
// them one after the other.
func lincheck[S, I, O comparable](
	ctx context.Context, spec specs.Spec[S, I, O], codec formats.Codec[I, O],
	read func(io.Reader, string) ([]histories.Operation[I, O], error),
	files []string, f lincheckFlags, stdout io.Writer,
) (int, error) {
	all := make([][]histories.Operation[I, O], len(files))
	for i, name := range files {
		ops, err := readHistoryFile(name, read)
		if err != nil {
			return 0, usagef("lincheck: %v", err)
		}
		all[i] = ops
	}
	results := make([]lincheckResult, len(files))
	var violations []json.RawMessage
	bad, unknown, interrupted := 0, 0, false
	for i, name := range files {
		ops := all[i]
		fctx, cancel := ctx, context.CancelFunc(func() {})
		if f.timeout > 0 {
			fctx, cancel = context.WithTimeout(ctx, f.timeout)
		}
		start := time.Now()
		res := wgl.CheckContext(fctx, spec, ops)
		elapsed := time.Since(start)
		cancel()
		results[i] = lincheckResult{File: name, Verdict: res.Verdict.String(), Seconds: elapsed.Seconds()}
		switch res.Verdict {
		case wgl.NotLinearizable:
			bad++
			if f.out != "" {
				v, err := violationRecord(spec, codec, name, ops, res)
				if err != nil {
					return 0, err
				}
				violations = append(violations, v)
			}
		case wgl.Unknown:
			unknown++
			if ctx.Err() != nil {
				interrupted = true
			}
		}
		if !f.json {
			printLincheck(stdout, spec, name, ops, res, elapsed, f.timeout)
		}
		if f.html != "" && (i == 0 || res.Verdict == wgl.NotLinearizable && bad == 1) {
			page := report.NewHistoryPage("ravel lincheck "+name, res.Verdict.String(), [][2]string{{"file", name}, {"specification", spec.Name}, {"operations", fmt.Sprint(len(ops))}, {"seconds", fmt.Sprintf("%.3f", elapsed.Seconds())}}, spec, ops, res)
			if err := report.WriteHTMLFile(f.html, page); err != nil {
				return 0, usagef("lincheck: --html: %v", err)
			}
		}
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return 0, err
		}
	} else if len(files) > 1 {
		fmt.Fprintf(stdout, "\n%d files: %d linearizable, %d not linearizable, %d unknown\n",
			len(files), len(files)-bad-unknown, bad, unknown)
	}
	if f.out != "" {
		if err := writeViolations(f.out, spec.Name, violations); err != nil {
			return 0, usagef("lincheck: --out: %v", err)
		}
		if !f.json && bad > 0 {
			fmt.Fprintf(stdout, "violations saved to %s\n", f.out)
		}
	}
	switch {
	case bad > 0:
		return exitViolation, nil
	case interrupted:
		return exitInterrupted, nil
	case unknown > 0:
		return exitUnknown, nil
	}
	return exitOK, nil
}

// readHistoryFile opens and reads one file.
func readHistoryFile[I, O any](name string, read func(io.Reader, string) ([]histories.Operation[I, O], error)) ([]histories.Operation[I, O], error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	ops, err := read(fh, name)
	if err == nil && len(ops) == 0 {
		// An empty history is linearizable, but a recorded one is almost always a file of
		// the wrong format (a Jepsen reader skips lines that are not operations).
		return nil, fmt.Errorf("%s: no operations found: is it in the format --format names?", name)
	}
	return ops, err
}

// printLincheck prints one file's verdict, and for a violation its explanation.
func printLincheck[S, I, O comparable](w io.Writer, spec specs.Spec[S, I, O], name string, ops []histories.Operation[I, O],
	res wgl.Result, elapsed, timeout time.Duration) {
	fmt.Fprintf(w, "%s  %s  (%d operations, %s)\n", name, res.Verdict, len(ops), seconds(elapsed.Seconds()))
	switch res.Verdict {
	case wgl.Unknown:
		if errors.Is(res.Err, context.DeadlineExceeded) {
			fmt.Fprintf(w, "  gave up after --timeout %v\n", timeout)
		} else if res.Err != nil {
			fmt.Fprintf(w, "  %v\n", res.Err)
		}
	case wgl.NotLinearizable:
		fmt.Fprint(w, report.ExplainViolation(spec, ops, res, explainRows))
	}
}

// explainRows is how many operations of the prefix the text explanation shows.
const explainRows = 10

// violationRecord is one violation for --out: the file, the failing partition, the
// longest linearizable prefix and the stuck operation, each operation as a line of
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
	r.Timeline = report.ExplainViolation(spec, ops, res, explainRows)
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
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
