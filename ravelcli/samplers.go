package ravelcli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/samplers"
)

// samplerFlags are check's flags for the randomized samplers (SAMPLERS.md §7).
type samplerFlags struct {
	depth       int
	events      string
	racyEvents  string
	racy        string
	calibration int
	partition   string
	run         int
}

func addSamplerFlags(fs *flag.FlagSet, f *samplerFlags) {
	fs.IntVar(&f.depth, "depth", 3, "pctcp, tapct, dpos: the bug depth d aimed at (d−1 priority change points)")
	fs.StringVar(&f.events, "events", "auto", "pctcp: n, the bound on events per run, or auto (calibrated)")
	fs.StringVar(&f.racyEvents, "racy-events", "auto", "tapct, dpos: n̂, the bound on racy events per run, or auto (calibrated)")
	fs.StringVar(&f.racy, "racy", "auto", "tapct, dpos: the racy set R: auto (calibrated) or declared (the system's racy message types)")
	fs.IntVar(&f.calibration, "calibration", 16, "samplers: random-walk runs that calibrate n, n̂ and R (not counted)")
	fs.StringVar(&f.partition, "chain-partition", "ag", "pctcp, tapct: the online chain partition: ag, ag-paper or singleton")
	fs.IntVar(&f.run, "run", 0, "samplers: the first run; with --max-schedules 1 it replays run R of --seed alone")
}

// isSampler says whether name is one of the samplers' strategies.
func isSampler(name string) bool { return slices.Contains(samplers.Names(), name) }

// samplerConfig builds the sampler name with the flags; errors are usage errors.
func samplerConfig(name string, f *samplerFlags, dependence string) (*samplers.Config, error) {
	o := samplers.Options{Depth: f.depth, Calibration: f.calibration, Partition: samplers.Partition(f.partition)}
	var err error
	if o.Events, err = autoInt("--events", f.events); err != nil {
		return nil, err
	}
	if o.RacyEvents, err = autoInt("--racy-events", f.racyEvents); err != nil {
		return nil, err
	}
	switch f.racy {
	case "auto":
	case "declared":
		o.DeclaredRacy = true
	default:
		return nil, fmt.Errorf("--racy must be auto or declared, got %q", f.racy)
	}
	if f.depth < 1 {
		return nil, fmt.Errorf("--depth must be at least 1, got %d", f.depth)
	}
	if f.calibration < 1 {
		return nil, fmt.Errorf("--calibration must be at least 1, got %d", f.calibration)
	}
	if f.run < 0 {
		return nil, fmt.Errorf("--run must be 0 or more, got %d", f.run)
	}
	// Named here, by its flag: samplers.New would call it a "partition", which is the
	// name of a fault budget flag on this command line.
	if partitions := []samplers.Partition{samplers.AG, samplers.AGPaper, samplers.Singleton}; !slices.Contains(partitions, o.Partition) {
		return nil, fmt.Errorf("--chain-partition: unknown chain partition %q (valid: ag, ag-paper, singleton)", f.partition)
	}
	if o.Dependence, err = samplers.DependenceByName(dependence); err != nil {
		return nil, err
	}
	return samplers.New(name, o)
}

func autoInt(flagName, v string) (int, error) {
	if v == "auto" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s must be a positive number or auto, got %q", flagName, v)
	}
	return n, nil
}

// printSampling writes a sampler session's statistics.
func printSampling(w io.Writer, s *explorer.SamplingStats) {
	fmt.Fprintf(w, "sampler %s (%s)  seed %d  runs %d…%d  dependence %s\n", s.Sampler, s.Version, s.Seed, s.FirstRun, int64(s.FirstRun)+s.Runs-1, s.Dependence)
	row := func(name, val string) {
		fmt.Fprintf(w, "  %s%s %s\n", name, strings.Repeat(" ", max(0, 50-columns(name))), val)
	}
	row("hits (runs with a violation)", fmt.Sprintf("%s of %s", report.Thousands(s.Hits), report.Thousands(s.Runs)))
	row("hit rate (95% Wilson interval)", fmt.Sprintf("%.4f [%.4f, %.4f]", s.HitRate, s.WilsonLo, s.WilsonHi))
	if s.FirstHitRun >= 0 {
		row("first hit", fmt.Sprintf("run %d (schedule %d); replay: --seed %d --run %d --max-schedules 1", s.FirstHitRun, s.ToFirstHit, s.Seed, s.FirstHitRun))
		row("schedules per hit", fmt.Sprintf("%.1f", s.PerHit))
	} else {
		row("first hit", "-")
	}
	if b := s.Bound; b != nil {
		row("bound at observed "+b.KName, fmt.Sprintf("%.3g = %s with d=%d, %s=%d, %s=%d", b.P, b.Formula, b.D, b.NName, b.N, b.KName, b.K))
		if b.P > 0 {
			row("1/bound; runs for a 95% chance at the bound", fmt.Sprintf("%.0f; %.0f", b.Inverse, b.For95))
		}
		verdict := "hit rate ≥ bound"
		if s.HitRate < b.P {
			verdict = "hit rate < bound (the bound covers a bug of depth d only)"
		}
		row("", verdict)
	}
	if c := s.Calibration; c != nil {
		row("calibration runs (not counted)", fmt.Sprintf("%d: n=%d, n̂=%d, |R|=%d (R %s)", c.Runs, c.N, c.NHat, c.RacyCount, s.Racy))
	}
	if s.Depth > 0 {
		row("depth d, n, n̂ used", fmt.Sprintf("%d, %d, %d (partition %s)", s.Depth, s.N, s.NHat, s.Partition))
	}
	row("observed n, n̂", fmt.Sprintf("%d, %d", s.ObservedN, s.ObservedNHat))
	row("chains: max, mean per run", fmt.Sprintf("%d, %.2f", s.MaxChains, s.MeanChains))
	row("maxConc; most enabled events", fmt.Sprintf("%d; %d", s.MaxConc, s.MaxEnabled))
	row("runs beyond n or n̂; cut runs", fmt.Sprintf("%d; %d", s.BeyondN, s.Cut))
	row("non-racy events per run; unknown events", fmt.Sprintf("%.2f; %d", s.NonRacyPerRun, s.UnknownRacy))
	row("change points fired per run", fmt.Sprintf("%.2f", s.FiredPerRun))
	row("distinct traces (runs per trace min/max/mean/sd)", fmt.Sprintf("%d (%d/%d/%.2f/%.2f)", s.Traces, s.TraceBucketMin, s.TraceBucketMax, s.TraceBucketMean, s.TraceBucketSD))
	if len(s.HitRuns) > 0 {
		runs := make([]string, 0, 10)
		for _, r := range s.HitRuns[:min(10, len(s.HitRuns))] {
			runs = append(runs, strconv.FormatInt(r, 10))
		}
		more := ""
		if s.Hits > 10 {
			more = ", …"
		}
		row("hitting runs", strings.Join(runs, ", ")+more)
	}
}

// samplerStrategyName stands for a sampler where check wants a dpor.Strategy's name.
type samplerStrategyName string

func (s samplerStrategyName) Name() string    { return string(s) }
func (samplerStrategyName) Needs() dpor.Needs { return dpor.Needs{} }
func (samplerStrategyName) Arrive(dpor.Path)  {}

// columns is the number of terminal columns s takes: its runes, less the combining marks
// drawn over the rune before them (the circumflex of n̂).
func columns(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.Is(unicode.Mn, r) {
			n++
		}
	}
	return n
}
