// Package systems is the catalog of the protocol models Ravel ships, one sub-package
// each, by the names the command line knows them by.
package systems

import (
	"fmt"
	"strings"

	"github.com/ravelmc/ravel/internal/panicsite"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/systems/abd"
	"github.com/ravelmc/ravel/systems/adr"
	"github.com/ravelmc/ravel/systems/chord"
	"github.com/ravelmc/ravel/systems/gossip"
	"github.com/ravelmc/ravel/systems/leader"
	"github.com/ravelmc/ravel/systems/microbench"
	"github.com/ravelmc/ravel/systems/paxos"
	"github.com/ravelmc/ravel/systems/register"
)

// Entry is one shipped system.
type Entry struct {
	// Name is the system's name on the command line.
	Name string
	// Summary says what it is, in one line.
	Summary string
	// Harnesses lists the harness names, the default first.
	Harnesses []string
	// Agents is the default number of agents.
	Agents int
	// AgentsAre, when set, is what Agents counts in a system whose --agents is not its
	// number of agents, a short name the reports print in place of "agents" (microbench:
	// "k", its non-racy chains).
	AgentsAre string
	// ZeroAgents says the system also runs with no agents (microbench with no non-racy
	// chain), which Config.Agents NoAgents asks for: New gives Build Agents 0 then. For
	// every Entry, Config.Agents 0 is the default.
	ZeroAgents bool
	// Retries is the default retry limit, for systems that retry (0: they do not).
	Retries int
	// Build builds the system for a Config whose defaults are filled in already: New,
	// which the command line calls, replaces an empty Harness, zero Agents and negative
	// Retries by the Entry's (and NoAgents by 0, with ZeroAgents) before calling Build. So Build
	// reads the Config as it is — Retries 0 is "no retries", as `--retries 0` asks — and
	// needs no defaults of its own; call New, not Build, to get them. Build fails, with a
	// message naming the valid choices, on an unknown harness or a bad parameter (Agents
	// the system cannot run with, say).
	Build func(Config) (model.System, error)
}

// Config are the parameters of a system. New (and the command line) fill in the
// defaults its zero values and negative Retries stand for; Build sees them filled.
type Config struct {
	Harness string // the harness; "" is the Entry's first, in New
	// Agents is the number of agents; 0 is the Entry's default, in New, and NoAgents
	// asks for none of an Entry with ZeroAgents.
	Agents int
	// Retries is the retry limit, for systems that retry: 0 is none; negative is the
	// Entry's default, in New. Systems that do not retry ignore it.
	Retries int
}

// NoAgents is Config.Agents asking for no agents at all, which only an Entry with
// ZeroAgents takes (microbench with no non-racy chain). It is not 0, which is the
// Entry's default for every Entry: a Go caller that leaves Agents out gets the system
// the command line runs by default.
const NoAgents = -1

// New builds e with cfg, filling in e's defaults for an empty harness, zero agents and
// negative retries (and 0 agents for NoAgents, with ZeroAgents), and validates the system Build
// returns. An Entry with no Harnesses and no cfg.Harness is an error. A Build that
// panics is a bug in it: New returns the panic as an error, saying where, instead of
// passing it on.
func (e Entry) New(cfg Config) (sys model.System, err error) {
	if cfg.Harness == "" && len(e.Harnesses) == 0 {
		return model.System{}, fmt.Errorf("system %q names no harness (Harnesses lists them, the default first)", e.Name)
	}
	defer func() {
		if v := recover(); v != nil {
			sys, err = model.System{}, fmt.Errorf("system %q: Build panicked: %v (at %s)", e.Name, v, panicsite.Where())
		}
	}()
	if cfg.Harness == "" {
		cfg.Harness = e.Harnesses[0]
	}
	switch {
	case cfg.Agents == 0:
		cfg.Agents = e.Agents
	case cfg.Agents == NoAgents && e.ZeroAgents:
		cfg.Agents = 0
	}
	if cfg.Retries < 0 {
		cfg.Retries = e.Retries
	}
	if sys, err = e.Build(cfg); err != nil {
		return sys, err
	}
	// What the commands read of a system before a search validates it (the harness, its
	// faults) must be there: a system Build got wrong is told here, not as a crash.
	return sys, sys.Validate()
}

var catalog = []Entry{
	{
		Name:      "register",
		Summary:   "DS2's distributed register (§4.1): a leader replicates reads and writes to a majority; a read whose replies never agree by a majority stays open (#IH without faults)",
		Harnesses: register.HarnessNames,
		Agents:    2,
		Build:     func(c Config) (model.System, error) { return register.New(c.Agents, c.Harness) },
	},
	{
		Name:      "register-buggy",
		Summary:   "DS2's erroneous register (§4.2): local reads, writes acknowledged after the first ack, and replicas that take replications in arrival order, ignoring versions",
		Harnesses: register.HarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return register.NewBuggy(c.Agents, c.Harness) },
	},
	{
		Name:      "register-volatile",
		Summary:   "the register whose agents keep their copy only in memory: clean without faults, loses an acknowledged write with --crash 1 (twin: register --agents 3 --harness 1r1w); it counts replies like that twin, so --duplicate 1 and --timeouts 1 fail too",
		Harnesses: register.VolatileHarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return register.NewVolatile(c.Agents, c.Harness) },
	},
	{
		Name:      "register-idempotent",
		Summary:   "the register counting each agent's ack and reply once: clean with --duplicate and --timeouts, where register with 3 agents is not",
		Harnesses: register.VolatileHarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return register.NewIdempotent(c.Agents, c.Harness) },
	},
	{
		Name:      "adr",
		Summary:   "DS2's another distributed register (§4.3): every agent coordinates; reads retry until all copies agree, and one out of retries stays open (#IH without faults)",
		Harnesses: adr.HarnessNames,
		Agents:    2,
		Retries:   adr.DefaultRetries,
		Build:     func(c Config) (model.System, error) { return adr.New(c.Agents, c.Retries, c.Harness) },
	},
	{
		Name:      "adr-buggy",
		Summary:   "another distributed register whose coordinators answer a disagreeing read with their own copy",
		Harnesses: adr.HarnessNames,
		Agents:    2,
		Retries:   adr.DefaultRetries,
		Build:     func(c Config) (model.System, error) { return adr.NewBuggy(c.Agents, c.Retries, c.Harness) },
	},
	{
		Name:      "chord",
		Summary:   "buggy (DS2's name): Open Chord (§4.4), a node joins while clients read and write, and serves reads before its join completes (Figure 7)",
		Harnesses: chord.HarnessNames,
		Agents:    2,
		Build:     func(c Config) (model.System, error) { return chord.New(c.Agents, c.Harness) },
	},
	{
		Name:      "chord-fixed",
		Summary:   "the correct Open Chord: a joining node defers requests until its join completes",
		Harnesses: chord.HarnessNames,
		Agents:    2,
		Build:     func(c Config) (model.System, error) { return chord.NewFixed(c.Agents, c.Harness) },
	},
	{
		Name:      "paxos",
		Summary:   "DS2's Multi-Paxos replicated map (§4.5): leader n0, every operation through the log",
		Harnesses: paxos.HarnessNames,
		Agents:    2,
		Retries:   paxos.DefaultRetries,
		Build:     func(c Config) (model.System, error) { return paxos.New(c.Agents, c.Retries, c.Harness) },
	},
	{
		Name:      "paxos-buggy",
		Summary:   "Multi-Paxos map whose leader answers a read when its slot is chosen, before earlier slots are applied",
		Harnesses: paxos.HarnessNames,
		Agents:    2,
		Retries:   paxos.DefaultRetries,
		Build:     func(c Config) (model.System, error) { return paxos.NewBuggy(c.Agents, c.Retries, c.Harness) },
	},
	{
		Name:      "gossip",
		Summary:   "synthetic: n agents broadcast their writes; the state space grows with --agents (scaling benchmarks); not linearizable by design: rw finds stale reads",
		Harnesses: gossip.HarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return gossip.New(c.Agents, c.Harness) },
	},
	{
		Name:      "abd",
		Summary:   "leaderless quorum register with write-back reads (ABD): one writer, readers at every replica; --timeouts re-sends a write to another replica, outside single-writer ABD (2w2r then fails)",
		Harnesses: abd.HarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return abd.New(c.Agents, c.Harness) },
	},
	{
		Name:      "abd-buggy",
		Summary:   "ABD register whose reads answer without writing back: a new value, then an old one",
		Harnesses: abd.HarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return abd.NewBuggy(c.Agents, c.Harness) },
	},
	{
		Name:      "leader",
		Summary:   "leader-based register with an election timer and request forwarding; its state space has cycles",
		Harnesses: leader.HarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return leader.New(c.Agents, c.Harness) },
	},
	{
		Name:      "leader-buggy",
		Summary:   "leader-based register whose new leader keeps its own value instead of the newest promised one",
		Harnesses: leader.HarnessNames,
		Agents:    3,
		Build:     func(c Config) (model.System, error) { return leader.NewBuggy(c.Agents, c.Harness) },
	},
	{
		Name:       "microbench",
		Summary:    "Ozkan et al. 2019's sampler micro-benchmark (docs/samplers.md): racy chains A, B, C of length L on N, started by Write(0), Write(1), Write(2); --agents is k, the non-racy chains; harness bug<1|2>-L<n>",
		Harnesses:  microbench.HarnessNames,
		Agents:     1,
		AgentsAre:  "k",
		ZeroAgents: true,
		Build: func(c Config) (model.System, error) {
			bug, L, err := microbench.ParseHarness(c.Harness)
			if err != nil {
				return model.System{}, err
			}
			return microbench.New(L, c.Agents, bug)
		},
	},
}

// All lists the shipped systems in a fixed order.
func All() []Entry { return catalog }

// Names lists the systems' names.
func Names() []string {
	out := make([]string, len(catalog))
	for i, e := range catalog {
		out[i] = e.Name
	}
	return out
}

// Lookup finds a system by name; the error lists the valid names.
func Lookup(name string) (Entry, error) {
	for _, e := range catalog {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("unknown system %q (valid: %s)", name, strings.Join(Names(), ", "))
}
