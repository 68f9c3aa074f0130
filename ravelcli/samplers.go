package ravelcli

import (
	"errors"
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

// samplerFlags are check's flags for the randomized samplers (docs/samplers.md).
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
	// Each help names the strategies the flag applies to, from flagRules, so that the
	// list cannot go stale.
	fs.IntVar(&f.depth, "depth", 3, appliesTo("depth")+": the bug depth d aimed at (d−1 priority change points)")
	fs.StringVar(&f.events, "events", "auto", appliesTo("events")+": n, the bound on events per run, or auto (calibrated)")
	fs.StringVar(&f.racyEvents, "racy-events", "auto", appliesTo("racy-events")+": n̂, the bound on racy events per run, or auto (calibrated)")
	fs.StringVar(&f.racy, "racy", "auto", appliesTo("racy")+": the racy set R: auto (calibrated) or declared (the system's racy message types)")
	fs.IntVar(&f.calibration, "calibration", 16, appliesTo("calibration")+": random-walk runs that calibrate n, n̂ and R (not counted)")
	fs.StringVar(&f.partition, "chain-partition", "ag", appliesTo("chain-partition")+": the online chain partition: ag, ag-paper or singleton")
	fs.IntVar(&f.run, "run", 0, appliesTo("run")+": the first run; with --max-schedules 1 it replays run R of --seed alone")
}

// appliesTo lists the strategies the first rule of flag in flagRules applies to.
func appliesTo(flag string) string {
	for _, r := range flagRules {
		if r.flag == flag {
			return strings.Join(strategiesWhere(r.applies), ", ")
		}
	}
	return ""
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
	// d−1 change points need as many labels: with n (n̂) given, a deeper d is a mistake
	// the run could only answer with an undefined bound.
	labels, flagName := o.Events, "--events"
	if name == "tapct" || name == "dpos" {
		labels, flagName = o.RacyEvents, "--racy-events"
	}
	if name != "random" && name != "rapos" && name != "pos" && labels > 0 && f.depth-1 > labels {
		return nil, fmt.Errorf("--depth %d needs %d change points, more than the %d labels %s %d gives to place them at: give --depth at most %d", f.depth, f.depth-1, labels, flagName, labels, labels+1)
	}
	if o.Dependence, err = samplers.DependenceByName(dependence); err != nil {
		// A relation of the DPOR strategies (marks, a user's own) is not unknown: the
		// samplers read only their own three.
		if slices.Contains(dpor.Dependences(), dependence) {
			return nil, fmt.Errorf("the %s strategy does not take --dependence %s: it is a relation of the DPOR strategies (ravel list); the samplers take actor, history and key", name, dependence)
		}
		return nil, err
	}
	return samplers.New(name, o)
}

// unknownStrategy is check's error for a --strategy it does not know: it lists every
// strategy check takes, the samplers and their alias pct included, and names one that
// differs only in case.
func unknownStrategy(name string) error {
	valid := checkStrategyNames()
	for _, alias := range samplers.Names() {
		if !slices.Contains(valid, alias) {
			valid = append(valid, alias)
		}
	}
	msg := fmt.Sprintf("unknown strategy %q (valid: %s; see ravel list)", name, strings.Join(valid, ", "))
	for _, v := range valid {
		if strings.EqualFold(v, name) {
			msg += fmt.Sprintf("; did you mean %s?", v)
			break
		}
	}
	return errors.New(msg)
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
	printSamplingReplay(w, s, "")
}

// printSamplingReplay writes a sampler session's statistics; replay, when set, are the
// flags its replay hint adds before --seed (the workload that ran: --workloads SPEC#i).
func printSamplingReplay(w io.Writer, s *explorer.SamplingStats, replay string) {
	runs := "none"
	if s.Runs > 0 {
		runs = fmt.Sprintf("%d…%d", s.FirstRun, int64(s.FirstRun)+s.Runs-1)
	}
	fmt.Fprintf(w, "sampler %s (%s)  seed %d  runs %s  dependence %s\n", s.Sampler, s.Version, s.Seed, runs, s.Dependence)
	row := func(name, val string) {
		fmt.Fprintf(w, "  %s%s %s\n", name, strings.Repeat(" ", max(0, 50-columns(name))), val)
	}
	if s.Runs == 0 {
		row("", "no run was made (interrupted before the first run, during calibration)")
		return
	}
	row("hits (runs with a violation)", fmt.Sprintf("%s of %s", report.Thousands(s.Hits), report.Thousands(s.Runs)))
	row("hit rate (95% Wilson interval)", fmt.Sprintf("%.4f [%.4f, %.4f]", s.HitRate, s.WilsonLo, s.WilsonHi))
	if s.FirstHitRun >= 0 {
		row("first hit", fmt.Sprintf("run %d (schedule %d); replay: %s--seed %d --run %d --max-schedules 1", s.FirstHitRun, s.ToFirstHit, replay, s.Seed, s.FirstHitRun))
		row("schedules per hit", fmt.Sprintf("%.1f", s.PerHit))
	} else {
		row("first hit", "-")
	}
	if b := s.Bound; b != nil {
		if b.Undefined != "" {
			row("bound at observed "+b.KName, fmt.Sprintf("undefined: %s (%s with d=%d, %s=%d, %s=%d)", b.Undefined, b.Formula, b.D, b.NName, b.N, b.KName, b.K))
		} else {
			row("bound at observed "+b.KName, fmt.Sprintf("%.3g = %s with d=%d, %s=%d, %s=%d", b.P, b.Formula, b.D, b.NName, b.N, b.KName, b.K))
			row("1/bound; runs for a 95% chance at the bound", fmt.Sprintf("%.0f; %.0f", b.Inverse, b.For95))
		}
		if v := boundVerdict(s); v != "" {
			row("", v)
		}
	}
	if c := s.Calibration; c != nil {
		row("calibration runs (not counted)", fmt.Sprintf("%d: n=%d, n̂=%d, |R|=%d (R %s)", c.Runs, c.N, c.NHat, c.RacyCount, s.Racy))
	}
	unknown := "–"
	nHat := unknown
	if s.NHat > 0 || s.Calibration != nil {
		nHat = strconv.Itoa(s.NHat)
	}
	if s.Depth > 0 {
		row("depth d, n, n̂ used", fmt.Sprintf("%d, %d, %s (partition %s)", s.Depth, s.N, nHat, s.Partition))
	}
	obsNHat, nonRacy := unknown+" (R unknown: no calibration)", unknown
	if s.ObservedNHat != nil {
		obsNHat = strconv.Itoa(*s.ObservedNHat)
	}
	if s.NonRacyPerRun != nil {
		nonRacy = fmt.Sprintf("%.2f", *s.NonRacyPerRun)
	}
	row("observed n, n̂", fmt.Sprintf("%d, %s", s.ObservedN, obsNHat))
	row("chains: max, mean per run", fmt.Sprintf("%d, %.2f", s.MaxChains, s.MeanChains))
	row("maxConc; most enabled events", fmt.Sprintf("%d; %d", s.MaxConc, s.MaxEnabled))
	row("runs beyond n or n̂; cut runs", fmt.Sprintf("%d; %d", s.BeyondN, s.Cut))
	row("non-racy events per run; unknown events", fmt.Sprintf("%s; %d", nonRacy, s.UnknownRacy))
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

// boundVerdict compares the hit rate with the bound, or says why the bound does not
// apply: it is undefined, or runs had more events than the n (n̂) it was computed with.
func boundVerdict(s *explorer.SamplingStats) string {
	b := s.Bound
	switch {
	case b.Undefined != "":
		return ""
	case s.BeyondN > 0:
		observed, events := s.ObservedN, "events"
		if b.NName == "n̂" && s.ObservedNHat != nil {
			observed, events = *s.ObservedNHat, "racy events"
		}
		return fmt.Sprintf("the bound does not hold here: it assumes %s ≥ a run's %s, but %s=%d was below them (up to %d observed) in %s of %s runs",
			b.NName, events, b.NName, b.N, observed, report.Thousands(s.BeyondN), report.Thousands(s.Runs))
	case s.HitRate < b.P:
		return "hit rate < bound (the bound covers a bug of depth d only)"
	}
	return "hit rate ≥ bound"
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
