package ravelcli

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/ravelmc/ravel/dpor"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/samplers"
)

// applyFacts are what decides whether a flag means something to one run: the strategy,
// whether states are cached, and the system with its fault budgets in place.
type applyFacts struct {
	name    string           // the strategy as the user named it
	strat   dpor.Strategy    // a strategy of package dpor; nil when a sampler runs
	sampler *samplers.Config // a sampler; nil when a strategy of package dpor runs
	caching bool             // --state-caching on
	ckpt    bool             // --checkpoint or --resume: the run is checkpointed
	sys     *model.System    // the system with the fault flags applied; nil for bench
}

// flagRule says when a flag applies. A flag the user gave that does not apply to the run
// is refused, never silently ignored: a user who sets it expects it to change something.
//
// A rule is of one of four kinds, by which of needs, clash and refusal is set:
//   - none: the flag is a strategy's; applies looks at strat and sampler alone, and
//     the refusal lists the strategies it applies to, found by asking applies of each
//     (strategiesWhere), so that the list cannot go stale;
//   - needs: the flag needs another setting, and needs says which and why;
//   - clash: another setting takes the flag's place, and clash says which and what to do;
//   - refusal: a format of one %s, the strategy's name, saying why and what to do.
type flagRule struct {
	flag    string
	applies func(a applyFacts) bool
	needs   string
	clash   string
	refusal string
}

// flagRules are check's (and, for the flags it shares, bench's) flags that apply only to
// some runs. The first rule of a flag that does not apply refuses it.
var flagRules = []flagRule{
	// The samplers' relation decides which runs count as one trace (the sampler block's
	// distinct traces), even for random, which draws without it: so it applies to them all.
	{flag: "dependence", applies: func(a applyFacts) bool {
		return a.sampler != nil || a.strat != nil && dpor.RelationOf(a.strat) != nil
	}},
	{flag: "delays", applies: func(a applyFacts) bool { return a.strat != nil && a.strat.Name() == "delay-bounded" }},
	{flag: "run", applies: func(a applyFacts) bool { return a.sampler != nil }},
	{flag: "depth", applies: func(a applyFacts) bool { return a.sampler != nil && a.sampler.HasBound() }},
	{flag: "calibration", applies: func(a applyFacts) bool { return a.sampler != nil && a.sampler.HasBound() }},
	{flag: "calibration", applies: func(a applyFacts) bool { return a.sampler.Calibrates() },
		needs: "something to calibrate: --events, --racy-events or --racy left at auto, as the sampler uses them; with them given, no calibration run is made"},
	{flag: "events", applies: func(a applyFacts) bool { return a.sampler != nil && a.sampler.NeedsN() }},
	{flag: "racy-events", applies: func(a applyFacts) bool { return a.sampler != nil && a.sampler.NeedsNHat() }},
	{flag: "racy", applies: func(a applyFacts) bool { return a.sampler != nil && a.sampler.NeedsRacy() }},
	{flag: "chain-partition", applies: choosesPartition},
	// explorer runs the fault walk for the random sampler alone (explorer/sampling.go).
	{flag: "fault-probability", applies: func(a applyFacts) bool { return a.sampler != nil && a.sampler.Name == "random" }},
	{flag: "fault-probability", applies: faulty,
		needs: "a fault budget (--drop, --duplicate, --partition, --crash or --timeouts, or the system's own): without one there is no fault to inject"},
	{flag: "partition-hold", applies: func(a applyFacts) bool { return a.sys.Faults.Partition > 0 },
		needs: "a --partition budget (or the system's own): it says what a partition does with the messages across its cut"},
	{flag: "crash-stop", applies: func(a applyFacts) bool { return a.sys.Faults.Crash > 0 },
		needs: "a --crash budget (or the system's own): it says whether a crashed agent may restart"},
	{flag: "max-states", applies: caching,
		needs: "--state-caching on: without it the search counts no states (bound it with --max-schedules)"},
	{flag: "canonical-states", applies: caching,
		needs: "--state-caching on: it changes what a visited state is"},
	{flag: "visited-mem", applies: caching,
		needs: "--state-caching on: without it the search keeps no visited states"},
	{flag: "visited-dir", applies: caching,
		needs: "--state-caching on: without it the search keeps no visited states"},
	{flag: "visited-mem", applies: spills,
		refusal: "--visited-mem does not apply to %s with state caching: " + keepsStatesWhy},
	{flag: "visited-dir", applies: spills,
		refusal: "--visited-dir does not apply to %s with state caching: " + keepsStatesWhy},
	// A checkpointed run's visited states are part of its checkpoint: they spill into its
	// directory, where the resume finds them.
	{flag: "visited-dir", applies: func(a applyFacts) bool { return !a.ckpt },
		clash: "--checkpoint and --resume: a checkpointed run's visited states spill into the checkpoint directory, where a resume finds them; drop --visited-dir, and give --checkpoint a directory on the disk meant for them"},
	{flag: "checkpoint-every", applies: func(a applyFacts) bool { return a.ckpt },
		needs: "--checkpoint or --resume: it is the interval between their checkpoints"},
}

const keepsStatesWhy = "stateful DPOR keeps every visited state in its graph, in memory, and never spills (docs/strategies.md); drop the flag and bound its states with --max-states, or use exhaustive with --state-caching on, whose visited states spill"

func caching(a applyFacts) bool { return a.caching }

// faulty is the explorer's own test for a system with fault events (explorer/state.go).
func faulty(a applyFacts) bool { return a.sys.Faults.Any() || a.sys.Harness.Timeouts() > 0 }

// choosesPartition: the sampler keeps the chain partition it is given (d-POS always
// uses singleton chains, and the samplers without change points use none).
func choosesPartition(a applyFacts) bool {
	if a.sampler == nil || !a.sampler.HasBound() {
		return false
	}
	c, err := samplers.New(a.sampler.Name, samplers.Options{Partition: samplers.AGPaper})
	return err == nil && c.Partition == samplers.AGPaper
}

// spills: the visited states are the explorer's, which spill to disk, and not those of
// a strategy whose stateful variant keeps its own record in memory (dpor.StateKeeper).
func spills(a applyFacts) bool {
	c, ok := a.strat.(dpor.Cacheable)
	if !ok {
		return true
	}
	_, keeps := c.Stateful().(dpor.StateKeeper)
	return !keeps
}

// refuseInapplicable is the usage error for the first flag given explicitly on fs that
// does not apply to the run a describes, or nil.
func refuseInapplicable(cmd string, fs *flag.FlagSet, a applyFacts) error {
	for _, r := range givenRules(fs) {
		if !r.applies(a) {
			return usagef("%s: %s", cmd, r.explain(a, true))
		}
	}
	return nil
}

// inapplicableNotes are the notes, one per flag given on fs, that say the strategy of a
// ignores it: bench runs several strategies, and a flag may apply to some of them only.
// Only the strategy rules are asked: bench has no flag of the other kinds.
func inapplicableNotes(cmd string, fs *flag.FlagSet, a applyFacts) []string {
	var notes []string
	for _, r := range givenRules(fs) {
		if r.needs == "" && r.clash == "" && r.refusal == "" && !r.applies(a) {
			notes = append(notes, cmd+": "+r.explain(a, false))
		}
	}
	return notes
}

// givenRules are the rules of the flags given explicitly on fs.
func givenRules(fs *flag.FlagSet) []flagRule {
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	var rules []flagRule
	for _, r := range flagRules {
		if given[r.flag] {
			rules = append(rules, r)
		}
	}
	return rules
}

// explain says why r's flag does not apply to a; for a strategy rule, withList adds the
// strategies it applies to.
func (r flagRule) explain(a applyFacts, withList bool) string {
	switch {
	case r.needs != "":
		return fmt.Sprintf("--%s needs %s", r.flag, r.needs)
	case r.clash != "":
		return fmt.Sprintf("--%s does not apply with %s", r.flag, r.clash)
	case r.refusal != "":
		return fmt.Sprintf(r.refusal, a.name)
	}
	msg := fmt.Sprintf("the %s strategy ignores --%s", a.name, r.flag)
	if withList {
		msg += fmt.Sprintf(" (it applies to %s)", andList(strategiesWhere(r.applies)))
	}
	return msg
}

// strategiesWhere lists, in ravel list's order, check's strategies and samplers, each
// with its default settings, of which applies holds.
func strategiesWhere(applies func(applyFacts) bool) []string {
	var out []string
	for _, name := range checkStrategyNames() {
		a := applyFacts{name: name}
		if isSampler(name) {
			c, err := samplers.New(name, samplers.Options{})
			if err != nil {
				continue
			}
			a.sampler = c
		} else {
			s, err := dpor.New(name, dpor.Config{})
			if err != nil {
				continue
			}
			a.strat = s
		}
		if applies(a) {
			out = append(out, name)
		}
	}
	return out
}

// checkStrategyNames are the names --strategy of check takes, in ravel list's order,
// without the samplers' aliases (pct for pctcp).
func checkStrategyNames() []string {
	names := dpor.StrategyNames()
	for _, name := range samplers.Names() {
		c, err := samplers.New(name, samplers.Options{})
		if err == nil && c.Name == name && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// andList is "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
