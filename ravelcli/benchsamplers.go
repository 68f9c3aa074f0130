package ravelcli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/samplers"
	"github.com/ravelmc/ravel/systems/microbench"
)

// benchSamplerOrder is the column order of the predictions in docs/samplers.md, "The micro-benchmark of Ozkan et al. 2019".
var benchSamplerOrder = []string{"random", "rapos", "pos", "dpos", "pctcp", "tapct"}

// samplerPoint is one point of Figure 5 or 6: a micro-benchmark configuration and the
// predicted hits per 500 tests of each sampler (docs/samplers.md, "The micro-benchmark of Ozkan et al. 2019", in benchSamplerOrder).
type samplerPoint struct {
	Bug, L, K int
	Label     string
	Predicted [6]float64
}

var figure5 = []samplerPoint{
	{1, 1, 3, "L=1", [6]float64{83, 84, 83, 85, 85, 85}},
	{1, 2, 3, "L=2", [6]float64{14, 14, 13, 34, 69, 57}},
	{1, 3, 3, "L=3", [6]float64{2.3, 2.4, 2.8, 19, 66, 47}},
	{1, 4, 3, "L=4", [6]float64{0.4, 0.2, 0.3, 12, 65, 42}},
	{1, 5, 3, "L=5", [6]float64{0.06, 0.1, 0, 8, 61, 40}},
	{2, 2, 3, "L=2", [6]float64{13, 15, 14, 8, 11, 14}},
	{2, 3, 3, "L=3", [6]float64{15, 14, 14, 10, 14, 22}},
	{2, 4, 3, "L=4", [6]float64{6, 6, 8, 9, 16, 24}},
	{2, 5, 3, "L=5", [6]float64{4.5, 5, 5, 8, 18, 25}},
	{2, 6, 3, "L=6", [6]float64{2, 2, 2.5, 8, 19, 26}},
}

var figure6 = []samplerPoint{
	{1, 2, 0, "α=0", [6]float64{14, 13, 14, 34, 54, 54}},
	{1, 2, 1, "α=.25", [6]float64{14, 13, 15, 34, 60, 56}},
	{1, 2, 3, "α=.5", [6]float64{14, 14, 13, 34, 69, 57}},
	{1, 2, 9, "α=.75", [6]float64{13, 13, 15, 33, 77, 57}},
	{2, 3, 0, "α=0", [6]float64{14, 15, 15, 11, 21, 21}},
	{2, 3, 1, "α=.25", [6]float64{14, 15, 16, 11, 19, 21}},
	{2, 3, 3, "α=.5", [6]float64{15, 14, 14, 10, 14, 22}},
	{2, 3, 9, "α=.75", [6]float64{15, 15, 16, 10, 9, 21}},
}

// samplerCell is one sampler's result at one point.
type samplerCell struct {
	Sampler   string  `json:"sampler"`
	Hits      int64   `json:"hits"`
	Predicted float64 `json:"predicted"` // scaled to --tests
	Sigma     float64 `json:"sigma"`     // √(tests·p(1−p)) at the prediction, plus the model's ±2
	Within    bool    `json:"within_3_sigma"`
}

type samplerRow struct {
	Figure int           `json:"figure"`
	Bug    int           `json:"bug"`
	L      int           `json:"L"`
	K      int           `json:"k"`
	Label  string        `json:"point"`
	Cells  []samplerCell `json:"samplers"`
}

// cmdBenchSamplers runs the micro-benchmark of Ozkan et al. 2019, §5.1 (docs/samplers.md, "The micro-benchmark of Ozkan et al. 2019").
func (c *catalog) cmdBenchSamplers(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("bench samplers", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	figure := fs.Int("figure", 0, "the figure of Ozkan et al. 2019 to reproduce: 5 (hits against L) or 6 (hits against α)")
	tests := fs.Int64("tests", 500, "runs per sampler and point")
	seed := fs.Int64("seed", 1, "the seed: runs 0…tests−1 of it at every point")
	asJSON := fs.Bool("json", false, "print one JSON array of the rows")
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printHelp(stdout, "Usage: ravel bench samplers --figure 5|6 [--tests 500]\n\nRuns every sampler on the micro-benchmark of Ozkan et al. 2019 (§5.1) and prints the hits per point beside the predictions of docs/samplers.md.\n\nFlags:\n", fs)
		return exitOK, nil
	}
	if err != nil {
		return 0, usagef("bench samplers: %v (see ravel bench samplers -h)", err)
	}
	if len(pos) > 0 {
		return 0, usagef("bench samplers takes no arguments, got %q", strings.Join(pos, " "))
	}
	var points []samplerPoint
	switch *figure {
	case 5:
		points = figure5
	case 6:
		points = figure6
	default:
		return 0, usagef("bench samplers: --figure must be 5 or 6, got %d", *figure)
	}
	if *tests < 1 {
		return 0, usagef("bench samplers: --tests must be at least 1, got %d", *tests)
	}
	// SIGINT and SIGTERM end the run as they end check's: the rows finished so far are
	// printed, and the exit status is 130.
	ctx, stop := interruptContext(stderr, c.name())
	defer stop()
	var rows []samplerRow
	for i, p := range points {
		row, err := runSamplerPoint(ctx, p, *figure, *tests, *seed)
		if err != nil {
			return 0, err
		}
		if ctx.Err() != nil {
			break // the point under way is cut short: its hits would mislead
		}
		rows = append(rows, row)
		fmt.Fprintf(stderr, "%s: bench samplers: point %d of %d done (bug %d, %s)\n", c.name(), i+1, len(points), p.Bug, p.Label)
	}
	code := exitOK
	if ctx.Err() != nil {
		code = exitInterrupted
		fmt.Fprintf(stderr, "%s: bench samplers: interrupted after %d of %d points; the rows below are those finished\n", c.name(), len(rows), len(points))
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if rows == nil {
			rows = []samplerRow{}
		}
		return code, enc.Encode(rows)
	}
	printSamplerRows(stdout, rows, *figure, *tests, *seed)
	if code == exitInterrupted {
		fmt.Fprintf(stdout, "\ninterrupted: %d of %d points run\n", len(rows), len(points))
	}
	return code, nil
}

func runSamplerPoint(ctx context.Context, p samplerPoint, figure int, tests, seed int64) (samplerRow, error) {
	row := samplerRow{Figure: figure, Bug: p.Bug, L: p.L, K: p.K, Label: p.Label}
	sys, err := microbench.New(p.L, p.K, p.Bug)
	if err != nil {
		return row, err
	}
	for i, name := range benchSamplerOrder {
		cfg, err := samplers.New(name, samplers.Options{Depth: p.Bug + 1, Events: (3 + p.K) * p.L, RacyEvents: 3 * p.L, DeclaredRacy: true})
		if err != nil {
			return row, err
		}
		res, err := explorer.Run(ctx, sys, explorer.Options{Sampling: cfg, Seed: seed, MaxSchedules: tests})
		if err != nil {
			return row, fmt.Errorf("bench samplers: %s on %s: %w", name, sys.Name, err)
		}
		pr := p.Predicted[i] * float64(tests) / 500
		q := pr / float64(tests)
		sigma := math.Sqrt(float64(tests)*q*(1-q)) + 2*float64(tests)/500
		hits := res.Sampling.Hits
		row.Cells = append(row.Cells, samplerCell{Sampler: name, Hits: hits, Predicted: pr, Sigma: sigma,
			Within: math.Abs(float64(hits)-pr) <= 3*sigma})
	}
	return row, nil
}

func printSamplerRows(w io.Writer, rows []samplerRow, figure int, tests, seed int64) {
	fmt.Fprintf(w, "Ozkan et al. 2019, Figure %d: hits in %d tests per point (seed %d, runs 0…%d); in parentheses the prediction (docs/samplers.md); * more than 3σ away\n",
		figure, tests, seed, tests-1)
	bug := 0
	for _, r := range rows {
		if r.Bug != bug {
			bug = r.Bug
			fmt.Fprintf(w, "\nbug %d (depth %d)\n| point | L | k |", bug, bug+1)
			for _, s := range benchSamplerOrder {
				fmt.Fprintf(w, " %s |", s)
			}
			fmt.Fprint(w, "\n|---|---|---|")
			for range benchSamplerOrder {
				fmt.Fprint(w, "---:|")
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "| %s | %d | %d |", r.Label, r.L, r.K)
		for _, c := range r.Cells {
			mark := ""
			if !c.Within {
				mark = "*"
			}
			fmt.Fprintf(w, " %d (%s)%s |", c.Hits, trimFloat(c.Predicted), mark)
		}
		fmt.Fprintln(w)
	}
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.2f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}
